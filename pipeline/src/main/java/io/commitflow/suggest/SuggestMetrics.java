package io.commitflow.suggest;

import io.commitflow.gpu.LosableEngine;
import io.commitflow.llm.LlmWriter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * The suggest operator's metrics. Counts bumped by its workers are thread-safe; the rest are bumped by the task
 * thread. Gauges are read by the metric reporter's thread.
 */
final class SuggestMetrics {
    private static final Logger LOG = LoggerFactory.getLogger(SuggestMetrics.class);

    private final MetricGroup group;
    private final Counter requests;
    private final Counter learned;
    private final Counter restored;
    private final Counter timeouts;
    private final Counter engineFull;
    private final Counter batches;
    private final Counter batchedRequests;
    private final Counter retries;
    private final Counter fallbacks;
    private final Counter rankerSkipped;
    private volatile int lastBatch;

    SuggestMetrics(MetricGroup group, RetrievalIndex index, InFlight inFlight) {
        this.group = group;
        requests = group.counter("requests");
        learned = group.counter("commitsLearned");
        restored = group.counter("requestsRestored");
        timeouts = group.counter("timeouts");
        engineFull = group.counter("engineFull");
        batches = group.counter("batches", new ThreadSafeSimpleCounter());
        batchedRequests = group.counter("batchedRequests", new ThreadSafeSimpleCounter());
        retries = group.counter("engineRetries", new ThreadSafeSimpleCounter());
        fallbacks = group.counter("engineFallbacks", new ThreadSafeSimpleCounter());
        rankerSkipped = group.counter("rankerObservationsSkipped");
        group.gauge("lastBatchSize", () -> lastBatch);
        group.gauge("inFlightRequests", inFlight::pending);
        group.gauge("indexedCommits", index::rows);
        group.gauge("indexedRepositories", index::repositories);
        group.gauge("repositoriesOffEngine", index::offEngine);
        boolean cuda = index.engine().name().equals("cuda");
        group.gauge("engineIsCuda", () -> cuda ? 1 : 0);
        // 1 once a sticky device error lost the engine for this task's life (the CPU scan answers everything)
        group.gauge("engineLost", () -> index.engine() instanceof LosableEngine l && l.lost() != null ? 1 : 0);
    }

    /**
     * The LLM writer's meter: {@code llmAnswers}, {@code llmFallbacks} (counts, bumped by the HTTP client's threads)
     * and {@code kv_reuse_ratio} (gauge, 0–1, of the last answer).
     */
    LlmWriter.Meter llm() {
        Counter answers = group.counter("llmAnswers", new ThreadSafeSimpleCounter());
        Counter fallbacks = group.counter("llmFallbacks", new ThreadSafeSimpleCounter());
        AtomicLong kvReuse = new AtomicLong(Double.doubleToRawLongBits(0)); // a double, read by the reporter
        group.gauge("kv_reuse_ratio", () -> Double.longBitsToDouble(kvReuse.get()));
        return new LlmWriter.Meter() {
            @Override
            public void answered(double reuse) {
                answers.inc();
                kvReuse.set(Double.doubleToRawLongBits(reuse));
            }

            @Override
            public void fellBack() {
                fallbacks.inc();
            }
        };
    }

    void queued(IntSupplier queued) {
        group.gauge("queuedRequests", queued::getAsInt);
    }

    void requested() {
        requests.inc();
    }

    void learned() {
        learned.inc();
    }

    void rankerSkipped() {
        rankerSkipped.inc();
    }

    long rankerObservationsSkipped() {
        return rankerSkipped.getCount();
    }

    void restored(int n) {
        restored.inc(n);
    }

    void timedOut() {
        timeouts.inc();
    }

    /** A worker answered a batch of {@code size}: after {@code engineRetries}, on the engine or by the scan. */
    void batch(int size, int engineRetries, boolean scanned) {
        batches.inc();
        batchedRequests.inc(size);
        lastBatch = size;
        retries.inc(engineRetries);
        if (scanned) {
            fallbacks.inc(size);
        }
    }

    /** The engine had no room for a repository's row: the repository left it. Logged the first times, then rarely. */
    void leftEngine(String repo, String engine) {
        engineFull.inc();
        long n = engineFull.getCount();
        if (n <= 10 || Long.bitCount(n) == 1) {
            LOG.warn("the {} engine is full: repository {} left it and is answered by the exact CPU scan from now on "
                    + "({} repositories so far; raise --device-budget to keep them on the engine)", engine, repo, n);
        }
    }
}
