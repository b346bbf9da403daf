package io.commitflow.cli;

import io.commitflow.job.CommitMessageJob;
import io.commitflow.job.KafkaIO;
import io.commitflow.job.KafkaSettings;
import io.commitflow.job.PipelineSettings;
import io.commitflow.replay.kafka.LocalKafka;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * What a local run of the job stands on, for {@code demo} and {@code loadtest}: a temporary work folder, a Kafka
 * broker (started here, or one the caller names), the run's topics, and the job on a local Flink with the web UI and
 * the Prometheus endpoint. Started in that order, one step at a time, so that a caller can do its own work in
 * between (the load test puts repository copies into the work folder before the job starts).
 *
 * <p>{@link #close()} tears down whatever was started, on every path out: done, failure, or Ctrl-C. A shutdown
 * hook turns Ctrl-C into a {@linkplain #stopRequested() stop request} and then waits, bounded, until the caller has
 * seen it and closed the stack; otherwise the JVM would exit while the job and the broker are still running.
 *
 * <pre>{@code
 * try (LocalStack stack = LocalStack.open("demo", out)) {
 *     stack.startKafka();
 *     KafkaSettings k = stack.createTopics(KafkaSettings.defaults(stack.bootstrap()), Map.of("commitflow.events", 2));
 *     JobClient job = stack.startJob(PipelineSettings.defaults(mirrors), flink);
 *     while (!stack.stopRequested()) { … }
 * }
 * }</pre>
 */
final class LocalStack implements AutoCloseable {
    /** How long Ctrl-C waits for {@link #close()}: cancelling the job and stopping the broker take seconds each. */
    private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(60);

    /** The local Flink of a run: its ports, parallelism, checkpoint interval, and how long its tasks may take to start. */
    record Flink(int webPort, int metricsPort, int parallelism, Duration checkpointInterval, Duration startTimeout) {}

    private final String name;
    private final PrintWriter out;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread hook;
    private Path work;
    private LocalKafka kafka;
    private String bootstrap;
    private KafkaSettings settings;
    private JobClient job;
    private volatile int metricsPort;

    private LocalStack(String name, PrintWriter out) {
        this.name = name;
        this.out = out;
        this.hook = new Thread(this::interrupt, "commitflow-" + name + "-shutdown");
    }

    /**
     * Installs the Ctrl-C hook and makes the work folder {@code commitflow-NAME-…} in the temporary folder.
     *
     * @param name what runs ({@code demo}, {@code loadtest}): it names the folder, the hook thread, the output
     *             consumer group and the job
     */
    static LocalStack open(String name, PrintWriter out) throws IOException {
        LocalStack stack = new LocalStack(name, out);
        Runtime.getRuntime().addShutdownHook(stack.hook);
        try {
            stack.work = Files.createTempDirectory("commitflow-" + name + "-");
        } catch (IOException | RuntimeException e) {
            stack.closed.countDown();
            stack.removeHook();
            throw e;
        }
        return stack;
    }

    /** Starts a single-node broker of our own under the work folder. */
    void startKafka() throws IOException, InterruptedException {
        out.println("starting Kafka …");
        kafka = LocalKafka.start(work.resolve("kafka"), LocalKafka.classpathFromSystemProperty());
        bootstrap = kafka.bootstrap();
    }

    /** Uses a broker that someone else runs and stops. */
    void useKafka(String bootstrapServers) {
        bootstrap = bootstrapServers;
    }

    /** Creates the topics (name → partitions) the run needs; the job reads and writes as {@code k} says. */
    KafkaSettings createTopics(KafkaSettings k, Map<String, Integer> partitions) throws IOException {
        LocalKafka.createTopics(bootstrap, partitions);
        settings = k;
        return k;
    }

    /** The job's Prometheus port once {@link #startJob} ran, else 0. */
    int metricsPort() {
        return metricsPort;
    }

    /**
     * Submits the job, reading and writing the topics of {@link #createTopics}, says where to watch it, and returns
     * once all its tasks run.
     *
     * @throws UserError when they do not within the start timeout, with the cause
     */
    JobClient startJob(PipelineSettings pipeline, Flink flink) throws Exception {
        metricsPort = flink.metricsPort();
        Configuration conf = LocalFlink.configuration(work, flink.webPort(), flink.metricsPort(), flink.parallelism());
        LocalFlink.interactiveCheckpoints(conf, flink.checkpointInterval());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(conf);
        env.setParallelism(flink.parallelism());
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(settings).build(), KafkaIO.suggestionSink(settings),
                KafkaIO.deadLetterSink(settings), KafkaIO.slaSink(settings), CommitMessageJob.Interactive.of(settings), pipeline);
        job = env.executeAsync(CommitMessageJob.NAME + " " + name);
        out.printf("Kafka %s · Flink web UI http://localhost:%d · Prometheus http://localhost:%d/metrics%n", bootstrap,
                flink.webPort(), flink.metricsPort());
        out.flush();
        long started = System.nanoTime();
        JobStart.awaitRunning(job, flink.webPort(), flink.startTimeout());
        out.printf(java.util.Locale.ROOT, "the job runs: %d task slots, all tasks started in %.1f s%n", flink.parallelism(),
                (System.nanoTime() - started) / 1e9);
        return job;
    }

    /**
     * A consumer of the job's suggestions and dead letters from the earliest offset, seeing only committed
     * (exactly-once) output; it commits no offsets, so every run reads all of it.
     */
    KafkaConsumer<byte[], byte[]> outputConsumer() {
        Map<String, Object> p = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "commitflow-" + name + "-output",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        c.subscribe(List.of(settings.suggestionsTopic(), settings.deadLetterTopic()));
        return c;
    }

    Path workDir() {
        return work;
    }

    String bootstrap() {
        return bootstrap;
    }

    KafkaSettings kafkaSettings() {
        return settings;
    }

    /** True after Ctrl-C, {@link #requestStop()} or {@link #close()}: what the caller's loops check. */
    boolean stopRequested() {
        return stop.get();
    }

    /** Asks every loop that watches {@link #stopRequested()} to end, as Ctrl-C does, but silently. */
    void requestStop() {
        stop.set(true);
    }

    /**
     * Cancels the job, stops our broker, deletes the work folder, in that order: each needs the next one up. From
     * here on the terminal shows no log lines ({@link TerminalLog}): a cancelling job's background work can log
     * errors that mean nothing; the log file keeps them.
     */
    @Override
    public void close() {
        stop.set(true);
        try {
            if (job != null) {
                TerminalLog.quiet();
                cancel(job);
            }
            if (kafka != null) {
                kafka.close();
            }
            deleteRecursively(work);
        } finally {
            closed.countDown();
            removeHook();
        }
    }

    /** Ctrl-C: ask the caller to stop, and wait (bounded) until it has closed the stack. */
    private void interrupt() {
        if (stop.compareAndSet(false, true)) {
            out.println();
            out.println("stopping …");
            out.flush();
        }
        try {
            closed.await(SHUTDOWN_WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void removeHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook is running and waits for close()
        }
    }

    private static void cancel(JobClient job) {
        try {
            if (!job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState()) {
                job.cancel().get(30, TimeUnit.SECONDS);
            }
            job.getJobExecutionResult().handle((r, e) -> null).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            // the local cluster goes down with this JVM in any case
        }
    }

    /** Best effort: the launcher removes its whole temporary folder afterwards in any case. */
    static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // a file that vanished under us, or one still held: nothing to do about it here
        }
    }
}
