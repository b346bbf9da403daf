package io.commitflow.job;

import io.commitflow.cache.CompressedCache;
import io.commitflow.dedup.DedupCommits;
import io.commitflow.event.EventParser;
import io.commitflow.sla.SlaSettings;
import io.commitflow.suggest.AsyncSettings;
import io.commitflow.suggest.IndexCommits;
import io.commitflow.git.DiffBudget;
import io.commitflow.push.RetryPolicy;

import java.io.Serializable;
import java.time.Duration;

/**
 * What the pipeline's operators need, apart from where Kafka is.
 *
 * @param mirrorRoot    the folder holding the bare mirrors, or {@code null} for inline patches only
 * @param dedupTtl      how long a delivered commit is remembered for dedup
 * @param maxEventBytes records larger than this are dead letters
 * @param budget        per-commit diff limits
 * @param pushRetry     how long a push waits for its commits to reach the mirror
 * @param cacheTtl      how long the result cache keeps a suggestion
 * @param maxHistoryPerRepo how many earlier commits per repository the generator keeps (the oldest go first)
 * @param async         the suggest stage's engine, batching, timeout and tenant tiers
 * @param sla           the SLA windows
 */
public record PipelineSettings(String mirrorRoot, Duration dedupTtl, int maxEventBytes, DiffBudget budget,
                               RetryPolicy pushRetry, Duration cacheTtl, int maxHistoryPerRepo, AsyncSettings async,
                               SlaSettings sla)
        implements Serializable {

    public static PipelineSettings defaults(String mirrorRoot) {
        return new PipelineSettings(mirrorRoot, DedupCommits.DEFAULT_TTL, EventParser.DEFAULT_MAX_EVENT_BYTES,
                DiffBudget.DEFAULT, RetryPolicy.DEFAULT, CompressedCache.DEFAULT_TTL, IndexCommits.DEFAULT_MAX_ROWS, AsyncSettings.DEFAULT, SlaSettings.DEFAULT);
    }

    public PipelineSettings withAsync(AsyncSettings a) {
        return new PipelineSettings(mirrorRoot, dedupTtl, maxEventBytes, budget, pushRetry, cacheTtl, maxHistoryPerRepo, a, sla);
    }

    public PipelineSettings withSla(SlaSettings s) {
        return new PipelineSettings(mirrorRoot, dedupTtl, maxEventBytes, budget, pushRetry, cacheTtl, maxHistoryPerRepo, async, s);
    }
}
