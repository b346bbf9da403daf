package io.commitflow.cli;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.EventParser;
import io.commitflow.event.Origin;
import io.commitflow.event.PushEvent;
import io.commitflow.event.RawRecord;
import io.commitflow.job.BootstrapOption;
import io.commitflow.job.DurationConverter;
import io.commitflow.job.KafkaPropertiesOption;
import io.commitflow.mirror.MirrorMetrics;
import io.commitflow.mirror.MirrorSources;
import io.commitflow.mirror.MirrorSync;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code commitflow mirror}: the service that keeps the job's mirror root in step with the Git servers, driven by
 * the same events the job reads.
 */
@Command(name = "mirror", mixinStandardHelpOptions = true,
        description = {"Reads the job's events topic (a consumer group of its own) and, for every push or commit whose "
                + "commit the mirror root lacks, clones the repository on first sight (git clone --mirror) or fetches "
                + "it (git fetch --prune), from --mirror-source's URL for the event's tenant. The job waits for the "
                + "mirror (--mirror-max-wait) meanwhile, so a push to a repository nobody prepared is described once "
                + "the clone lands.",
                "One clone or fetch per repository at a time, --threads repositories in parallel, retries with backoff, "
                        + "a timeout per run; offsets are committed once the events' commits are in (or given up), so "
                        + "a restart fetches again what was not. Prometheus metrics per outcome on --metrics-port. Run "
                        + "it beside the job where the TaskManagers' mirror root is (see docs/architecture.md, Deployment)."},
        footer = {"", "Example: GIT_SSH_COMMAND='ssh -i /keys/mirror' ./commitflow mirror --bootstrap kafka:9092 "
                + "--mirror-root /srv/mirrors --mirror-source 'acme=ssh://git@gerrit:29418/{name}' "
                + "--mirror-source '*=https://gitea.example.com/{name}.git'"})
