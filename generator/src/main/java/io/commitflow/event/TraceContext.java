package io.commitflow.event;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.api.trace.TraceId;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;

import java.util.List;

/**
 * W3C Trace Context ({@code traceparent: 00-<trace-id>-<parent-id>-<flags>}) in and out of Kafka headers: an
 * event's trace continues the one its producer started, and every record the job writes carries a
 * {@code traceparent} of the same trace, so that a consumer continues it in turn. A header is read by OpenTelemetry's
 * {@link W3CTraceContextPropagator}, the reader the tracing stage and other consumers use, so all agree on which
 * headers are valid.
 */
public final class TraceContext {
    /** The Kafka header, as OpenTelemetry's Kafka instrumentation names it. */
    public static final String HEADER = "traceparent";
    /** Vendors' trace data beside it, passed on untouched. */
    public static final String STATE_HEADER = "tracestate";

    /** A carrier that is one {@code traceparent} value. */
    private static final TextMapGetter<String> ONE_TRACEPARENT = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String carrier) {
            return List.of(HEADER);
        }

        @Override
        public String get(String carrier, String key) {
            return HEADER.equals(key) ? carrier : null;
        }
    };

    private TraceContext() {}

    /**
     * The trace id of a {@code traceparent} header, or null when the header is absent or not valid (then the trace
     * restarts, as the W3C recommendation says): version {@code ff} and all-zero ids are invalid; a version above
     * {@code 00} is read by its first four fields.
     */
    public static String traceIdOf(String traceparent) {
        if (traceparent == null || traceparent.length() > 256) {
            return null; // no parsing of whatever a producer put in a header
        }
        SpanContext c = Span.fromContext(W3CTraceContextPropagator.getInstance()
                .extract(Context.root(), traceparent.strip(), ONE_TRACEPARENT)).getSpanContext();
        return c.isValid() ? c.getTraceId() : null;
    }

    /** {@code traceId} as a W3C trace id: itself when it is one (32 lowercase hex digits, not all zero), else its hash. */
    public static String w3cTraceId(String traceId) {
        return traceId != null && TraceId.isValid(traceId) ? traceId : Hashes.hex128(String.valueOf(traceId));
    }

    /**
     * The {@code traceparent} of a record the job writes in trace {@code traceId}: its span id derived from the trace
     * and {@code what} (the record's stage and id), so that a redelivery writes the same header; sampled.
     */
    public static String traceparent(String traceId, String what) {
        String trace = w3cTraceId(traceId);
        return "00-" + trace + "-" + spanId(trace, what) + "-01";
    }

    /**
     * The span id of {@code what} in W3C trace {@code trace}, derived from both: the id a record's
     * {@code traceparent} names, and the id of a stage's span, which the next stage derives to name its parent.
     */
    public static String spanId(String trace, String what) {
        String span = Hashes.hex128(trace + '/' + what).substring(0, 16);
        return SpanId.isValid(span) ? span : "0000000000000001";
    }

    /** As {@link #traceparent}, but not sampled: the trace was not recorded here, and its consumer should not either. */
    public static String unsampled(String traceId, String what) {
        String sampled = traceparent(traceId, what);
        return sampled.substring(0, sampled.length() - 2) + "00";
    }
}
