package io.commitflow.suggest;

import io.commitflow.cache.CachedMessage;
import io.commitflow.cache.CompressedCache;
import io.commitflow.event.CommitEvent;
import io.commitflow.event.Suggestion;
import io.commitflow.generate.DiffFeatures;
import io.commitflow.generate.Draft;
import io.commitflow.generate.FeatureSpace;
import io.commitflow.generate.IndexedCommit;
import io.commitflow.generate.RepoKnowledge;
import io.commitflow.generate.RepoModel;
import io.commitflow.generate.Subject;
import io.commitflow.git.DiffedCommit;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The keyed half of the suggest stage (keyed by repository): owns the repository's memory in Flink state and keeps
 * the task's {@link TaskIndex} in step with it; turns each commit into a {@link SuggestRequest} for
 * {@link SuggestAsync}.
 *
 * <ol>
 * <li>Result cache: a commit whose patch-id this repository has seen (a cherry-pick, a rebase) gets the original
 * commit's real message at once, on {@link #CACHE_HITS}, marked {@code cache: hit}.</li>
 * <li>Otherwise a request: the diff, its query vector under the repository's IDF, the window of rows it may see (the
 * newest {@code maxRows} learned before it) and the repository's style as it is now.</li>
 * <li>Then the commit is learned, when its real message is known (from the event, or read from the mirror by the
 * diff stage): its row joins state and the index, the model counts it, its patch-id enters the result cache.</li>
 * </ol>
 *
 * <p>State per repository: the model ({@link RepoModel}), the rows ({@link IndexedCommit} by running number; the
 * newest {@code maxRows + capacity} are kept, so that a request still in flight finds its whole window), the result
 * cache ({@link CompressedCache}: patch-id → message, LZ4, TTL). After a restore, {@link IndexOperator} rebuilds the
 * index from all of this task's repositories before the first record, so requests Flink replays give the answers
 * they gave before.
 *
 * <p>Metrics: {@code requests}, {@code commitsLearned}, {@code resultCacheHits}, {@code resultCacheMisses} (counts),
 * {@code indexedCommits}, {@code indexedRepositories} (gauges).
 */
public class IndexCommits extends KeyedProcessFunction<String, DiffedCommit, SuggestRequest> {
    private static final long serialVersionUID = 1L;
    public static final KeySelector<DiffedCommit, String> KEY = new Repo();
    public static final OutputTag<Suggestion> CACHE_HITS = new OutputTag<>("result-cache-hits") {};
    public static final int DEFAULT_MAX_ROWS = 10_000;
    static final String BACKEND_CACHE = "cache";

    private final String name;
    private final int maxRows;
    private final AsyncSettings settings;
    private final CompressedCache<CachedMessage> cache;
    private final CompressedCache<io.commitflow.cache.PromptPrefix> promptCache;
    /** A repository's prompt prefix is rebuilt after this many learned commits (or when the cache forgot it). */
    static final int PREFIX_REFRESH = 64;
    static final int PREFIX_EXEMPLARS = 12;

    private transient ValueState<RepoModel> model;
    private transient MapState<Long, IndexedCommit> rows;
    private transient TaskIndex index;
    private transient ValueState<String> prefixKey;
    private transient ValueState<Long> prefixSeq;
    private transient Counter requests;
    private transient Counter learned;