public final class MirrorCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    BootstrapOption bootstrapOption = new BootstrapOption();

    @Mixin
    EventsTopicOption topic = new EventsTopicOption();

    @Option(names = "--group-id", defaultValue = "commitflow-mirror", paramLabel = "ID",
            description = "Consumer group; one per mirror root (default: ${DEFAULT-VALUE}).")
    String groupId;

    @Option(names = "--mirror-root", required = true, paramLabel = "DIR",
            description = "The folder of bare mirrors the job reads (its --mirror-root); created when missing.")
    Path mirrorRoot;

    @Option(names = "--mirror-source", required = true, paramLabel = "TENANT=URL_TEMPLATE",
            description = "Where a tenant's repositories are fetched from ({repo}: the name in the event, {name}: the same "
                    + "without .git; * for every other tenant). Repeatable. Credentials come from the environment "
                    + "(ssh keys, GIT_SSH_COMMAND, a credential helper, GIT_CONFIG_COUNT/KEY/VALUE), never the URL.")
    List<String> sources = new ArrayList<>();

    @Option(names = "--threads", defaultValue = "4", paramLabel = "N",
            description = "Repositories cloned or fetched at once (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--git-timeout", defaultValue = "10m", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "A clone or fetch running longer is stopped and retried (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--attempts", defaultValue = "5", paramLabel = "N",
            description = "Runs of a failing clone or fetch before giving up on the event (default: ${DEFAULT-VALUE}).")
    int attempts;

    @Option(names = "--backoff", defaultValue = "1s", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "The wait after a first failure, doubled after each further one up to 1m (default: ${DEFAULT-VALUE}).")
    Duration backoff;

    @Option(names = "--metrics-port", defaultValue = "9250", paramLabel = "PORT",
            description = "Prometheus endpoint (/metrics); 0: none (default: ${DEFAULT-VALUE}).")
    int metricsPort;

    @Mixin
    KafkaPropertiesOption kafkaProperties = new KafkaPropertiesOption();

    private final AtomicBoolean stop = new AtomicBoolean();
    private volatile KafkaConsumer<byte[], byte[]> consumer;

    /** Asks a running service to stop (as Ctrl-C does); tests call it. */
    void stop() {
        stop.set(true);
        KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
    }

    @Override
    public Integer call() throws Exception {
        String bootstrap = bootstrapOption.required(spec);
        String eventsTopic = topic.name(); // a name it cannot use is refused before Kafka is asked
        Map<String, String> properties = kafkaProperties.properties();
        MirrorSources src;
        try {
            src = MirrorSources.parse(sources);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        if (threads < 1 || attempts < 1) {
            throw new UserError("--threads and --attempts must be at least 1");
        }
        if (metricsPort < 0 || metricsPort > 65535) {
            throw new UserError("--metrics-port must be a port from 1 to 65535, or 0 for none; got " + metricsPort);
        }
        if (timeout.isZero() || timeout.isNegative() || backoff.isNegative()) {
            throw new UserError("--git-timeout must be positive and --backoff not negative");
        }
        KafkaReach.require(bootstrap, properties, KafkaReach.DEFAULT_WAIT);
        PrintWriter out = spec.commandLine().getOut();
        MirrorMetrics metrics = new MirrorMetrics();
        DateTimeFormatter hhmmss = DateTimeFormatter.ofPattern("HH:mm:ss");
        MirrorSync.Settings settings = new MirrorSync.Settings(mirrorRoot, src, timeout, attempts, backoff,
                Duration.ofMinutes(1), threads);
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop();
            try {
                done.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "commitflow-mirror-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        HTTPServer http = metricsPort == 0 ? null : metricsServer(metrics);
        try (MirrorSync sync = new MirrorSync(settings, metrics, line -> {
            synchronized (out) {
                out.println(LocalTime.now().format(hhmmss) + "  " + line);
                out.flush();
            }
        })) {
            out.printf("commitflow mirror: %s → %s (sources %s)%s%n", eventsTopic, mirrorRoot, src,
                    http == null ? "" : ", metrics http://localhost:" + metricsPort + "/metrics");
            out.flush();
            consume(sync, eventsTopic);
            out.println("stopped");
            return 0;
        } finally {
            if (http != null) {
                http.close();
            }
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down: the hook waits for us
            }
        }
    }

    private void consume(MirrorSync sync, String eventsTopic) {
        Map<String, Object> p = new HashMap<>(kafkaProperties.properties());
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapOption.servers()); // checked in call()
        p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, groupId);
        // a batch is committed once its clones and fetches are done: allow them their retries
        p.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE,
                timeout.multipliedBy(attempts).plus(Duration.ofMinutes(attempts)).toMillis() + 60_000));
        EventParser parser = new EventParser(EventParser.DEFAULT_MAX_EVENT_BYTES);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer = c;
            c.subscribe(List.of(eventsTopic));
            while (!stop.get()) {
                ConsumerRecords<byte[], byte[]> records = c.poll(Duration.ofMillis(500));
                List<CompletableFuture<MirrorSync.Outcome>> pending = new ArrayList<>();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    var parsed = parser.parse(new RawRecord(new Origin(r.topic(), r.partition(), r.offset(), r.timestamp()),
                            r.key(), r.value()));
                    if (parsed instanceof EventParser.Result.Push push) {
                        PushEvent e = push.event();
                        if (!e.after().matches("0+")) { // a deleted ref needs nothing
                            pending.add(sync.ensure(e.tenant(), e.repo(), e.after()));
                        }
                    } else if (parsed instanceof EventParser.Result.Commit commit) {
                        CommitEvent e = commit.event();
                        if (e.patch() == null && !e.draft()) { // an inline patch needs no mirror
                            pending.add(sync.ensure(e.tenant(), e.repo(), e.sha()));
                        }
                    } // what does not parse is the job's to dead-letter
                }
                CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
                if (!records.isEmpty()) {
                    c.commitSync();
                }
            }
        } catch (WakeupException e) {
            // stop() asked
        } finally {
            consumer = null;
        }
    }

    private HTTPServer metricsServer(MirrorMetrics metrics) throws IOException {
        try {
            return metrics.serve(metricsPort);
        } catch (java.net.BindException e) {
            throw new UserError("port " + metricsPort + " for the metrics is in use; choose another with --metrics-port "
                    + "PORT, or 0 for none");
        }
    }
}
