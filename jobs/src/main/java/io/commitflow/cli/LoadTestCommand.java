package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.job.KafkaSettings;
import io.commitflow.job.PipelineSettings;
import io.commitflow.replay.Events;
import io.commitflow.replay.History;
import io.commitflow.replay.RateProfile;
import io.commitflow.replay.Replayer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code commitflow loadtest}: the job under a rate profile of a real repository's history, measured from outside
 * through Kafka, with a JSON and an HTML report.
 */
@Command(name = "loadtest", mixinStandardHelpOptions = true,
        description = {"Starts Kafka (or uses --bootstrap) and the job on a local Flink, replays a repository's history at "
                + "a rate profile, reads the suggestions (read_committed) and dead letters, and measures per step of the "
                + "profile: offered rate, achieved TPS, P50/P95/P99/P999 latency from each event's Kafka timestamp to its "
                + "suggestion's, error rate, peak memory (RSS of this JVM, which runs the job). Writes DIR/report.json "
                + "and DIR/report.html (plots, viewable offline).",
                "Load beyond the history replays it again under other repository names (one alternates-clone of the "
                        + "repository per name, spread over --tenants tenants), so dedup drops nothing."},
        footer = {"", "Example: ./commitflow loadtest --repo ~/src/jgit --rate steps:50,100,200,400/30s --report out/load"})
