package io.commitflow.job;

import io.commitflow.diff.DedupAndDiff;
import io.commitflow.event.EventParser;
import io.commitflow.event.RepoKeys;
import io.commitflow.git.DiffBudget;
import io.commitflow.push.PushExpander;
import io.commitflow.push.RetryPolicy;
import io.commitflow.sla.SlaSettings;
import io.commitflow.suggest.SuggestSettings;

import java.io.Serializable;
import java.time.Duration;

/**
 * What the pipeline's operators need, apart from where Kafka is.
 *
 * @param mirrorRoot    the folder holding the bare mirrors, or {@code null} for inline patches only
 * @param dedupTtl      how long a diffed commit is remembered for dedup
 * @param maxEventBytes records larger than this are dead letters
 * @param budget        per-commit diff limits
 * @param mirrorWait    how long a push or a commit event waits for its commits to reach the mirror
 * @param suggest       the suggest stage: engine, batching, timeout, tenant tiers and LLMs, history, caches
 * @param sla           the SLA windows
 * @param maxPushCommits the most commits one push may bring; a larger push is one dead letter
 * @param keys          whose names repository names are ({@link RepoKeys}): per tenant where each tenant has topics of
 *                      its own ({@link KafkaSettings#perTenant()}), keying state by {@code tenant/repo} and mirrors at
 *                      {@code root/tenant/repo}; else global
 */
public record PipelineSettings(String mirrorRoot, Duration dedupTtl, int maxEventBytes, DiffBudget budget,
                               RetryPolicy mirrorWait, SuggestSettings suggest, SlaSettings sla, int maxPushCommits,
                               RepoKeys keys)
        implements Serializable {

    /** Mirrors at {@code root/repo}, for a deployment whose topics every tenant shares. */
    public PipelineSettings(String mirrorRoot, Duration dedupTtl, int maxEventBytes, DiffBudget budget,
                            RetryPolicy mirrorWait, SuggestSettings suggest, SlaSettings sla, int maxPushCommits) {
        this(mirrorRoot, dedupTtl, maxEventBytes, budget, mirrorWait, suggest, sla, maxPushCommits, RepoKeys.GLOBAL);
    }

    /** With the default bound on a push's commits. */
    public PipelineSettings(String mirrorRoot, Duration dedupTtl, int maxEventBytes, DiffBudget budget,
                            RetryPolicy mirrorWait, SuggestSettings suggest, SlaSettings sla) {
        this(mirrorRoot, dedupTtl, maxEventBytes, budget, mirrorWait, suggest, sla, PushExpander.DEFAULT_MAX_COMMITS);
    }

    public PipelineSettings {
        if (keys == null) {
            throw new IllegalArgumentException("the repository keys must be set");
        }
        if (maxPushCommits < 1) {
            throw new IllegalArgumentException("--max-push-commits must be at least 1: " + maxPushCommits);
        }
        if (dedupTtl.isNegative() || dedupTtl.isZero()) {
            throw new IllegalArgumentException("the dedup TTL must be positive: " + dedupTtl);
        }
        if (maxEventBytes < 1) {
            throw new IllegalArgumentException("the largest event must be at least 1 byte: " + maxEventBytes);
        }
    }

    public static PipelineSettings defaults(String mirrorRoot) {
        return new PipelineSettings(mirrorRoot, DedupAndDiff.DEFAULT_TTL, EventParser.DEFAULT_MAX_EVENT_BYTES,
                DiffBudget.DEFAULT, RetryPolicy.DEFAULT, SuggestSettings.DEFAULT, SlaSettings.DEFAULT);
    }

    public PipelineSettings withSuggest(SuggestSettings a) {
        return new PipelineSettings(mirrorRoot, dedupTtl, maxEventBytes, budget, mirrorWait, a, sla, maxPushCommits,
                keys);
    }

    public PipelineSettings withMirrorRoot(String root) {
        return new PipelineSettings(root, dedupTtl, maxEventBytes, budget, mirrorWait, suggest, sla, maxPushCommits,
                keys);
    }

    public PipelineSettings withSla(SlaSettings s) {
        return new PipelineSettings(mirrorRoot, dedupTtl, maxEventBytes, budget, mirrorWait, suggest, s, maxPushCommits,
                keys);
    }

    public PipelineSettings withKeys(RepoKeys k) {
        return new PipelineSettings(mirrorRoot, dedupTtl, maxEventBytes, budget, mirrorWait, suggest, sla,
                maxPushCommits, k);
    }
}
