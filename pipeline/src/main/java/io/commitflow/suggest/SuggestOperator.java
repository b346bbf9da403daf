package io.commitflow.suggest;

import io.commitflow.cache.ResultCache;
import io.commitflow.event.CommitEvent;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.Reason;
import io.commitflow.event.RepoKeys;
import io.commitflow.event.Suggestion;
import io.commitflow.generate.Conventions;
import io.commitflow.generate.DiffFeatures;
import io.commitflow.generate.LiveQuality;
import io.commitflow.generate.RepoKnowledge;
import io.commitflow.generate.RetrievalGenerator;
import io.commitflow.git.DiffedCommit;
import io.commitflow.gpu.LosableEngine;
import io.commitflow.gpu.Tier;
import io.commitflow.ingest.DeadLetters;
import io.commitflow.llm.LlmWriter;
import io.commitflow.llm.PromptPrefixes;
import io.commitflow.spans.StageTrace;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.stream.Stream;

/**
 * The suggest stage, keyed by repository: one operator that owns everything a suggestion needs.
 * <ul>
 * <li>Keyed state: each repository's model and rows ({@link RepoStore}), result cache ({@link ResultCache}), prompt
 * prefix ({@link PromptPrefixes}) and, at a checkpoint, its requests in flight ({@link InFlight}).</li>
 * <li>The task's {@link RetrievalIndex}, built from that state when the task starts: after a restore, at any
 * parallelism, from exactly the repositories whose key groups the task now owns.</li>
 * <li>A {@link MicroBatcher} whose workers answer batches on the engine ({@link Answerer}); an answer comes back to
 * the task thread through the mailbox, as in Flink's own {@code AsyncWaitOperator}, so that only the task thread
 * touches state and output.</li>
 * </ul>
 * The path of one commit: {@link #processElement} looks its patch-id up in the result cache (a hit is answered at
 * once); else it makes a {@link SuggestRequest} (query vector, row window, conventions, tier, prompt prefix), puts it
 * in flight and in the batcher; then learns the commit when its real message is known. A worker answers the batch;
 * a tenant with an LLM has the suggestion rewritten ({@link LlmWriter}); the mailbox emits it. A request past the
 * timeout is answered by the exact CPU scan in the task thread, with the same suggestion. Suggestions carry the time
 * they were made as their timestamp; a suggestion that could not be written goes to {@link DeadLetters#TAG} with
 * reason {@code GENERATION_FAILED}. Nothing is shared with other operators, and chaining does not matter.
 *
 * <p>Metrics: {@code requests}, {@code commitsLearned}, {@code requestsRestored}, {@code batches},
 * {@code batchedRequests}, {@code engineRetries}, {@code engineFallbacks}, {@code timeouts}, {@code engineLost},
 * {@code engineFull}
 * (counts); {@code inFlightRequests}, {@code queuedRequests}, {@code lastBatchSize}, {@code indexedCommits},
 * {@code indexedRepositories}, {@code repositoriesOffEngine}, {@code engineIsCuda} (gauges); and those of
 * {@link ResultCache}, {@link PromptPrefixes} and {@link LlmWriter}.
 */
