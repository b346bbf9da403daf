package io.commitflow.trace;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.Origin;
import io.commitflow.event.PushEvent;
import io.commitflow.event.Suggestion;
import io.commitflow.git.DiffedCommit;
import io.commitflow.llm.LlmWriter;
import io.commitflow.spans.StageTrace;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.SpanKind;

/**
 * The operators' {@link StageTrace} on OpenTelemetry: each instance holds the process's {@link Tracing} (acquired on
 * construction, released on close) and writes the spans {@link Stages} describes. Found by
 * {@link StageTrace#acquire} through {@code META-INF/services}.
 */
public final class OtelStageTrace implements StageTrace {
    private static final AttributeKey<Long> COMMITS = AttributeKey.longKey("commitflow.commits");

    private Tracing tracing = Tracing.acquire();

    @Override
    public boolean enabled() {
        return tracing.enabled();
    }

    @Override
    public long nowNs() {
        return Tracing.nowNs();
    }

    @Override
    public void consumed(Origin o, CommitEvent e, long startNs) {
        Tracing.Trace t = tracing.trace(e.traceId(), o.traceparent(), o.tracestate());
        if (t != null) {
            Stages.consumed(tracing, t, o, true, e.draft() ? "draft" : "commit", Stages.of(e), startNs, null);
        }
    }

    @Override
    public void consumed(Origin o, PushEvent p, long startNs) {
        Tracing.Trace t = tracing.trace(p.traceId(), o.traceparent(), o.tracestate());
        if (t != null) {
            Stages.consumed(tracing, t, o, false, "push", Stages.of(p), startNs, null);
        }
    }

    @Override
    public void rejected(Origin o, DeadLetter d, long startNs) {
        Tracing.Trace t = tracing.trace(d.traceId(), o.traceparent(), o.tracestate());
        if (t != null) {
            Stages.consumed(tracing, t, o, false, "rejected", Attributes.builder().put(Stages.REASON, d.reason()),
                    startNs, d.reason() + ": " + d.detail());
        }
    }

    @Override
    public void duplicate(String span, CommitEvent c) {
        if (tracing.enabled()) {
            Stages.diffed(tracing, span, c, null, Tracing.nowNs(), null, Stages.of(c).put(Stages.DUPLICATE, true));
        }
    }

    @Override
    public void diffed(String span, CommitEvent c, DiffedCommit d, long startNs, String error, long attempts,
                       long mirrorWaitMs) {
        AttributesBuilder attrs = Stages.of(c);
        if (attempts > 0) {
            attrs.put(Stages.ATTEMPTS, attempts).put(Stages.MIRROR_WAIT_MS, mirrorWaitMs);
        }
        Stages.diffed(tracing, span, c, d, startNs, error, attrs);
    }

    @Override
    public void expanded(PushEvent p, long startNs, String error, long commits, long attempts, long mirrorWaitMs) {
        Tracing.Trace t = tracing.enabled() ? tracing.trace(p.traceId(), p.origin().traceparent(),
                p.origin().tracestate()) : null;
        if (t != null) {
            tracing.span(t, "expand push", SpanKind.INTERNAL, Stages.parse(p.origin()), Stages.beforeDiff(p.origin()),
                    startNs, Tracing.nowNs(), error, Stages.of(p).put(COMMITS, commits).put(Stages.ATTEMPTS, attempts)
                            .put(Stages.MIRROR_WAIT_MS, mirrorWaitMs).build());
        }
    }

    @Override
    public void indexed(CommitEvent c, long startNs, int rows, boolean onEngine) {
        Stages.indexed(tracing, c, startNs, rows, onEngine);
    }

    @Override
    public Suggestion suggested(CommitEvent c, Suggestion made, long startNs, Batch batch, LlmWriter.Call llm) {
        Tracing.Trace t = tracing.enabled() ? tracing.trace(c.traceId(), c.origin().traceparent(),
                c.origin().tracestate()) : null;
        Suggestion out = made.withTraceContext(tracing.traceparentFor(t, made.traceId(),
                Stages.published(c.repo(), c.sha())), c.origin().tracestate());
        if (t != null) {
            Stages.suggested(tracing, t, c, out, startNs, batch == null ? null : new Stages.Engine(batch.engine(),
                    batch.startNs(), batch.endNs(), batch.size(), batch.timedOut()), llm);
        }
        return out;
    }

    @Override
    public void close() {
        if (tracing != null) {
            Tracing.release();
            tracing = null;
        }
    }
}
