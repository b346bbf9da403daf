package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.git.History;
import io.commitflow.job.KafkaSettings;
import io.commitflow.job.PipelineSettings;
import io.commitflow.replay.Replayer;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One run of the demo: the replay and the printer, on a {@link LocalStack} (work folder, broker, job) that
 * {@link #run()} tears down on every path out (done, failure, Ctrl-C).
 */
final class DemoRun {
    record Settings(History.Location repo, String tenant, double rate, LocalStack.Flink flink, Duration idleTimeout,
                    PipelineSettings pipeline, boolean stay) {}

    private final Settings s;
    private final List<History.Commit> commits;
    private final PrintWriter out;
    private final AtomicReference<String> failure = new AtomicReference<>();

    DemoRun(Settings s, List<History.Commit> commits, PrintWriter out) {
        this.s = s;
        this.commits = commits;
        this.out = out;
    }

    int run() throws Exception {
        try (LocalStack stack = LocalStack.open("demo", out)) {
            out.printf("commitflow demo: %d commits of %s, %s/s%n", commits.size(), s.repo().root().resolve(s.repo().name()),
                    s.rate() <= 0 ? "unlimited" : fmt(s.rate()));
            stack.startKafka();
            KafkaSettings k = KafkaSettings.defaults(stack.bootstrap());
            stack.createTopics(k, Map.of(k.eventsTopic(), 2, k.suggestionsTopic(), 2, k.deadLetterTopic(), 1,
                    k.repliesTopic(), 1, k.requestsTopic(), 1));
            JobClient job = stack.startJob(s.pipeline(), s.flink());

            Replayer.Target target = new Replayer.Target(k.eventsTopic(), s.tenant(), s.repo().name());
            Thread replay = new Thread(() -> replay(stack, target), "commitflow-demo-replay");
            replay.start();
            out.printf("the prepare-commit-msg hook can ask this job: ./commitflow install-hook -C PATH --bootstrap %s "
                    + "--tenant %s --repo %s%n", stack.bootstrap(), s.tenant(), s.repo().name());
            out.flush();
            try {
                int exit = print(stack, job);
                if (exit == 0 && s.stay()) {
                    replay.join(TimeUnit.SECONDS.toMillis(15));
                    out.printf("the job keeps answering drafts (commitflow suggest, the hook) at %s; Ctrl-C stops it%n",
                            stack.bootstrap());
                    out.flush();
                    while (!stack.stopRequested()) {
                        if (job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState()) {
                            out.println("the job ended unexpectedly: " + job.getJobStatus().get() + " (see the log)");
                            return 1;
                        }
                        Thread.sleep(500);
                    }
                    return 130;
                }
                return exit;
            } finally {
                // the replay's producer must be closed before the broker goes down with the stack
                stack.requestStop();
                replay.join(TimeUnit.SECONDS.toMillis(15));
            }
        }
    }

    private void replay(LocalStack stack, Replayer.Target target) {
        try (Replayer r = new Replayer(stack.bootstrap(), Map.of())) {
            Replayer.Progress done = r.replay(commits, target, s.rate(), p -> { }, stack::stopRequested);
            if (done.failed() > 0) {
                out.printf("replay: %d of %d events failed, first: %s%n", done.failed(), done.sent(), done.firstError());
            }
        } catch (RuntimeException | LinkageError e) {
            failure.compareAndSet(null, "the replay failed: " + e);
            stack.requestStop();
        }
    }

    /** Prints each result as it arrives; returns the exit code. */
    private int print(LocalStack stack, JobClient job) throws Exception {
        KafkaSettings k = stack.kafkaSettings();
        Map<String, History.Commit> bySha = new HashMap<>();
        commits.forEach(c -> bySha.put(c.sha(), c));
        Set<String> seen = new HashSet<>();
        int suggestions = 0;
        int deadLetters = 0;
        long start = System.nanoTime();
        long lastOutput = start;
        try (KafkaConsumer<byte[], byte[]> consumer = stack.outputConsumer()) {
            while (seen.size() < commits.size()) {
                if (stack.stopRequested()) {
                    if (failure.get() != null) {
                        out.println(failure.get());
                    }
                    summary(true, suggestions, deadLetters, start);
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
                                + typeAndScope(n) + ", " + n.path("latencyMs").asLong() + " ms" + origin(n)
                                + quality.add(n) + "]");
                    }
                    out.flush();
                }
                if (System.nanoTime() - lastOutput > s.idleTimeout().toNanos()) {
                    out.printf("no output for %d s; giving up (see the log)%n", s.idleTimeout().toSeconds());
                    summary(stack.stopRequested(), suggestions, deadLetters, start);
                    return 1;
                }
            }
        }
        summary(stack.stopRequested(), suggestions, deadLetters, start);
        return 0;
    }

    private void summary(boolean stopped, int suggestions, int deadLetters, long start) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        out.printf("%s: %d suggestions and %d dead letters for %d commits in %.1f s (%s commits/s)%n",
                stopped ? "stopped" : "done", suggestions, deadLetters, commits.size(), elapsed, fmt((suggestions + deadLetters) / Math.max(elapsed, 1e-3)));
        if (quality.scored > 0) {
            out.printf("live quality: B-Norm %.1f on average against the real subjects (%d scored), %d naming what "
                    + "their diff does not contain%n", quality.bnormSum / quality.scored, quality.scored, quality.unfaithful);
        }
    }

    private final QualityTally quality = new QualityTally();

    /** The job's own live-quality scores of the suggestions printed (they travel in each suggestion's JSON). */
    private static final class QualityTally {
        int scored;
        double bnormSum;
        int unfaithful;

        /** Counts {@code n}'s score and says it for the line, or nothing when the job did not score it. */
        String add(JsonNode n) {
            double bnorm = n.path("bnorm").asDouble(-1);
            if (bnorm < 0) {
                return "";
            }
            scored++;
            bnormSum += bnorm;
            boolean unfaithfulSubject = n.path("unfaithful").asBoolean();
            unfaithful += unfaithfulSubject ? 1 : 0;
            return String.format(", B-Norm %.0f%s", bnorm, unfaithfulSubject ? ", unfaithful" : "");
        }
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

    private static String fmt(double v) {
        return v >= 100 ? String.format("%.0f", v) : String.format("%.1f", v);
    }
}
