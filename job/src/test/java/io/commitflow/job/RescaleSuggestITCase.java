package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.gpu.EngineMode;
import io.commitflow.suggest.SuggestSettings;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.groups.OperatorMetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The suggest stage rescales through a savepoint: a job at parallelism 2 takes a savepoint while requests are in
 * flight and keeps running; the savepoint is restored at parallelism 1 and at parallelism 3 (that one without
 * operator chaining), so the repositories' key groups move between tasks, each task rebuilds its index from the
 * repositories it now owns, and the requests that were in flight move with their repositories. On RocksDB, with
 * real Kafka, read with read_committed: every suggestion the restored jobs make equals the one the job that never
 * stopped made.
 *
 * <p>Commits are sent in rounds, one per repository, each round once every running job has answered the last, so
 * that each repository's commits reach its operator in the same order in every job (what a commit may learn from
 * depends on that order, not on the parallelism). Each repository is its own tenant: a young repository's exemplars
 * from its tenant's other repositories depend on the order in which their commits reach the fleet memory, which no
 * round can fix (the fleet stage's own state still moves with its key groups here).
 *
 * <p>The jobs write at least once: a KafkaSink restored from a savepoint aborts the transactions of the
 * transactional-id prefix recorded in that savepoint, so exactly-once restores would fence the job that never stopped,
 * which runs beside them here. Exactly-once across a savepoint is {@code SavepointUpgradeITCase}'s subject.
 */
class RescaleSuggestITCase {
    private static final int REPOS = 6;
    private static final int BEFORE = 3;
    private static final int AFTER = 3;
    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(6, METRICS.addToConfiguration(new Configuration()));

    @TempDir
    Path mirrors;
    @TempDir
    Path state;

    @Test
    void aSavepointAtParallelismTwoRestoresAtOneAndThreeWithTheSameSuggestions() throws Exception {
        List<List<RevCommit>> histories = new ArrayList<>();
        for (int r = 0; r < REPOS; r++) {
            histories.add(GitHistory.create(mirrors, "repo" + r + ".git", BEFORE + 1 + AFTER));
        }
        KafkaSettings reference = topics("reference");
        KAFKA.createTopic(reference.eventsTopic(), 2);
        JobClient never = start(reference, 2, null, true);
        try {
            for (int round = 0; round < BEFORE; round++) {
                send(reference, histories, round);
                awaitAnswers(List.of(reference), REPOS * (round + 1));
            }
            // these requests wait 3 s for their batch: they are in flight when the savepoint is taken
            send(reference, histories, BEFORE);
            Thread.sleep(500);
            String savepoint = never.triggerSavepoint(state.resolve("savepoints").toUri().toString(),
                    SavepointFormatType.CANONICAL).get(1, TimeUnit.MINUTES);

            KafkaSettings one = topics("one");
            KafkaSettings three = topics("three");
            JobClient atOne = start(one, 1, savepoint, true);
            JobClient atThree = start(three, 3, savepoint, false);
            try {
                List<KafkaSettings> restored = List.of(one, three);
                // the restored jobs answer from the savepoint on: the round in flight, then the rounds after it
                awaitAnswers(restored, REPOS);
                awaitAnswers(List.of(reference), REPOS * (BEFORE + 1));
                assertThat(restoredRequests(atOne.getJobID()) + restoredRequests(atThree.getJobID()))
                        .as("requests in flight at the savepoint, restored in both jobs").isEqualTo(2 * REPOS);
                assertThat(indexedRepositories(atThree.getJobID())).as("each repository in exactly one task's index")
                        .isEqualTo(REPOS);
                for (int round = BEFORE + 1; round < BEFORE + 1 + AFTER; round++) {
                    send(reference, histories, round);
                    awaitAnswers(List.of(reference), REPOS * (round + 1));
                    awaitAnswers(restored, REPOS * (round + 1 - BEFORE));
                }

                Map<String, JsonNode> expected = byCommit(reference);
                for (KafkaSettings k : restored) {
                    Map<String, JsonNode> got = byCommit(k);
                    assertThat(got).as(k.suggestionsTopic()).hasSize(REPOS * (AFTER + 1));
                    got.forEach((commit, s) -> assertThat(withoutLatency(s)).as(k.suggestionsTopic() + " " + commit)
                            .isEqualTo(withoutLatency(expected.get(commit))));
                }
            } finally {
                atOne.cancel().get(1, TimeUnit.MINUTES);
                atThree.cancel().get(1, TimeUnit.MINUTES);
            }
        } finally {
            never.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    /** The job's own output topics and transactional ids; every job reads the same events topic. */
    private static KafkaSettings topics(String name) throws Exception {
        KafkaSettings d = KafkaSettings.defaults(KAFKA.bootstrap());
        KafkaSettings k = new KafkaSettings(d.bootstrap(), "rescale.events", "rescale." + name + ".suggestions",
                "rescale." + name + ".dlq", "rescale." + name + ".sla", "rescale-" + name, true,
                org.apache.flink.connector.base.DeliveryGuarantee.AT_LEAST_ONCE,
                "rescale-" + name, d.transactionTimeout(), Map.of());
        KAFKA.createTopic(k.suggestionsTopic(), 2);
        KAFKA.createTopic(k.deadLetterTopic(), 1);
        KAFKA.createTopic(k.slaTopic(), 1);
        return k;
    }

    private JobClient start(KafkaSettings k, int parallelism, String savepoint, boolean chaining) throws Exception {
        Configuration conf = MiniClusters.job(Duration.ofMillis(200), state.resolve("checkpoints"));
        conf.set(PipelineOptions.OPERATOR_CHAINING, chaining);
        if (savepoint != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        SuggestSettings suggest = SuggestSettings.DEFAULT.withEngine(EngineMode.CPU)
                .withBatching(64, Duration.ofSeconds(3));
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).build(), KafkaIO.suggestionSink(k), KafkaIO.deadLetterSink(k),
                KafkaIO.slaSink(k), PipelineSettings.defaults(mirrors.toString()).withSuggest(suggest));
        return env.executeAsync("rescale " + k.suggestionsTopic() + " at " + parallelism);
    }

    /** Round {@code i}: the {@code i}-th commit of every repository. */
    private static void send(KafkaSettings k, List<List<RevCommit>> histories, int i) throws Exception {
        for (int r = 0; r < histories.size(); r++) {
            String repo = "repo" + r;
            KAFKA.produce(k.eventsTopic(), repo.getBytes(StandardCharsets.UTF_8),
                    List.of(GitHistory.commitEvent(repo, repo, histories.get(r).get(i))));
        }
    }

    private static void awaitAnswers(List<KafkaSettings> jobs, int n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        for (KafkaSettings k : jobs) {
            while (byCommit(k).size() < n) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(k.suggestionsTopic() + ": timed out waiting for " + n + " suggestions, have "
                            + byCommit(k).size());
                }
                Thread.sleep(100);
            }
        }
    }

    /** The job's committed suggestions by repository and sha (the generated repositories share their shas). */
    private static Map<String, JsonNode> byCommit(KafkaSettings k) throws Exception {
        Map<String, JsonNode> out = new HashMap<>();
        for (var r : KAFKA.readCommitted(k.suggestionsTopic())) {
            JsonNode s = Json.mapper().readTree(r.value());
            assertThat(out.put(s.path("repo").asText() + " " + s.path("sha").asText(), s)).as("one suggestion per commit")
                    .isNull();
        }
        return out;
    }

    private static JsonNode withoutLatency(JsonNode s) {
        var copy = s.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) copy).remove(List.of("latencyMs", "madeMs"));
        return copy;
    }

    private static long restoredRequests(JobID job) {
        long n = 0;
        for (OperatorMetricGroup g : METRICS.findOperatorMetricGroups(job, "suggest.*")) {
            Metric m = METRICS.getMetricsByGroup(g).get("requestsRestored");
            if (m instanceof Counter c) {
                n += c.getCount();
            }
        }
        return n;
    }

    private static long indexedRepositories(JobID job) {
        long n = 0;
        for (OperatorMetricGroup g : METRICS.findOperatorMetricGroups(job, "suggest.*")) {
            Metric m = METRICS.getMetricsByGroup(g).get("indexedRepositories");
            if (m instanceof Gauge<?> gauge) {
                n += ((Number) gauge.getValue()).longValue();
            }
        }
        return n;
    }
}
