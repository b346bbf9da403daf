package io.commitflow.generate;

import io.commitflow.cache.CachedMessage;
import io.commitflow.cache.CompressedCache;
import io.commitflow.event.CommitEvent;
import io.commitflow.event.Suggestion;
import io.commitflow.git.DiffedCommit;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import java.time.Duration;
import java.util.List;

/**
 * Writes each commit's suggestion, reusing an earlier one for the same change: keyed by (repository, patch-id)
 * ({@link #KEY}), so a cherry-pick or a rebase of a commit seen before gets that commit's suggestion, marked
 * {@code cache: hit} and naming the original in {@code exemplars}. Misses are generated and stored.
 *
 * <p>State: the result cache, one LZ4-compressed {@link CachedMessage} per (repository, patch-id), TTL 24 h by
 * default ({@link CompressedCache}). Commits without a patch-id (over the diff budget, or blobs missing from the
 * mirror) are keyed by their sha and never cached.
 *
 * <p>Why lookup, generation and fill are one operator: Flink 2 has no iterations, so a later generation stage
 * could not feed its result back into a cache that sits before it. The async generator of later issues takes
 * the misses through a side output and a second keyed stage that only fills.
 *
 * <p>Metrics: {@code suggestions} (count), {@code resultCacheHits}, {@code resultCacheMisses}.
 */
public class GenerateWithCache extends KeyedProcessFunction<String, DiffedCommit, Suggestion> {
    private static final long serialVersionUID = 1L;
    public static final KeySelector<DiffedCommit, String> KEY = new RepoAndPatchId();
    static final String UNCACHED = "sha\u0000";

    private final Generator generator;
    private final CompressedCache<CachedMessage> cache;
    private transient Counter suggestions;

    public GenerateWithCache(Generator generator, Duration cacheTtl) {
        this.generator = generator;
        this.cache = new CompressedCache<>("resultCache", CachedMessage.class, cacheTtl);
    }

    @Override
    public void open(OpenContext openContext) {
        cache.open(getRuntimeContext());
        suggestions = getRuntimeContext().getMetricGroup().counter("suggestions");
    }

    @Override
    public void processElement(DiffedCommit diff, Context ctx, Collector<Suggestion> out) throws Exception {
        boolean cacheable = !ctx.getCurrentKey().startsWith(UNCACHED);
        CachedMessage hit = cacheable ? cache.get() : null;
        Draft draft;
        String cacheFlag;
        if (hit != null) {
            draft = new Draft(hit.subject(), hit.body(), hit.type(), hit.scope(), hit.backend(), hit.similarity(),
                    List.of(hit.sourceSha()));
            cacheFlag = "hit";
        } else {
            draft = generator.generate(diff);
            cacheFlag = "miss";
            if (cacheable) {
                cache.put(new CachedMessage(draft.subject(), draft.body(), draft.type(), draft.scope(), draft.backend(),
                        draft.similarity(), draft.exemplars(), diff.commit().sha()));
            }
        }
        suggestions.inc();
        out.collect(suggestion(diff, draft, cacheFlag, System.currentTimeMillis()));
    }

    /** The output record; latency runs from the event's Kafka timestamp to {@code now}. */
    static Suggestion suggestion(DiffedCommit diff, Draft d, String cacheFlag, long now) {
        CommitEvent c = diff.commit();
        return new Suggestion(c.repo(), c.sha(), d.subject(), d.body(), d.type(), d.scope(), d.backend(), d.similarity(),
                d.exemplars(), cacheFlag, Math.max(0, now - c.origin().kafkaTs()), c.traceId(), c.tenant(),
                diff.truncation(), c.ts(), c.origin().kafkaTs());
    }

    private static final class RepoAndPatchId implements KeySelector<DiffedCommit, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(DiffedCommit d) {
            String repo = d.commit().repo();
            return d.patchId() == null ? UNCACHED + repo + '\u0000' + d.commit().sha() : repo + '\u0000' + d.patchId();
        }
    }
}