public final class SuggestOperator extends AbstractStreamOperator<Suggestion>
        implements OneInputStreamOperator<CommitWithFleet, Suggestion>, BoundedOneInput {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(SuggestOperator.class);
    /** The keyed state holding, per repository, its requests in flight at the last checkpoint. */
    static final String IN_FLIGHT = "suggest-in-flight";

    private final SuggestSettings settings;
    private final RepoKeys keys;
    private final EngineSource engines;
    private final transient MailboxExecutor mailbox;

    private transient RepoStore store;
    private transient ResultCache results;
    private transient PromptPrefixes prefixes;
    private transient ListState<SuggestRequest> inFlightState;
    private transient InFlight inFlight;
    private transient RetrievalIndex index;
    private transient Answerer answerer;
    /** Stateless: what it learns (which ranking weights pay) lives in each repository's model. */
    private final RetrievalGenerator generator;
    private transient LlmWriter llm;
    private transient MicroBatcher<InFlight.Entry> batcher;
    private transient SuggestMetrics metrics;
    private transient boolean timerSet;
    private transient boolean rankerWarned;
    private transient StageTrace tracing;

    SuggestOperator(StreamOperatorParameters<Suggestion> parameters, SuggestSettings settings, EngineSource engines,
                    RepoKeys keys) {
        super(parameters);
        this.settings = settings;
        this.keys = keys;
        this.generator = new RetrievalGenerator(io.commitflow.generate.ExemplarRanker.DEFAULT_WEIGHTS,
                settings.reuseFloor());
        this.engines = engines;
        this.mailbox = parameters.getMailboxExecutor();
    }

    @Override
    public void open() throws Exception {
        super.open();
        RuntimeContext context = getRuntimeContext();
        store = new RepoStore(context);
        results = new ResultCache(settings.cacheTtl());
        results.open(context);
        PromptPrefixState prefixState = new PromptPrefixState(settings.cacheTtl());
        prefixState.open(context);
        prefixes = new PromptPrefixes(prefixState);
        inFlightState = context.getListState(new ListStateDescriptor<>(IN_FLIGHT, TypeInformation.of(SuggestRequest.class)));
        inFlight = new InFlight(keys);
        // a request's window must still be whole when it is answered: keep `capacity` rows beyond the history
        // a sticky CUDA error loses the engine for the task's life: the CPU scan answers from then on
        index = new RetrievalIndex(new LosableEngine(engines.open(settings)), settings.maxRows(), settings.capacity());
        answerer = new Answerer(index, generator, settings.retries(), keys);
        metrics = new SuggestMetrics(getMetricGroup(), index, inFlight);
        llm = new LlmWriter(settings.llm(), settings.timeout().multipliedBy(8).dividedBy(10), metrics.llm());
        batcher = new MicroBatcher<>("commitflow-suggest-" + context.getTaskInfo().getIndexOfThisSubtask(),
                settings.workers(), settings.maxBatch(), settings.maxWait().toNanos(), this::answer);
        metrics.queued(batcher::queued);
        tracing = StageTrace.acquire();
        rebuildIndex();
        resumeInFlight();
        batcher.start();
    }

    /** Loads every repository this task owns from keyed state into the index, before the first record. */
    private void rebuildIndex() throws Exception {
        long start = System.nanoTime();
        List<String> repos = keys(RepoStore.MODEL);
        for (String repo : repos) {
            setCurrentKey(repo);
            if (!index.restore(repo, store.model(), store.rows()).onEngine()) {
                metrics.leftEngine(repo, index.engine().name());
            }
        }
        if (!repos.isEmpty()) {
            LOG.info("rebuilt the retrieval index of {} repositories ({} rows, {} off the engine) in {} ms",
                    repos.size(), index.rows(), index.offEngine(), (System.nanoTime() - start) / 1_000_000);
        }
    }

    /** Puts the requests that were in flight at the restored checkpoint back in flight. */
    private void resumeInFlight() throws Exception {
        List<SuggestRequest> restored = inFlight.restore(inFlightState, keys(IN_FLIGHT), this::setCurrentKey);
        for (SuggestRequest r : restored) {
            index.writeLock().lock();
            try {
                index.repoOrNew(r.key(keys)); // a repository that has learned nothing has no model in state
            } finally {
                index.writeLock().unlock();
            }
            submit(r, tracing.enabled() ? tracing.nowNs() : 0);
        }
        metrics.restored(restored.size());
    }

    private List<String> keys(String state) {
        KeyedStateBackend<String> backend = getKeyedStateBackend();
        try (Stream<String> keys = backend.getKeys(state, VoidNamespace.INSTANCE)) {
            return keys.toList();
        }
    }

    @Override
    public void processElement(StreamRecord<CommitWithFleet> element) throws Exception {
        CommitWithFleet in = element.getValue();
        DiffedCommit diff = in.diff();
        long startNs = tracing.enabled() ? tracing.nowNs() : 0;
        String repo = keys.of(diff.commit()); // the key
        if (inFlight.pending() >= settings.capacity()) {
            while (inFlight.pending() >= settings.capacity()) {
                mailbox.yield(); // back-pressure: answers and timeouts run meanwhile
            }
            setCurrentKey(repo); // as it was before the mails ran
        }
        DiffFeatures features = in.features() != null ? in.features() : DiffFeatures.of(diff);
        Suggestion hit = results.lookup(diff, System.currentTimeMillis(), settings.minSubjectChars());
        String message = diff.commit().message();
        boolean learns = !diff.commit().draft() && message != null && !message.isBlank();
        SuggestRequest request = null;
        RepoKnowledge.Learned learned = null;
        long learnStartNs = 0;
        RepoKnowledge memory;
        float[] query;
        index.writeLock().lock();
        try {
            memory = index.repoOrNew(repo);
            query = memory.vector(features.terms());
            if (hit == null) {
                request = request(diff, features, query, memory, in.fleet());
            }
        } finally {
            index.writeLock().unlock();
        }
        if (learns) {
            learnStartNs = startNs == 0 ? 0 : tracing.nowNs();
            // only this thread changes the memory, so it is as the request saw it until the write lock below
            RetrievalGenerator.Lesson lesson = lesson(diff, features, memory, query, message);
            index.writeLock().lock();
            try {
                RetrievalGenerator.learn(memory.model(), lesson);
                boolean wasOnEngine = memory.onEngine();
                learned = memory.learn(diff, features, query, message);
                if (wasOnEngine && !memory.onEngine()) {
                    metrics.leftEngine(repo, index.engine().name());
                }
            } finally {
                index.writeLock().unlock();
            }
        }
        if (hit != null) {
            emit(LiveQuality.score(hit, diff), diff.commit(), startNs, null);
        } else {
            submit(request, startNs);
        }
        if (learned != null) {
            store.save(learned, memory.model());
            if (hit == null) {
                results.remember(diff, message);
            }
            metrics.learned();
            if (learnStartNs != 0) {
                tracing.indexed(diff.commit(), learnStartNs, memory.size(), memory.onEngine());
            }
        }
    }

    /**
     * What the ranker learns from the commit's neighbours before the commit is learned: one more engine lookup, made
     * under the read lock (the answerers' batches go on meanwhile). An engine that cannot answer it costs that lesson
     * (counted, logged once; null), never the commit, which is still learned and answered as any other.
     */
    private RetrievalGenerator.Lesson lesson(DiffedCommit diff, DiffFeatures features, RepoKnowledge memory,
                                             float[] query, String message) {
        index.readLock().lock();
        try {
            return generator.lesson(diff, features, memory, query, message);
        } catch (RuntimeException e) {
            metrics.rankerSkipped();
            if (!rankerWarned) {
                rankerWarned = true;
                LOG.warn("The ranker could not learn from {} of {} (later failures are counted in "
                        + "rankerObservationsSkipped, not logged)", diff.commit().sha(), diff.commit().repo(), e);
            }
            return null;
        } finally {
            index.readLock().unlock();
        }
    }

    /** For tests in this package: the stage's counters. */
    SuggestMetrics metrics() {
        return metrics;
    }

    /** The request of a commit arriving now: what it may see and how it is written are fixed here. */
    private SuggestRequest request(DiffedCommit diff, DiffFeatures features, float[] query, RepoKnowledge memory,
                                   List<RepoKnowledge.Neighbor> fleet) throws Exception {
        RepoKnowledge.Window window = memory.window();
        String tenant = diff.commit().tenant();
        PromptPrefixes.Use prefix = llm.writesFor(tenant) ? prefixes.forRequest(memory, window) : null;
        // a draft is someone waiting at `git commit`: ahead of every tenant's learning traffic
        Tier tier = diff.commit().draft() ? Tier.GOLD : settings.tierOf(tenant);
        // the fleet's exemplars count while the repository is young, as the fleet stage found them
        List<RepoKnowledge.Neighbor> exemplars = memory.size() < RetrievalGenerator.YOUNG ? fleet : List.of();
        Conventions conventions = settings.conventions(memory.model().style.conventions());
        return new SuggestRequest(diff, features, query, window, conventions, tier, prefix, exemplars,
                RetrievalGenerator.ranker(memory.model()));
    }

    private void submit(SuggestRequest request, long startNs) {
        long deadline = getProcessingTimeService().getCurrentProcessingTime() + settings.timeout().toMillis();
        InFlight.Entry e = inFlight.add(request, deadline);
        e.startNs = startNs;
        metrics.requested();
        batcher.submit(request.tier(), e);
        setTimer();
    }

    /** One timer at a time, at the oldest pending request's deadline. */
    private void setTimer() {
        long next = inFlight.nextDeadline();
        if (!timerSet && next != Long.MAX_VALUE) {
            timerSet = true;
            getProcessingTimeService().registerTimer(next, this::onTimer);
        }
    }

    private void onTimer(long time) {
        timerSet = false;
        for (InFlight.Entry e : inFlight.expired(time)) {
            timeOut(e);
        }
        setTimer();
    }

    /** Too slow: answered here, in the task thread, by the exact CPU scan (a late batch answer is then ignored). */
    private void timeOut(InFlight.Entry e) {
        metrics.timedOut();
        e.timedOut = true;
        batcher.remove(x -> x == e);
        Answer a = answerer.scan(e.request);
        if (a instanceof Answer.Written w && byLlm(e.request)) {
            a = new Answer.Written(llm.timedOut(w.suggestion()), w.neighbours());
        }
        finish(e, a);
    }

    /** A worker's batch: one engine call, then each answer back through the mailbox (an LLM tenant's once written). */
    private void answer(Tier tier, List<InFlight.Entry> batch) {
        List<Answer> answers;
        long batchStartNs = tracing.enabled() ? tracing.nowNs() : 0;
        try {
            Answerer.Batch b = answerer.answer(tier, batch.stream().map(e -> e.request).toList());
            metrics.batch(batch.size(), b.retries(), b.scanned());
            answers = b.answers();
        } catch (RuntimeException ex) {
            answers = batch.stream().<Answer>map(e -> new Answer.Failed(ex)).toList();
        }
        if (batchStartNs != 0) {
            long batchEndNs = tracing.nowNs();
            for (InFlight.Entry e : batch) {
                e.batchStartNs = batchStartNs;
                e.batchEndNs = batchEndNs;
                e.batchSize = batch.size();
            }
        }
        List<InFlight.Entry> entries = new ArrayList<>();
        List<Answer> ready = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            InFlight.Entry e = batch.get(i);
            if (answers.get(i) instanceof Answer.Written w && byLlm(e.request)) {
                llm.write(w.suggestion(), e.request.diff().patch(), e.request.prefix(), w.neighbours(),
                                call -> e.llmCall = call)
                        .thenAccept(s -> mail(() -> finish(e, new Answer.Written(s, w.neighbours()))));
            } else {
                entries.add(e);
                ready.add(answers.get(i));
            }
        }
        mail(() -> {
            for (int i = 0; i < entries.size(); i++) {
                finish(entries.get(i), ready.get(i));
            }
        });
    }

    /** The tenant's LLM writes this request's message (it was made with the repository's prompt prefix). */
    private boolean byLlm(SuggestRequest r) {
        return r.prefix() != null && llm.writesFor(r.tenant());
    }

    private void mail(Runnable action) {
        try {
            mailbox.execute(action::run, "suggest: answers");
        } catch (RejectedExecutionException closing) {
            // the task is going down: these requests are in its last checkpoint, or came after it and are replayed
        }
    }

    /**
     * In the task thread: the request's answer goes out, unless it was answered already. A failure goes to the
     * dead letters with its error: failing the task would only fail again on the same request after the restore.
     */
    private void finish(InFlight.Entry e, Answer a) {
        if (!inFlight.complete(e)) {
            return;
        }
        if (a instanceof Answer.Failed f) {
            CommitEvent c = e.request.diff().commit();
            LOG.warn("writing the suggestion for {} {} failed; it goes to the dead letters", c.repo(), c.sha(), f.cause());
            output.collect(DeadLetters.TAG, new StreamRecord<>(
                    DeadLetter.of(c, Reason.GENERATION_FAILED, f.cause().toString(), "suggest"), System.currentTimeMillis()));
            return;
        }
        emit(LiveQuality.score(((Answer.Written) a).suggestion(), e.request.diff()), e.request.diff().commit(),
                e.startNs, e);
    }

    /**
     * Sends a suggestion on, stamped with this moment: its latency includes any wait in the mailbox, and with the
     * {@code traceparent} its record will carry. A draft's goes to {@link SuggestStage#DRAFTS}, the replies of
     * interactive requests.
     *
     * @param startNs when the commit came to this stage (epoch ns; 0 when not traced)
     * @param e       the request that was in flight, or null for a cache hit
     */
    private void emit(Suggestion s, CommitEvent c, long startNs, InFlight.Entry e) {
        boolean draft = c.draft();
        Suggestion made = s.madeAt(System.currentTimeMillis());
        made = tracing.suggested(c, made, startNs, e == null ? null : new StageTrace.Batch(index.engine().name(),
                e.batchStartNs, e.batchEndNs, e.batchSize, e.timedOut), e == null ? null : e.llmCall);
        if (draft) {
            output.collect(SuggestStage.DRAFTS, new StreamRecord<>(made, made.madeMs()));
        } else {
            output.collect(new StreamRecord<>(made, made.madeMs()));
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        inFlight.snapshot(inFlightState, this::setCurrentKey);
    }

    /** At the end of a bounded input, every request in flight is answered before the operator finishes. */
    @Override
    public void endInput() throws Exception {
        while (inFlight.pending() > 0) {
            mailbox.yield();
        }
    }

    @Override
    public void close() throws Exception {
        if (batcher != null) {
            batcher.close();
        }
        if (llm != null) {
            llm.close();
        }
        if (index != null) {
            index.close();
        }
        if (tracing != null) {
            tracing.close();
            tracing = null;
        }
        super.close();
    }
}
