package io.commitflow.generate;

import io.commitflow.cache.CachedMessage;
import io.commitflow.cache.CompressedCache;
import io.commitflow.event.CommitEvent;
import io.commitflow.event.Suggestion;
import io.commitflow.git.DiffedCommit;
import io.commitflow.gpu.CpuEngine;
import io.commitflow.gpu.RetrievalEngine;
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

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes each commit's suggestion from its repository's own history, and learns from the commit once its real
 * message is known. Keyed by repository ({@link #KEY}).
 *
 * <ol>
 * <li>Result cache: a commit whose patch-id was seen in this repository (a cherry-pick, a rebase) reuses that
 * suggestion, marked {@code cache: hit} and naming the original.</li>
 * <li>Otherwise {@link RetrievalGenerator} adapts the nearest earlier commits' subjects.</li>
 * <li>Then the commit joins the repository's memory: its vector, its real message (from the event, or read from the
 * mirror by the diff stage), its style. A commit without a real message is described but not learned.</li>
 * </ol>
 *
 * <p>State, per repository: the model ({@link RepoModel}: TF-IDF document frequencies, style counts), the rows
 * ({@link IndexedCommit} by running number, at most {@code maxRows}: the oldest are deleted as new ones come), and
 * the result cache ({@link CompressedCache}, by patch-id, LZ4, TTL). The retrieval engine holding the rows' vectors
 * is rebuilt from the rows when a repository is first seen after a restore, so a replayed request gets the same
 * answer. Engine memory per task: about {@code 8 * dimension} bytes per row.
 *
 * <p>Metrics: {@code suggestions}, {@code commitsLearned}, {@code resultCacheHits}, {@code resultCacheMisses}
 * (counts), {@code indexedCommits} (gauge: rows in this task's engine).
 */
public class SuggestCommits extends KeyedProcessFunction<String, DiffedCommit, Suggestion> {
    private static final long serialVersionUID = 1L;
    public static final KeySelector<DiffedCommit, String> KEY = new Repo();
    public static final int DEFAULT_MAX_ROWS = 10_000;

    private final int maxRows;
    private final RetrievalGenerator generator = new RetrievalGenerator();
    private final CompressedCache<CachedMessage> cache;

    private transient ValueState<RepoModel> model;
    private transient MapState<Long, IndexedCommit> rows;
    private transient RetrievalEngine engine;
    private transient Map<String, RepoKnowledge> loaded;
    private transient Counter suggestions;
    private transient Counter learned;

    public SuggestCommits(Duration cacheTtl, int maxRows) {
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be positive: " + maxRows);
        }
        this.maxRows = maxRows;
        this.cache = new CompressedCache<>("resultCache", CachedMessage.class, cacheTtl);
    }

    @Override
    public void open(OpenContext openContext) {
        model = getRuntimeContext().getState(new ValueStateDescriptor<>("repo-model", TypeInformation.of(RepoModel.class)));
        rows = getRuntimeContext().getMapState(
                new MapStateDescriptor<>("repo-rows", Types.LONG, TypeInformation.of(IndexedCommit.class)));
        cache.open(getRuntimeContext());
        engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION);
        loaded = new HashMap<>();
        var metrics = getRuntimeContext().getMetricGroup();
        suggestions = metrics.counter("suggestions");
        learned = metrics.counter("commitsLearned");
        metrics.gauge("indexedCommits", () -> engine.size() / 2);
    }

    @Override
    public void processElement(DiffedCommit diff, Context ctx, Collector<Suggestion> out) throws Exception {
        RepoKnowledge memory = memory(ctx.getCurrentKey());
        DiffFeatures features = DiffFeatures.of(diff);
        float[] query = memory.vector(features.terms());
        CachedMessage hit = diff.patchId() == null ? null : cache.get(diff.patchId());
        Draft draft;
        String cacheFlag;
        if (hit != null) {
            draft = new Draft(hit.subject(), hit.body(), hit.type(), hit.scope(), hit.backend(), hit.similarity(),
                    List.of(hit.sourceSha()));
            cacheFlag = "hit";
        } else {
            draft = generator.generate(diff, features, memory, query);
            cacheFlag = "miss";
            if (diff.patchId() != null) {
                cache.put(diff.patchId(), new CachedMessage(draft.subject(), draft.body(), draft.type(), draft.scope(),
                        draft.backend(), draft.similarity(), draft.exemplars(), diff.commit().sha()));
            }
        }
        suggestions.inc();
        out.collect(suggestion(diff, draft, cacheFlag, System.currentTimeMillis()));
        String message = diff.commit().message();
        if (message != null && !message.isBlank()) {
            RepoKnowledge.Learned l = memory.learn(diff, features, query, message);
            rows.put(l.added().seq(), l.added());
            for (long gone : l.evicted()) {
                rows.remove(gone);
            }
            model.update(memory.model());
            learned.inc();
        }
    }

    /** The repository's memory: loaded once per task, rebuilt from state after a restore. */
    private RepoKnowledge memory(String repo) throws Exception {
        RepoKnowledge k = loaded.get(repo);
        if (k == null) {
            RepoModel m = model.value();
            int group = loaded.size();
            if (m == null) {
                k = RepoKnowledge.fresh(engine, group, maxRows);
            } else {
                List<IndexedCommit> saved = new ArrayList<>();
                rows.values().forEach(saved::add);
                k = RepoKnowledge.restore(engine, group, m, saved, maxRows);
            }
            loaded.put(repo, k);
        }
        return k;
    }

    /** The output record; latency runs from the event's Kafka timestamp to {@code now}. */
    static Suggestion suggestion(DiffedCommit diff, Draft d, String cacheFlag, long now) {
        CommitEvent c = diff.commit();
        return new Suggestion(c.repo(), c.sha(), d.subject(), d.body(), d.type(), d.scope(), d.backend(), d.similarity(),
                d.exemplars(), cacheFlag, Math.max(0, now - c.origin().kafkaTs()), c.traceId(), c.tenant(),
                diff.truncation(), c.ts(), c.origin().kafkaTs());
    }

    @Override
    public void close() {
        if (engine != null) {
            engine.close();
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
