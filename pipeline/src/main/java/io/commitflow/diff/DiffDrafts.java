package io.commitflow.diff;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.PushEvent;
import io.commitflow.event.Reason;
import io.commitflow.git.DiffBudget;
import io.commitflow.git.DiffCommits;
import io.commitflow.git.DiffedCommit;
import io.commitflow.git.InlinePatch;
import io.commitflow.ingest.DeadLetters;
import io.commitflow.spans.StageTrace;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The requests topic's path to the suggest stage: each draft diffed from its own patch, with no state and no mirror,
 * in its own operator, so that a draft never queues behind the learning traffic's diffs. What is not a draft is a
 * dead letter ({@code INVALID_FIELD}: the requests topic takes drafts only).
 *
 * <p>Metrics: {@code draftsDiffed} (count), {@code draftsRefused} (count).
 */
public class DiffDrafts extends ProcessFunction<CommitEvent, DiffedCommit> {
    private static final long serialVersionUID = 1L;
    static final String ONLY_DRAFTS = "the requests topic takes drafts only ({\"type\":\"commit\",\"draft\":true,…}); "
            + "commits and pushes go to the events topic";

    private final DiffBudget budget;
    private transient InlinePatch inline;
    private transient Counter diffed;
    private transient Counter refused;
    private transient StageTrace tracing;

    public DiffDrafts(DiffBudget budget) {
        this.budget = budget;
    }

    @Override
    public void open(OpenContext openContext) {
        inline = new InlinePatch(budget);
        diffed = getRuntimeContext().getMetricGroup().counter("draftsDiffed");
        refused = getRuntimeContext().getMetricGroup().counter("draftsRefused");
        tracing = StageTrace.acquire();
    }

    @Override
    public void close() {
        if (tracing != null) {
            tracing.close();
            tracing = null;
        }
    }

    @Override
    public void processElement(CommitEvent commit, Context ctx, Collector<DiffedCommit> out) {
        if (!commit.draft()) {
            refused.inc();
            ctx.output(DeadLetters.TAG, DeadLetter.of(commit, Reason.INVALID_FIELD, ONLY_DRAFTS, "diff"));
            return;
        }
        DiffedCommit d = diffOrRefuse(inline, commit, tracing, dead -> ctx.output(DeadLetters.TAG, dead));
        if (d == null) {
            refused.inc();
        } else {
            out.collect(d);
            diffed.inc();
        }
    }

    /**
     * A draft's diff from its own patch, or null once its dead letter went to {@code refuse}: what both paths of a
     * draft (the requests topic's, and the events topic's through {@link DiffCommits}) do with it.
     */
    static DiffedCommit diffOrRefuse(InlinePatch inline, CommitEvent draft, StageTrace tracing,
                                     java.util.function.Consumer<DeadLetter> refuse) {
        long startNs = tracing.enabled() ? tracing.nowNs() : 0;
        DiffedCommit d = null;
        String error = null;
        try {
            d = inline.parse(draft);
        } catch (InvalidEventException e) {
            error = e.reason().name();
            refuse.accept(DeadLetter.of(draft, e.reason(), e.getMessage(), "diff"));
        } catch (RuntimeException e) {
            error = Reason.BAD_PATCH.name();
            refuse.accept(DeadLetter.of(draft, Reason.BAD_PATCH, "reading the draft's patch failed: " + e, "diff"));
        }
        if (startNs != 0) {
            tracing.diffed("diff draft", draft, d, startNs, error, 0, 0);
        }
        return d;
    }

    /** A push sent to the requests topic: a dead letter, never silently dropped. */
    public static final class RefusePushes extends ProcessFunction<PushEvent, DeadLetter> {
        private static final long serialVersionUID = 1L;

        @Override
        public void processElement(PushEvent push, Context ctx, Collector<DeadLetter> out) {
            out.collect(DeadLetter.of(push, Reason.INVALID_FIELD, ONLY_DRAFTS, "parse"));
        }
    }
}
