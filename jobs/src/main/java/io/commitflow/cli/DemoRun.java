package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.job.CommitMessageJob;
import io.commitflow.job.JobParameters;
import io.commitflow.job.KafkaIO;
import io.commitflow.job.KafkaSettings;
import io.commitflow.job.PipelineSettings;
import io.commitflow.replay.History;
import io.commitflow.replay.Replayer;
import io.commitflow.replay.kafka.LocalKafka;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * One run of the demo: a work folder, a broker, the job, the replay and the printer; {@link #run()} tears all of
 * them down on every path out (done, failure, Ctrl-C).
 */
final class DemoRun {
    record Settings(History.Location repo, String tenant, double rate, int webPort, int metricsPort, int parallelism,
                    Duration checkpointInterval, Duration idleTimeout, io.commitflow.sla.SlaSettings sla) {}

    private final Settings s;
    private final List<History.Commit> commits;
    private final PrintWriter out;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicReference<String> failure = new java.util.concurrent.atomic.AtomicReference<>();
    private final CountDownLatch finished = new CountDownLatch(1);

    DemoRun(Settings s, List<History.Commit> commits, PrintWriter out) {
        this.s = s;
        this.commits = commits;
        this.out = out;
    }

    int run() throws Exception {
        Thread hook = new Thread(this::interrupt, "commitflow-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        Path work = Files.createTempDirectory("commitflow-demo-");
        LocalKafka kafka = null;
        JobClient job = null;
        Thread replay = null;
        try {
            out.printf("commitflow demo: %d commits of %s, %s/s%n", commits.size(), s.repo().root().resolve(s.repo().name()),
                    s.rate() <= 0 ? "unlimited" : fmt(s.rate()));
            out.println("starting Kafka …");
            kafka = LocalKafka.start(work.resolve("kafka"), LocalKafka.classpathFromSystemProperty());
            KafkaSettings k = KafkaSettings.defaults(kafka.bootstrap());
            kafka.createTopics(Map.of(k.eventsTopic(), 2, k.suggestionsTopic(), 2, k.deadLetterTopic(), 1));

            job = startJob(work, k);
            out.printf("Kafka %s · Flink web UI http://localhost:%d · Prometheus http://localhost:%d/metrics%n",
                    kafka.bootstrap(), s.webPort(), s.metricsPort());

            Replayer.Target target = new Replayer.Target(k.eventsTopic(), s.tenant(), s.repo().name());
            String bootstrap = kafka.bootstrap();
            replay = new Thread(() -> replay(bootstrap, target), "commitflow-demo-replay");
            replay.start();
            return print(k, job);
        } finally {
            stop.set(true);
            if (replay != null) {
                replay.join(TimeUnit.SECONDS.toMillis(15));
            }
            if (job != null) {
                cancel(job);
            }
            if (kafka != null) {
                kafka.close();
            }
            deleteRecursively(work);
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down: the hook is running and waits for us
            }
        }
    }

    /** Ctrl-C: ask the main thread to stop and wait (bounded) until it has cleaned up. */
    private void interrupt() {
        if (stop.compareAndSet(false, true)) {
            out.println();
            out.println("stopping …");
        }
        try {
            finished.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private JobClient startJob(Path work, KafkaSettings k) throws Exception {
        Configuration conf = LocalFlink.configuration(work, s.webPort(), s.metricsPort());
        LocalFlink.interactiveCheckpoints(conf, s.checkpointInterval());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(conf);
        env.setParallelism(s.parallelism());
        PipelineSettings pipeline = PipelineSettings.defaults(s.repo().root().toString()).withSla(s.sla());
        JobParameters p = new JobParameters(k, pipeline);
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(p.kafka()).build(), KafkaIO.suggestionSink(p.kafka()),
                KafkaIO.deadLetterSink(p.kafka()), KafkaIO.slaSink(p.kafka()), p.pipeline());
        return env.executeAsync(CommitMessageJob.NAME + " demo");
    }

    private void replay(String bootstrap, Replayer.Target target) {
        try (Replayer r = new Replayer(bootstrap, Map.of())) {
            Replayer.Progress done = r.replay(commits, target, s.rate(), p -> { }, stop::get);
            if (done.failed() > 0) {
                out.printf("replay: %d of %d events failed, first: %s%n", done.failed(), done.sent(), done.firstError());
            }
        } catch (RuntimeException | LinkageError e) {
            failure.compareAndSet(null, "the replay failed: " + e);
            stop.set(true);
        }
    }

    /** Prints each result as it arrives; returns the exit code. */
    private int print(KafkaSettings k, JobClient job) throws Exception {
        Map<String, History.Commit> bySha = new HashMap<>();
        commits.forEach(c -> bySha.put(c.sha(), c));
        Set<String> seen = new HashSet<>();
        int suggestions = 0;
        int deadLetters = 0;
        long start = System.nanoTime();
        long lastOutput = start;
        try (KafkaConsumer<byte[], byte[]> consumer = outputConsumer(k)) {
            consumer.subscribe(List.of(k.suggestionsTopic(), k.deadLetterTopic()));
            while (seen.size() < commits.size()) {
                if (stop.get()) {
                    if (failure.get() != null) {
                        out.println(failure.get());
                    }
                    summary(suggestions, deadLetters, start);
                    return failure.get() != null ? 1 : 130;
                }
                if (job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState()) {
                    out.println("the job ended unexpectedly: " + job.getJobStatus().get() + " (see the log)");
                    return 1;
                }
                for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(Duration.ofMillis(200))) {
                    JsonNode n = Json.mapper().readTree(rec.value());
                    boolean dead = rec.topic().equals(k.deadLetterTopic());
                    String sha = n.path("sha").asText();
                    History.Commit c = bySha.get(sha);
                    if (c == null || !seen.add(sha)) {
                        continue; // not one of ours, or a repeat
                    }
                    lastOutput = System.nanoTime();
                    double elapsed = (lastOutput - start) / 1e9;
                    String head = String.format("%5d/%-5d %6s/s  %s  ", seen.size(), commits.size(),
                            fmt(seen.size() / Math.max(elapsed, 1e-3)), sha.substring(0, 7));
                    if (dead) {
                        deadLetters++;
                        out.println(head + "DEAD LETTER " + n.path("reason").asText() + ": " + n.path("detail").asText());
                    } else {
                        suggestions++;
                        out.println(head + "real: " + c.subject());
                        out.println(" ".repeat(head.length()) + "made: " + n.path("subject").asText() + "  ["
                                + typeAndScope(n) + ", " + n.path("latencyMs").asLong() + " ms" + origin(n) + "]");
                    }
                    out.flush();
                }
                if (System.nanoTime() - lastOutput > s.idleTimeout().toNanos()) {
                    out.printf("no output for %d s; giving up (see the log)%n", s.idleTimeout().toSeconds());
                    summary(suggestions, deadLetters, start);
                    return 1;
                }
            }
        }
        summary(suggestions, deadLetters, start);
        return 0;
    }

    private void summary(int suggestions, int deadLetters, long start) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        out.printf("%s: %d suggestions and %d dead letters for %d commits in %.1f s (%s commits/s)%n",
                stop.get() ? "stopped" : "done", suggestions, deadLetters, commits.size(), elapsed, fmt((suggestions + deadLetters) / Math.max(elapsed, 1e-3)));
    }

    /** Where the suggestion came from: the result cache, or the nearest earlier commit and its similarity. */
    private static String origin(JsonNode n) {
        JsonNode ex = n.path("exemplars");
        if (!ex.isArray() || ex.isEmpty()) {
            return "";
        }
        String first = ex.get(0).asText();
        String shortSha = first.length() > 7 ? first.substring(0, 7) : first;
        return n.path("cache").asText().equals("hit") ? ", cached from " + shortSha
                : String.format(", like %s (%.2f)", shortSha, n.path("similarity").asDouble());
    }

    private static String typeAndScope(JsonNode n) {
        String scope = n.path("scope").asText();
        return n.path("type").asText() + (scope.isEmpty() ? "" : "(" + scope + ")");
    }

    static KafkaConsumer<byte[], byte[]> outputConsumer(KafkaSettings k) {
        Map<String, Object> p = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, k.bootstrap(),
                ConsumerConfig.GROUP_ID_CONFIG, "commitflow-demo-printer",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    static void cancel(JobClient job) {
        try {
            if (!job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState()) {
                job.cancel().get(30, TimeUnit.SECONDS);
            }
            job.getJobExecutionResult().handle((r, e) -> null).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            // the local cluster goes down with this JVM in any case
        }
    }

    private static String fmt(double v) {
        return v >= 100 ? String.format("%.0f", v) : String.format("%.1f", v);
    }

    /** Best effort: the launcher removes its whole temporary folder afterwards in any case. */
    static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            // a file that vanished under us, or one still held: nothing to do about it here
        }
    }
}
