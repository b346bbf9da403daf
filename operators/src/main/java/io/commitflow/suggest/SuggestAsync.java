package io.commitflow.suggest;

import io.commitflow.event.Suggestion;
import io.commitflow.generate.FeatureSpace;
import io.commitflow.generate.RetrievalGenerator;
import io.commitflow.gpu.Tier;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;

import java.util.List;

/**
 * The async half of the suggest stage: answers {@link SuggestRequest}s in micro-batches on the task's engine (CUDA or
 * CPU; {@link TaskIndex}), then writes each suggestion with the built-in generator. Run it with
 * {@code AsyncDataStream.unorderedWait} right after {@link IndexOperator}, same parallelism, so that Flink chains the
 * two.
 *
 * <ul>
 * <li>Batches: up to {@code maxBatch} requests or {@code maxWait}, one tier per batch, gold first
 * ({@link MicroBatcher}); one engine call per batch (two queries per request: TF-IDF and bag of words).</li>
 * <li>A failed engine call is retried ({@code retries}, backoff 5 ms × 4ⁿ); then, and for a request that times out,
 * the answer comes from the exact scan on the CPU over the repository's rows ({@link RepoKnowledge#scan}), whose scores
 * equal the engines' bit for bit: the suggestion is the same, only later. The job never fails for a slow engine.</li>
 * <li>Deterministic: a request carries its row window and style, so it gets the same suggestion whenever it is
 * answered, also when Flink replays it after a failover.</li>
 * </ul>
 *
 * <p>Metrics: {@code batches}, {@code batchedRequests}, {@code engineRetries}, {@code engineFallbacks},
 * {@code timeouts}, {@code requestsBeforeReady} (counts); {@code lastBatchSize}, {@code queuedRequests},
 * {@code engineIsCuda} (gauges).
 */
public class SuggestAsync extends RichAsyncFunction<SuggestRequest, Suggestion> {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final AsyncSettings settings;
    private final RetrievalGenerator generator = new RetrievalGenerator();

    private transient TaskIndex index;
    private transient MicroBatcher<Pending> batcher;
    private transient Answerer answerer;
    private transient Counter batches;
    private transient Counter batchedRequests;
    private transient Counter retries;
    private transient Counter fallbacks;
    private transient Counter timeouts;
    private transient Counter beforeReady;
    private transient volatile int lastBatch;

    private record Pending(SuggestRequest request, ResultFuture<Suggestion> future) {}

    public SuggestAsync(String name, AsyncSettings settings) {
        this.name = name;
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        var task = getRuntimeContext().getTaskInfo();
        index = TaskIndex.acquire(TaskIndex.key(getRuntimeContext().getJobInfo().getJobId().toString(), name,
                task.getIndexOfThisSubtask(), task.getAttemptNumber()), settings, FeatureSpace.DEFAULT_DIMENSION);
        answerer = new Answerer(index, generator, settings.retries());
        var metrics = getRuntimeContext().getMetricGroup();
        batches = metrics.counter("batches");
        batchedRequests = metrics.counter("batchedRequests");
        retries = metrics.counter("engineRetries");
        fallbacks = metrics.counter("engineFallbacks");
        timeouts = metrics.counter("timeouts");
        beforeReady = metrics.counter("requestsBeforeReady");
        metrics.gauge("lastBatchSize", () -> lastBatch);
        boolean cuda = index.engine().name().equals("cuda");
        metrics.gauge("engineIsCuda", () -> cuda ? 1 : 0);
        batcher = new MicroBatcher<>("commitflow-suggest-" + task.getIndexOfThisSubtask(), settings.workers(),
                settings.maxBatch(), settings.maxWait().toNanos(), index::awaitReady, this::answer);
        metrics.gauge("queuedRequests", batcher::queued);
    }

    @Override
    public void asyncInvoke(SuggestRequest request, ResultFuture<Suggestion> future) {
        if (!index.ready()) {
            beforeReady.inc(); // replayed from a checkpoint: answered once the index is rebuilt
        }
        batcher.submit(Tier.parse(request.tier()), new Pending(request, future));
    }

    /** Too slow: answered here, in the task thread, by the exact CPU scan. */
    @Override
    public void timeout(SuggestRequest request, ResultFuture<Suggestion> future) {
        timeouts.inc();
        batcher.remove(p -> p.request() == request);
        try {
            future.complete(List.of(answerer.scanLocked(request)));
        } catch (RuntimeException e) {
            future.completeExceptionally(e);
        }
    }

    /** One batch: one engine call, then the generator per request. */
    private void answer(Tier tier, List<Pending> batch) {
        batches.inc();
        batchedRequests.inc(batch.size());
        lastBatch = batch.size();
        try {
            Answerer.Outcome o = answerer.answer(tier, batch.stream().map(Pending::request).toList());
            retries.inc(o.retries());
            if (o.scanned()) {
                fallbacks.inc(batch.size());
            }
            for (int i = 0; i < batch.size(); i++) {
                Object r = o.results().get(i);
                if (r instanceof Suggestion s) {
                    batch.get(i).future().complete(List.of(s));
                } else {
                    batch.get(i).future().completeExceptionally((Throwable) r);
                }
            }
        } catch (RuntimeException e) {
            batch.forEach(p -> p.future().completeExceptionally(e));
        }
    }

    @Override
    public void close() {
        if (batcher != null) {
            batcher.close();
        }
        if (index != null) {
            index.release();
            index = null;
        }
    }
}
