package io.commitflow.suggest;

import io.commitflow.event.Suggestion;
import io.commitflow.generate.TestDiffs;
import io.commitflow.git.DiffedCommit;
import io.commitflow.gpu.EngineMode;
import io.commitflow.testing.CollectSink;
import io.commitflow.testing.MiniClusters;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The suggest stage on a MiniCluster (RocksDB, checkpoints every 50 ms): a task fails after a checkpoint while
 * requests wait in micro-batches; Flink restores the state, and the operator puts the requests that were in flight
 * at the checkpoint back in flight. Every commit's suggestion must equal the one a run without failures gives.
 */
class SuggestFailoverITCase {
    private static final int COMMITS = 1500;
    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2, REPORTER.addToConfiguration(new Configuration()));

    static final AtomicBoolean FAILED = new AtomicBoolean();

    private static Map<String, Suggestion> reference;

    /** What a run without failures, timeouts or replays says. */
    private static synchronized Map<String, Suggestion> reference() throws Exception {
        if (reference == null) {
            reference = new HashMap<>();
            run("reference", false, Duration.ofSeconds(10));
            for (Suggestion s : CollectSink.<Suggestion>collected("reference")) {
                assertThat(reference.put(s.sha(), s)).as("without failures each commit once").isNull();
            }
            assertThat(reference).hasSize(COMMITS);
        }
        return reference;
    }

    @Test
    void inFlightRequestsGetTheSameAnswersAfterAFailover() throws Exception {
        Map<String, Suggestion> reference = reference();

        long before = counted("requestsRestored");
        run("failover", true, Duration.ofSeconds(10));

        assertThat(FAILED).as("the failure was injected").isTrue();
        Map<String, Integer> seen = new HashMap<>();
        for (Suggestion s : CollectSink.<Suggestion>collected("failover")) {
            seen.merge(s.sha(), 1, Integer::sum);
            assertThat(s).as(s.sha()).usingRecursiveComparison().ignoringFields("latencyMs", "madeMs")
                    .isEqualTo(reference.get(s.sha()));
        }
        assertThat(seen).as("every commit answered").hasSize(COMMITS);
        assertThat(counted("requestsRestored") - before).as("requests in flight at the checkpoint, put back in flight")
                .isPositive();
    }

    @Test
    void requestsPastTheTimeoutAreAnsweredByTheCpuScanWithTheSameSuggestion() throws Exception {
        Map<String, Suggestion> reference = reference();
        long before = counted("timeouts");

        // batches wait 200 ms; a 20 ms timeout hands most requests to the scan in the task thread
        run("timeouts", false, Duration.ofMillis(20));

        assertThat(counted("timeouts") - before).as("requests that timed out").isGreaterThan(COMMITS / 2);
        Map<String, Suggestion> got = new HashMap<>();
        for (Suggestion s : CollectSink.<Suggestion>collected("timeouts")) {
            assertThat(got.put(s.sha(), s)).as("each commit once").isNull();
            assertThat(s).as(s.sha()).usingRecursiveComparison().ignoringFields("latencyMs", "madeMs").isEqualTo(reference.get(s.sha()));
        }
        assertThat(got).hasSize(COMMITS);
    }

    @Test
    void aFullEngineBudgetSendsRepositoriesToTheCpuScanAndTheJobKeepsRunning() throws Exception {
        long before = counted("engineFull");

        // each task's engine holds 200 rows; its two repositories learn about 340 commits each, two rows a commit
        run("budget", false, Duration.ofSeconds(10), x -> TestEngines.capped(200));

        Map<String, Suggestion> got = new HashMap<>();
        for (Suggestion s : CollectSink.<Suggestion>collected("budget")) {
            assertThat(got.put(s.sha(), s)).as("each commit once: the job never failed over").isNull();
        }
        assertThat(got).hasSize(COMMITS);
        assertThat(counted("engineFull") - before).as("repositories that left the full engine").isEqualTo(4);
    }

    /**
     * A metric's count summed over every task of every run so far: {@code requestsRestored} counts requests a
     * restored checkpoint held in flight (a fresh start has none).
     */
    private static long counted(String metric) {
        long n = 0;
        for (Map<String, Metric> group : REPORTER.getMetricsByGroup().values()) {
            if (group.get(metric) instanceof Counter c) {
                n += c.getCount();
            }
        }
        return n;
    }

    private static JobExecutionResult run(String name, boolean fail, Duration timeout) throws Exception {
        return run(name, fail, timeout, EngineSource.FROM_SETTINGS);
    }

    private static JobExecutionResult run(String name, boolean fail, Duration timeout, EngineSource engines)
            throws Exception {
        FAILED.set(false);
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        conf.set(org.apache.flink.configuration.StateBackendOptions.STATE_BACKEND, "rocksdb");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(50);
        // requests wait up to 200 ms for a batch of 64: there are always some in flight at a checkpoint
        SuggestSettings settings = SuggestSettings.DEFAULT.withEngine(EngineMode.CPU).withBatching(64, Duration.ofMillis(200))
                .withTimeout(timeout).withHistory(100);
        DataStream<DiffedCommit> commits = env.fromSource(new NumberSequenceSource(0, COMMITS - 1),
                        WatermarkStrategy.noWatermarks(), "numbers").setParallelism(1)
                .map(new Commit()).setParallelism(1);
        SuggestStage.attach(commits, settings, new SuggestOperatorFactory(settings, engines))
                .map(new FailOnce(fail)).setParallelism(1)
                .sinkTo(new CollectSink<Suggestion>(name)).setParallelism(1);
        return env.execute(name);
    }

    /** Commit {@code i}: four repositories, a small vocabulary, every 40th a cherry-pick of an earlier one. */
    static final class Commit implements MapFunction<Long, DiffedCommit> {
        private static final String[] CLASSES = {"PackWriter", "RefUpdate", "DirCache", "Config", "Transport",
            "ObjectReader", "RevWalk", "MergeStrategy", "IndexDiff", "Repository"};
        private static final String[] VERBS = {"write", "read", "lock", "update", "parse", "walk", "merge", "fetch"};
        private static final String[] WHAT = {"Retry on a stale lock", "Close the stream on error",
            "Avoid a copy per object", "Honour the timeout", "Handle an empty input", "Log the cause"};

        @Override
        public DiffedCommit map(Long n) throws Exception {
            Thread.sleep(1);
            int i = n.intValue();
            String cls = CLASSES[(i * 7) % CLASSES.length];
            String verb = VERBS[(i * 3) % VERBS.length];
            String message = cls + ": " + WHAT[(i / 3) % WHAT.length] + " in " + verb + "\n";
            String patchId = i % 40 == 39 ? String.format("%040x", i % 7) : null;
            return TestDiffs.change("repo-" + (i % 4), String.format("%040x", i), cls, verb + (i % 5),
                    i % 10 == 9 ? null : message, patchId);
        }
    }

    /** Throws once, on a record after the second completed checkpoint. */
    static final class FailOnce implements MapFunction<Suggestion, Suggestion>, CheckpointListener {
        private final boolean fail;
        private transient int checkpoints;
        private transient int records;

        FailOnce(boolean fail) {
            this.fail = fail;
        }

        @Override
        public Suggestion map(Suggestion s) {
            records++;
            if (fail && checkpoints >= 2 && records > 200 && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("injected failure");
            }
            return s;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            checkpoints++;
        }
    }

}
