package io.commitflow.job;

import io.commitflow.diff.DedupAndDiff;
import io.commitflow.event.EventParser;
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
 */
public record PipelineSettings(String mirrorRoot, Duration dedupTtl, int maxEventBytes, DiffBudget budget,
                               RetryPolicy mirrorWait, SuggestSettings suggest, SlaSettings sla, int maxPushCommits)
        implements Serializable {

    /** With the default bound on a push's commits. */
    public PipelineSettings(String mirrorRoot, Duration dedupTtl, int maxEventBytes, DiffBudget budget,
                            RetryPolicy mirrorWait, SuggestSettings suggest, SlaSettings sla) {
        this(mirrorRoot, dedupTtl, maxEventBytes, budget, mirrorWait, suggest, sla, PushExpander.DEFAULT_MAX_COMMITS);
    }

    public PipelineSettings {
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
        return new PipelineSettings(mirrorRoot, dedupTtl, maxEventBytes, budget, mirrorWait, a, sla, maxPushCommits);
    }

    public PipelineSettings withMirrorRoot(String root) {
        return new PipelineSettings(root, dedupTtl, maxEventBytes, budget, mirrorWait, suggest, sla, maxPushCommits);
    }

    public PipelineSettings withSla(SlaSettings s) {
        return new PipelineSettings(mirrorRoot, dedupTtl, maxEventBytes, budget, mirrorWait, suggest, s, maxPushCommits);
    }
}