public final class LoadTestCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--repo", required = true, paramLabel = "PATH", description = "Repository whose history is replayed.")
    Path repo;

    @Option(names = "--rate", required = true, paramLabel = "PROFILE",
            description = "constant:N/T, ramp:A..B/T, steps:A,B,C/T (T per step), or N events/s until the history ends.")
    String rate;

    @Option(names = "--mode", defaultValue = "commit", paramLabel = "commit|push",
            description = "Commit events, or push events of --commits-per-push commits (default: ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--commits-per-push", defaultValue = "3", paramLabel = "N",
            description = "Commits per push in push mode (default: ${DEFAULT-VALUE}).")
    int perPush;

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT",
            description = "Use this Kafka (the run creates its own topics) instead of starting a local broker.")
    String bootstrap;

    @Option(names = "--report", defaultValue = "loadtest-report", paramLabel = "DIR",
            description = "Where report.json and report.html go (default: ${DEFAULT-VALUE}).")
    Path report;

    @Option(names = "--tenants", defaultValue = "4", paramLabel = "N",
            description = "Tenants the repository copies are spread over (default: ${DEFAULT-VALUE}).")
    int tenants;

    @Option(names = "--history", defaultValue = "5000", paramLabel = "N",
            description = "Commits of the history to use, oldest first (default: ${DEFAULT-VALUE}).")
    int history;

    @Option(names = "--drain-timeout", defaultValue = "60s", converter = io.commitflow.job.DurationConverter.class,
            paramLabel = "DURATION", description = "After the profile, how long to wait for outstanding output "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration drainTimeout;

    @Option(names = "--checkpoint-interval", defaultValue = "1s", converter = io.commitflow.job.DurationConverter.class,
            paramLabel = "DURATION", description = "The job's checkpoint interval (default: ${DEFAULT-VALUE}).")
    Duration checkpointInterval;

    @picocli.CommandLine.Mixin
    LocalRunOptions local = new LocalRunOptions();

    @Override
    public Integer call() throws Exception {
        RateProfile profile;
        try {
            profile = RateProfile.parse(rate);
        } catch (IllegalArgumentException e) {
            throw new UserError("--rate: " + e.getMessage());
        }
        if (tenants < 1 || history < 1 || perPush < 1) {
            throw new UserError("--tenants, --history and --commits-per-push must be at least 1");
        }
        Events.Mode as;
        try {
            as = Events.Mode.parse(mode);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        local.check();
        PrintWriter out = spec.commandLine().getOut();
        List<History.Commit> commits;
        Path objects;
        try (Repository r = History.open(repo)) {
            commits = History.oldestFirst(r, "HEAD", history);
            objects = r.getObjectDatabase() instanceof org.eclipse.jgit.internal.storage.file.ObjectDirectory od
                    ? od.getDirectory().toPath().toAbsolutePath() : null;
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        if (objects == null) {
            throw new UserError(repo + " is not a repository on disk");
        }
        int perCopy = as == Events.Mode.PUSH ? Math.max(1, (commits.size() - 1 + perPush - 1) / perPush) : commits.size();
        int copies = (int) Math.max(tenants, Math.min(10_000, Math.ceil(Math.min(profile.events(), 1e9) / perCopy)));
        if (Double.isInfinite(profile.events())) {
            copies = tenants;
        }

        try (LocalStack stack = LocalStack.open("loadtest", out)) {
            Path mirrors = Files.createDirectories(stack.workDir().resolve("mirrors"));
            List<String> names = new ArrayList<>();
            for (int i = 0; i < copies; i++) {
                names.add(copy(objects, mirrors, "t" + (i % tenants) + "-r" + i));
            }
            out.printf("loadtest: %s, %d commits × %d repository copies over %d tenants, profile %s (%.0f events over %.0f s)%n",
                    repo, commits.size(), copies, tenants, profile, profile.events(), profile.seconds());
            if (bootstrap == null) {
                stack.startKafka();
            } else {
                stack.useKafka(bootstrap);
            }
            String servers = stack.bootstrap();
            String prefix = "commitflow.loadtest." + System.currentTimeMillis();
            KafkaSettings k = new KafkaSettings(servers, prefix + ".events", prefix + ".suggestions", prefix + ".dlq",
                    prefix + ".sla", prefix, true, org.apache.flink.connector.base.DeliveryGuarantee.EXACTLY_ONCE,
                    prefix, Duration.ofMinutes(10), Map.of());
            stack.createTopics(k, Map.of(k.eventsTopic(), Math.max(2, local.parallelism), k.suggestionsTopic(), 2,
                    k.deadLetterTopic(), 1, k.slaTopic(), 1));
            stack.startJob(PipelineSettings.defaults(mirrors.toString()), local.flink(checkpointInterval));

            List<Replayer.Event> events = interleave(as, commits, names, k.eventsTopic(), profile);
            long[] sentAt = new long[events.size()];
            AtomicLong sentCount = new AtomicLong();
            List<LoadReport.Outcome> outcomes = java.util.Collections.synchronizedList(new ArrayList<>());
            Map<Integer, Double> peakRss = new ConcurrentHashMap<>();
            long start = System.currentTimeMillis();
            CountDownLatch consumerUp = new CountDownLatch(1);
            Thread consumer = new Thread(() -> consume(stack, outcomes, consumerUp), "commitflow-loadtest-consumer");
            consumer.setDaemon(true);
            consumer.start();
            Thread sampler = new Thread(() -> sampleRss(stack, profile, start, peakRss), "commitflow-loadtest-rss");
            sampler.setDaemon(true);
            sampler.start();
            consumerUp.await(30, TimeUnit.SECONDS);

            Replayer.Progress done;
            try (Replayer replayer = new Replayer(servers, Map.of())) {
                done = replayer.replay(events, profile, p -> out.printf(Locale.ROOT,
                                "  %6.1f s  offered %7.1f/s  sent %7d  answered %7d  %s%n", p.elapsedSeconds(),
                                p.offeredPerSecond(), p.sent(), outcomes.size(), recentP99(outcomes)),
                        stack::stopRequested, (n, at) -> {
                            sentAt[(int) n] = at;
                            sentCount.set(n + 1);
                        });
            }
            long sent = sentCount.get();
            out.printf("replayed %d events in %.1f s (%d failed); waiting for the output …%n", sent, done.elapsedSeconds(),
                    done.failed());
            long deadline = System.nanoTime() + drainTimeout.toNanos();
            int lastSize = -1;
            long quietSince = System.nanoTime();
            while (!stack.stopRequested() && System.nanoTime() < deadline) {
                int size = outcomes.size();
                if (as == Events.Mode.COMMIT && size >= sent) {
                    break;
                }
                if (size != lastSize) {
                    lastSize = size;
                    quietSince = System.nanoTime();
                } else if (as == Events.Mode.PUSH && System.nanoTime() - quietSince > TimeUnit.SECONDS.toNanos(10)) {
                    break;
                }
                Thread.sleep(200);
            }
            sampler.interrupt();
            List<LoadReport.Outcome> measured;
            synchronized (outcomes) {
                measured = new ArrayList<>(outcomes);
            }
            LoadReport r = new LoadReport(profile, start, java.util.Arrays.copyOf(sentAt, (int) sent), measured, peakRss);
            r.write(report, "commitflow load test: " + profile + " (" + mode + " events of " + repo.getFileName() + ")");
            out.printf("%d outcomes for %d events%s%n", measured.size(), sent,
                    as == Events.Mode.COMMIT && measured.size() < sent ? " (some still outstanding at the drain timeout)" : "");
            out.println("step  offered/s      TPS   P50 ms   P95 ms   P99 ms  P999 ms   errors  peak RSS MB");
            int i = 1;
            for (LoadReport.Step s : r.steps()) {
                out.printf(Locale.ROOT, "%4d  %9.1f  %7.1f  %7.0f  %7.0f  %7.0f  %7.0f  %6.3f%%  %11.0f%n", i++, s.offeredPerS(),
                        s.tps(), s.p50Ms(), s.p95Ms(), s.p99Ms(), s.p999Ms(), s.errorRate() * 100, s.peakRssMb());
            }
            out.printf("report: %s, %s%n", report.resolve("report.json"), report.resolve("report.html"));
            return stack.stopRequested() ? 130 : 0;
        }
    }

    /** A bare repository {@code name} under {@code mirrors} that borrows every object of {@code objects}. */
    static String copy(Path objects, Path mirrors, String name) throws IOException {
        Path dir = mirrors.resolve(name + ".git");
        try (Repository r = new FileRepositoryBuilder().setGitDir(dir.toFile()).setBare().build()) {
            r.create(true);
        }
        Files.writeString(dir.resolve("objects/info/alternates"), objects + "\n");
        return name + ".git";
    }

    /** Round-robin over the copies, each replaying the history oldest first, as many events as the profile offers. */
    private List<Replayer.Event> interleave(Events.Mode as, List<History.Commit> commits, List<String> names, String topic,
                                            RateProfile profile) {
        List<List<Replayer.Event>> perCopy = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            Replayer.Target t = new Replayer.Target(topic, "tenant-" + (i % tenants), names.get(i));
            perCopy.add(as.events(commits, t, perPush));
        }
        long wanted = (long) Math.min(profile.events(), Integer.MAX_VALUE - 8);
        List<Replayer.Event> out = new ArrayList<>();
        int longest = perCopy.stream().mapToInt(List::size).max().orElse(0);
        for (int j = 0; j < longest && out.size() < wanted; j++) {
            for (List<Replayer.Event> c : perCopy) {
                if (j < c.size() && out.size() < wanted) {
                    out.add(c.get(j));
                }
            }
        }
        return out;
    }

    /** Reads suggestions and dead letters as they are committed. */
    private void consume(LocalStack stack, List<LoadReport.Outcome> outcomes, CountDownLatch up) {
        KafkaSettings k = stack.kafkaSettings();
        try (KafkaConsumer<byte[], byte[]> c = stack.outputConsumer()) {
            up.countDown();
            while (!stack.stopRequested()) {
                for (ConsumerRecord<byte[], byte[]> rec : c.poll(Duration.ofMillis(200))) {
                    JsonNode n = Json.mapper().readTree(rec.value());
                    boolean dead = rec.topic().equals(k.deadLetterTopic());
                    long eventMs = dead ? n.path("origin").path("kafkaTs").asLong() : n.path("kafkaTs").asLong();
                    String tenant = n.path("tenant").asText();
                    outcomes.add(new LoadReport.Outcome(eventMs, rec.timestamp(), tenant.isEmpty() ? "unknown" : tenant, dead));
                }
            }
        } catch (Exception e) {
            if (!stack.stopRequested()) {
                spec.commandLine().getErr().println("loadtest: reading the output failed: " + e);
            }
        } finally {
            up.countDown();
        }
    }

    /** The JVM's resident memory, sampled four times a second, the peak per step. */
    private void sampleRss(LocalStack stack, RateProfile profile, long start, Map<Integer, Double> peak) {
        while (!stack.stopRequested() && !Thread.currentThread().isInterrupted()) {
            double mb = rssMb();
            int step = Math.max(0, profile.stepAt((System.currentTimeMillis() - start) / 1000.0));
            if (profile.stepAt((System.currentTimeMillis() - start) / 1000.0) < 0) {
                step = Math.max(0, profile.steps().size() - 1); // draining: the last step's output
            }
            peak.merge(step, mb, Math::max);
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    static double rssMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux: the heap is the next best thing
        }
        Runtime rt = Runtime.getRuntime();
        return (rt.totalMemory() - rt.freeMemory()) / 1048576.0;
    }

    /** P99 of the outcomes of the last five seconds, for the progress line. */
    private static String recentP99(List<LoadReport.Outcome> outcomes) {
        long since = System.currentTimeMillis() - 5000;
        long[] v;
        synchronized (outcomes) {
            v = outcomes.stream().filter(o -> !o.error() && o.outputMs() >= since).mapToLong(LoadReport.Outcome::latencyMs)
                    .sorted().toArray();
        }
        return v.length == 0 ? "" : String.format(Locale.ROOT, "P99(5 s) %.0f ms", LoadReport.quantile(v, 99));
    }
}
