package io.commitflow.event;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** W3C Trace Context in and out: which headers continue a trace, and what the job writes. */
class TraceContextTest {
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void readsTheTraceIdOfAValidTraceparent() {
        assertThat(TraceContext.traceIdOf("00-" + TRACE + "-00f067aa0ba902b7-01")).isEqualTo(TRACE);
        assertThat(TraceContext.traceIdOf(" 00-" + TRACE + "-00f067aa0ba902b7-00 ")).as("unsampled, padded").isEqualTo(TRACE);
        assertThat(TraceContext.traceIdOf("01-" + TRACE + "-00f067aa0ba902b7-01-future")).as("a later version's extra fields")
                .isEqualTo(TRACE);
    }

    @Test
    void leavesALongHeaderUnread() {
        String valid = "01-" + TRACE + "-00f067aa0ba902b7-01-";
        assertThat(TraceContext.traceIdOf(valid + "x".repeat(256 - valid.length()))).isEqualTo(TRACE);
        assertThat(TraceContext.traceIdOf(valid + "x".repeat(257 - valid.length()))).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "garbage", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-zz",
        "0g-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x"})
    void restartsTheTraceOnAnInvalidOne(String header) {
        assertThat(TraceContext.traceIdOf(header)).isNull();
        assertThat(new Origin("t", 0, 1, 2).withTraceContext(header, null).traceparent()).isNull();
    }

    @Test
    void writesATraceparentOfTheSameTraceWithAStableSpanOfItsOwn() {
        String out = TraceContext.traceparent(TRACE, "suggest/app/abc");

        assertThat(out).matches("00-" + TRACE + "-[0-9a-f]{16}-01");
        assertThat(TraceContext.traceIdOf(out)).isEqualTo(TRACE);
        assertThat(TraceContext.traceparent(TRACE, "suggest/app/abc")).as("a redelivery writes the same").isEqualTo(out);
        assertThat(TraceContext.traceparent(TRACE, "dlq/parse/x")).isNotEqualTo(out);
    }

    @Test
    void makesAW3cTraceIdOfAnyOtherTraceId() {
        assertThat(TraceContext.w3cTraceId(TRACE)).isEqualTo(TRACE);
        assertThat(TraceContext.w3cTraceId("abc-123")).matches("[0-9a-f]{32}").isEqualTo(TraceContext.w3cTraceId("abc-123"));
        assertThat(TraceContext.w3cTraceId(TRACE.toUpperCase(java.util.Locale.ROOT))).as("upper case is not W3C's")
                .matches("[0-9a-f]{32}").isNotEqualTo(TRACE);
        assertThat(TraceContext.w3cTraceId("0".repeat(32))).matches("[0-9a-f]{32}").isNotEqualTo("0".repeat(32));
        assertThat(TraceContext.traceIdOf(TraceContext.traceparent("abc-123", "x"))).isEqualTo(TraceContext.w3cTraceId("abc-123"));
    }

    @Test
    void keepsTracestateOnlyBesideAValidTraceparentAndWithinItsLimit() {
        Origin o = new Origin("t", 0, 1, 2);
        String parent = "00-" + TRACE + "-00f067aa0ba902b7-01";
        assertThat(o.withTraceContext(parent, " congo=t61rcWkgMzE ").tracestate()).isEqualTo("congo=t61rcWkgMzE");
        assertThat(o.withTraceContext("00-" + "0".repeat(32) + "-00f067aa0ba902b7-01", "congo=t61rcWkgMzE"))
                .as("an invalid traceparent restarts the trace, tracestate and all")
                .extracting(Origin::traceparent, Origin::tracestate).containsExactly(null, null);
        assertThat(o.withTraceContext(parent, "a=" + "b".repeat(Origin.MAX_TRACESTATE)).tracestate()).isNull();
        assertThat(o.withTraceContext(parent, null).traceparent()).isEqualTo(parent);
    }
}
