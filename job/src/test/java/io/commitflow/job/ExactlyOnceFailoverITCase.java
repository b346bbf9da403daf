package io.commitflow.job;

import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import io.commitflow.testing.Reconciliation;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static io.commitflow.testing.Reconciliation.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once under failures, end to end through Kafka: a few thousand commits of two repositories (and some
 * malformed records) go through the job while the test kills its TaskManager twice — right after a checkpoint
 * completes, and again later while the async suggest stage has requests in flight — and starts a new one each time.
 * Reading the output with read_committed: every commit exactly once (lost 0, duplicates 0), every malformed record
 * exactly once in the DLQ. Each kill is checked to have hit records in flight (output still missing right after it).
 * Redeliveries sent after the failures are dropped: the dedup state survived; a sentinel commit sent after them on
 * the same partition shows that they were read.
 */
class ExactlyOnceFailoverITCase {
    private static final int PER_REPO = 1200;

    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    @TempDir
    Path mirrors;
    @TempDir
    Path checkpoints;

    @Test
    void everyCommitExactlyOnceThroughTwoTaskManagerLosses(@InjectMiniCluster MiniCluster cluster) throws Exception {
        List<RevCommit> app = GitHistory.create(mirrors, "app.git", PER_REPO);
        List<RevCommit> lib = GitHistory.create(mirrors, "lib.git", PER_REPO);
        RevCommit sentinel = GitHistory.create(mirrors, "sentinel.git", 1).get(0);
        KafkaSettings k = KafkaSettings.defaults(KAFKA.bootstrap());
        KAFKA.createTopic(k.eventsTopic(), 2);
        KAFKA.createTopic(k.suggestionsTopic(), 2);
        KAFKA.createTopic(k.deadLetterTopic(), 1);
        KAFKA.createTopic(k.slaTopic(), 1);
        for (int i = 0; i < 50; i++) {
            KAFKA.produce(k.eventsTopic(), null, List.of(("not json " + i).getBytes(StandardCharsets.UTF_8)));
        }
        produce(k, "app", app.subList(0, PER_REPO / 3));

        JobClient job = start(k);
        JobID id = job.getJobID();
        LongSupplier completed = () -> {
            try {
                var stats = cluster.getExecutionGraph(id).get(10, TimeUnit.SECONDS).getCheckpointStatsSnapshot();
                return stats == null ? 0 : stats.getCounts().getNumberOfCompletedCheckpoints();
            } catch (Exception e) {
                return 0;
            }
        };
        try {
            // 1: right after a checkpoint completes, once output is flowing, with a third of the first repository
            // just sent: those cannot have been committed yet
            waitFor(() -> completed.getAsLong() >= 1 && committed(k) > 0, Duration.ofMinutes(3), "first output");
            long at = completed.getAsLong();
            waitFor(() -> completed.getAsLong() > at, Duration.ofMinutes(1), "the next checkpoint");
            produce(k, "app", app.subList(PER_REPO / 3, 2 * PER_REPO / 3));
            cluster.terminateTaskManager(0).get(30, TimeUnit.SECONDS);
            assertThat(committed(k)).as("the first kill hit records in flight").isLessThan(2 * PER_REPO / 3);
            cluster.startTaskManager();
            produce(k, "app", app.subList(2 * PER_REPO / 3, PER_REPO));

            // 2: the second repository arrives; kill again while its suggestions are being made (requests in flight)
            waitFor(() -> committed(k) >= PER_REPO, Duration.ofMinutes(3), "the first repository");
            produce(k, "lib", lib.subList(0, PER_REPO / 2));
            waitFor(() -> committed(k) > PER_REPO + 150, Duration.ofMinutes(3), "progress on the second");
            produce(k, "lib", lib.subList(PER_REPO / 2, PER_REPO));
            cluster.terminateTaskManager(1).get(30, TimeUnit.SECONDS);
            assertThat(committed(k)).as("the second kill hit the second repository in flight")
                    .isLessThan(2 * PER_REPO);
            cluster.startTaskManager();

            // redeliveries after both failures: the dedup state must have survived them; then a sentinel on the
            // same partition (key "app"): once its suggestion is committed, the redeliveries were read before it
            produce(k, "app", app.subList(0, 100));
            KAFKA.produce(k.eventsTopic(), "app".getBytes(StandardCharsets.UTF_8),
                    List.of(GitHistory.commitEvent("sentinel", sentinel)));

            waitFor(() -> committed(k) >= 2 * PER_REPO + 1, Duration.ofMinutes(5), "every commit's suggestion");
            Thread.sleep(3000); // a few more checkpoints: duplicates, if any, would show now
        } finally {
            job.cancel().get(60, TimeUnit.SECONDS);
        }

        List<String> expected = new ArrayList<>(Reconciliation.keys("app", app));
        expected.addAll(Reconciliation.keys("lib", lib));
        expected.add("sentinel@" + sentinel.name());
        Reconciliation.assertExactlyOnce(Reconciliation.perCommit(KAFKA.readCommitted(k.suggestionsTopic())), expected);
        Map<String, Integer> dead = Reconciliation.perOrigin(KAFKA.readCommitted(k.deadLetterTopic()));
        assertThat(dead).as("each malformed record dead-lettered").hasSize(50);
        assertThat(dead.values()).as("once").containsOnly(1);
    }

    private static void produce(KafkaSettings k, String repo, List<RevCommit> commits) throws Exception {
        KAFKA.produce(k.eventsTopic(), repo.getBytes(StandardCharsets.UTF_8), GitHistory.commitEvents(repo, commits));
    }

    /** How many suggestions are committed so far. */
    private static int committed(KafkaSettings k) {
        return KAFKA.readCommitted(k.suggestionsTopic()).size();
    }

    private JobClient start(KafkaSettings k) throws Exception {
        Configuration conf = MiniClusters.job(Duration.ofMillis(500), checkpoints);
        conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).build(), KafkaIO.suggestionSink(k), KafkaIO.deadLetterSink(k),
                KafkaIO.slaSink(k), PipelineSettings.defaults(mirrors.toString()));
        return env.executeAsync("commitflow-failover");
    }
}