    /**
     * @param name     the suggest stage's name, shared with its {@link SuggestAsync}
     * @param cacheTtl how long the result cache keeps a message
     * @param maxRows  how many earlier commits per repository a request may see
     */
    public IndexCommits(String name, Duration cacheTtl, int maxRows, AsyncSettings settings) {
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be positive: " + maxRows);
        }
        this.name = name;
        this.maxRows = maxRows;
        this.settings = settings;
        this.cache = new CompressedCache<>("resultCache", CachedMessage.class, cacheTtl);
        this.promptCache = new CompressedCache<>("promptCache", io.commitflow.cache.PromptPrefix.class, cacheTtl);
    }

    @Override
    public void open(OpenContext openContext) {
        model = getRuntimeContext().getState(new ValueStateDescriptor<>("repo-model", TypeInformation.of(RepoModel.class)));
        rows = getRuntimeContext().getMapState(
                new MapStateDescriptor<>("repo-rows", Types.LONG, TypeInformation.of(IndexedCommit.class)));
        cache.open(getRuntimeContext());
        promptCache.open(getRuntimeContext());
        prefixKey = getRuntimeContext().getState(new ValueStateDescriptor<>("prompt-prefix-key", Types.STRING));
        prefixSeq = getRuntimeContext().getState(new ValueStateDescriptor<>("prompt-prefix-seq", Types.LONG));
        var task = getRuntimeContext().getTaskInfo();
        index = TaskIndex.acquire(TaskIndex.key(getRuntimeContext().getJobInfo().getJobId().toString(), name,
                task.getIndexOfThisSubtask(), task.getAttemptNumber()), settings, FeatureSpace.DEFAULT_DIMENSION);
        var metrics = getRuntimeContext().getMetricGroup();
        requests = metrics.counter("requests");
        learned = metrics.counter("commitsLearned");
        metrics.gauge("indexedCommits", () -> index.engine().size() / 2);
        metrics.gauge("indexedRepositories", () -> index.repositories());
    }

    /** The name of the state holding each repository's model: {@link IndexOperator} lists the repositories by it. */
    static final String MODEL_STATE = "repo-model";

    /** Loads the current key's repository into the index. Called by {@link IndexOperator} for every key it owns. */
    void restoreCurrentKey(String repo) throws Exception {
        RepoModel m = model.value();
        if (m == null) {
            return;
        }
        List<IndexedCommit> saved = new ArrayList<>();
        rows.values().forEach(saved::add);
        index.lock().writeLock().lock();
        try {
            index.add(repo, g -> RepoKnowledge.restore(index.engine(), g, m, saved, maxRows, settings.capacity()));
        } finally {
            index.lock().writeLock().unlock();
        }
    }

    /** Every repository of this task is in the index: batches may run. */
    void indexReady() {
        index.markReady();
    }

    TaskIndex index() {
        return index;
    }

    @Override
    public void processElement(DiffedCommit diff, Context ctx, Collector<SuggestRequest> out) throws Exception {
        String repo = ctx.getCurrentKey();
        DiffFeatures features = DiffFeatures.of(diff);
        CachedMessage hit = diff.patchId() == null ? null : cache.get(diff.patchId());
        RepoKnowledge.Learned l = null;
        index.lock().writeLock().lock();
        try {
            RepoKnowledge memory = index.repo(repo);
            if (memory == null) {
                memory = index.add(repo, g -> RepoKnowledge.fresh(index.engine(), g, maxRows, settings.capacity()));
            }
            float[] query = memory.vector(features.terms());
            if (hit != null) {
                Draft d = new Draft(hit.subject(), hit.body(), hit.type(), hit.scope(), hit.backend(), hit.similarity(),
                        List.of(hit.sourceSha()));
                ctx.output(CACHE_HITS, Answerer.suggestion(diff, d, "hit", System.currentTimeMillis()));
            } else {
                RepoKnowledge.Window w = memory.window();
                IndexedCommit.Sparse sparse = IndexedCommit.Sparse.of(query);
                requests.inc();
                String prefix = "";
                boolean reused = false;
                if (settings.llm().containsKey(diff.commit().tenant())) {
                    io.commitflow.cache.PromptPrefix pp = cachedPrefix(memory);
                    reused = pp != null;
                    if (pp == null) {
                        pp = newPrefix(memory, w);
                    }
                    prefix = pp.text();
                }
                out.collect(new SuggestRequest(diff, features.signature(), features.lines(), features.newVersions(),
                        sparse.index(), sparse.value(), w.from(), w.to(), memory.model().style.conventions(),
                        settings.tierOf(diff.commit().tenant()).label(), prefix, reused));
            }
            String message = diff.commit().message();
            if (message != null && !message.isBlank()) {
                l = memory.learn(diff, features, query, message);
            }
        } finally {
            index.lock().writeLock().unlock();
        }
        if (l != null) {
            rows.put(l.added().seq(), l.added());
            for (long gone : l.evicted()) {
                rows.remove(gone);
            }
            model.update(index.repo(repo).model());
            if (diff.patchId() != null && hit == null) {
                String message = diff.commit().message();
                Subject s = Subject.parse(Subject.firstLine(message));
                cache.put(diff.patchId(), new CachedMessage(Subject.firstLine(message), body(message), s.type(), s.scope(),
                        BACKEND_CACHE, 1.0, List.of(diff.commit().sha()), diff.commit().sha()));
            }
            learned.inc();
        }
    }

    /** The repository's prompt prefix from the prompt cache, or null when it is due for a rebuild or forgotten. */
    private io.commitflow.cache.PromptPrefix cachedPrefix(RepoKnowledge memory) throws Exception {
        String key = prefixKey.value();
        Long at = prefixSeq.value();
        if (key == null || at == null || memory.model().nextSeq - at >= PREFIX_REFRESH) {
            return null;
        }
        io.commitflow.cache.PromptPrefix pp = promptCache.get(key);
        if (pp != null && pp.exemplars().size() < PREFIX_EXEMPLARS && memory.size() > pp.exemplars().size()) {
            return null; // a young repository: the prefix grows with it until it holds all its exemplars
        }
        return pp;
    }

    /**
     * A new prefix: the instructions, the repository's conventions and its newest commits; stable, so byte-identical,
     * until the next rebuild. Kept in the prompt cache (RocksDB, LZ4, TTL) under its structure hash.
     */
    private io.commitflow.cache.PromptPrefix newPrefix(RepoKnowledge memory, RepoKnowledge.Window w) throws Exception {
        String style = memory.model().style.describe();
        List<io.commitflow.llm.Prompts.Exemplar> ex = new ArrayList<>();
        List<String> shas = new ArrayList<>();
        for (IndexedCommit r : memory.newest(PREFIX_EXEMPLARS, w)) {
            ex.add(new io.commitflow.llm.Prompts.Exemplar(r.subject(), r.files()));
            shas.add(r.sha());
        }
        String text = io.commitflow.llm.Prompts.prefix(style, ex);
        var pp = new io.commitflow.cache.PromptPrefix(io.commitflow.llm.Prompts.TEMPLATE, style, shas, text,
                io.commitflow.llm.Prompts.tokens(text));
        String key = io.commitflow.cache.PromptPrefix.key(pp.structureHash());
        promptCache.put(key, pp);
        prefixKey.update(key);
        prefixSeq.update(memory.model().nextSeq);
        return pp;
    }

    /** The message after its subject line and the blank line that follows it. */
    static String body(String message) {
        int nl = message.indexOf('\n');
        return nl < 0 ? "" : message.substring(nl + 1).strip();
    }

    @Override
    public void close() {
        if (index != null) {
            index.release();
            index = null;
        }
    }

    private static final class Repo implements KeySelector<DiffedCommit, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(DiffedCommit d) {
            return d.commit().repo();
        }
    }
}
