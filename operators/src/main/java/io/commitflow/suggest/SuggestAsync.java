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
import java.util.Map;

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
    private transient Map<String, io.commitflow.llm.ResilientBackend> llmByTenant;
    private transient Counter llmAnswers;
    private transient Counter llmFallbacks;
    private transient volatile double kvReuse;

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
        llmAnswers = metrics.counter("llmAnswers");
        llmFallbacks = metrics.counter("llmFallbacks");
        metrics.gauge("kv_reuse_ratio", () -> kvReuse);
        llmByTenant = new java.util.HashMap<>();
        Map<io.commitflow.llm.LlmSettings, io.commitflow.llm.ResilientBackend> byEndpoint = new java.util.HashMap<>();
        java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder()
                .connectTimeout(java.time.Duration.ofSeconds(5)).build();
        settings.llm().forEach((tenant, s) -> llmByTenant.put(tenant, byEndpoint.computeIfAbsent(s,
                x -> new io.commitflow.llm.ResilientBackend(x.create(http, System::getenv), x.breaker(), x.perTenant(),
                        java.time.Duration.ofMillis(100), java.time.Duration.ofSeconds(2), tenant.hashCode()))));
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
            Suggestion s = answerer.scanLocked(request);
            future.complete(List.of(llmByTenant.containsKey(s.tenant())
                    ? s.withNote("llm fallback: no answer within the async timeout") : s));
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
                io.commitflow.llm.ResilientBackend llm = r instanceof Suggestion s ? llmByTenant.get(s.tenant()) : null;
                if (llm != null) {
                    askLlm(llm, batch.get(i), (Suggestion) r, o.exemplars().get(i));
                } else if (r instanceof Suggestion s) {
                    batch.get(i).future().complete(List.of(s));
                } else {
                    batch.get(i).future().completeExceptionally((Throwable) r);
                }
            }
        } catch (RuntimeException e) {
            batch.forEach(p -> p.future().completeExceptionally(e));
        }
    }

    /**
     * The tenant's LLM writes the message from the same exemplars; whatever goes wrong, the built-in suggestion
     * answers instead, with the reason in its {@code note}. Within 80% of the async timeout, so that the LLM's
     * failure, not Flink's timeout, decides.
     */
    private void askLlm(io.commitflow.llm.ResilientBackend llm, Pending p, Suggestion builtIn,
                        List<io.commitflow.llm.Prompts.Exemplar> exemplars) {
        io.commitflow.llm.LlmSettings s = settings.llm().get(builtIn.tenant());
        SuggestRequest r = p.request();
        // the repository's cached prefix when the index stage sent one; the nearest commits go with the diff
        boolean cached = r.prefix() != null && !r.prefix().isEmpty();
        String prefix = cached ? r.prefix() : io.commitflow.llm.Prompts.prefix(exemplars);
        List<io.commitflow.llm.Prompts.Exemplar> nearest = cached ? exemplars : List.of();
        int room = Math.max(64, s.promptTokens() - io.commitflow.llm.Prompts.tokens(prefix)
                - io.commitflow.llm.Prompts.tokens(io.commitflow.llm.Prompts.user(nearest, "")));
        String user = io.commitflow.llm.Prompts.user(nearest, io.commitflow.llm.Prompts.fitDiff(r.diff().patch(), room));
        int promptEstimate = io.commitflow.llm.Prompts.tokens(prefix) + io.commitflow.llm.Prompts.tokens(user);
        int reusedEstimate = r.prefixReused() ? io.commitflow.llm.Prompts.tokens(prefix) : 0;
        llm.complete(builtIn.tenant(), new io.commitflow.llm.LlmRequest(prefix, user, s.maxTokens()),
                        settings.timeout().multipliedBy(8).dividedBy(10))
                .whenComplete((reply, error) -> {
                    if (error == null) {
                        var m = io.commitflow.llm.CommitMessages.clean(reply.text());
                        if (m.isPresent()) {
                            llmAnswers.inc();
                            // the server's own count where it gives one, else our estimate from the prompt cache
                            kvReuse = reply.promptTokens() > 0 && reply.cachedTokens() > 0
                                    ? io.commitflow.llm.Prompts.kvReuseRatio(reply.cachedTokens(), reply.promptTokens())
                                    : io.commitflow.llm.Prompts.kvReuseRatio(reusedEstimate, promptEstimate);
                            long latency = Math.max(0, System.currentTimeMillis() - builtIn.kafkaTs());
                            p.future().complete(List.of(builtIn.writtenBy(llm.name(), m.get().subject(), m.get().body(), latency)));
                            return;
                        }
                        llmFallbacks.inc();
                        p.future().complete(List.of(builtIn.withNote("llm fallback: the reply is not a commit message")));
                        return;
                    }
                    llmFallbacks.inc();
                    Throwable e = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                            ? error.getCause() : error;
                    String why = e instanceof io.commitflow.llm.LlmException l ? l.kind() + ": " + l.getMessage() : e.toString();
                    p.future().complete(List.of(builtIn.withNote("llm fallback: " + why)));
                });
    }

    @Override
    public void close() {
        if (batcher != null) {
            batcher.close();
        }
        if (llmByTenant != null) {
            new java.util.HashSet<>(llmByTenant.values()).forEach(io.commitflow.llm.ResilientBackend::close);
        }
        if (index != null) {
            index.release();
            index = null;
        }
    }
}
