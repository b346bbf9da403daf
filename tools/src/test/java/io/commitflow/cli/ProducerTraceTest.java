package io.commitflow.cli;

import io.commitflow.event.TraceContext;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The trace context push-event and suggest put on their records. */
class ProducerTraceTest {
    private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void continuesTheEnvironmentsTraceWithItsState() {
        ProducerTrace t = ProducerTrace.of(Map.of("TRACEPARENT", PARENT, "TRACESTATE", "congo=t61rcWkgMzE"));
        assertThat(t.traceparent()).isEqualTo(PARENT);
        assertThat(t.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        RecordHeaders h = new RecordHeaders();
        t.addTo(h);
        assertThat(new String(h.lastHeader(TraceContext.HEADER).value(), StandardCharsets.US_ASCII)).isEqualTo(PARENT);
        assertThat(new String(h.lastHeader(TraceContext.STATE_HEADER).value(), StandardCharsets.US_ASCII))
                .isEqualTo("congo=t61rcWkgMzE");
    }

    @Test
    void startsAValidSampledTraceByDefaultAndIgnoresAnInvalidParent() {
        ProducerTrace t = ProducerTrace.of(Map.of("TRACEPARENT", "00-" + "0".repeat(32) + "-00f067aa0ba902b7-01"));
        assertThat(TraceContext.traceIdOf(t.traceparent())).isNotNull().isNotEqualTo("0".repeat(32));
        assertThat(t.traceparent()).endsWith("-01");
        assertThat(t.tracestate()).isNull();
        assertThat(ProducerTrace.of(Map.of()).traceId()).isNotEqualTo(ProducerTrace.of(Map.of()).traceId());
    }

    @Test
    void samplesANewTraceAsTheEnvironmentsSamplerSays() {
        assertThat(ProducerTrace.of(Map.of("OTEL_TRACES_SAMPLER", "always_off")).traceparent()).endsWith("-00");
        int sampled = 0;
        Map<String, String> tenth = Map.of("OTEL_TRACES_SAMPLER", "parentbased_traceidratio",
                "OTEL_TRACES_SAMPLER_ARG", "0.1");
        for (int i = 0; i < 10_000; i++) {
            if (ProducerTrace.of(tenth).traceparent().endsWith("-01")) {
                sampled++;
            }
        }
        assertThat(sampled).isBetween(900, 1100);
        assertThat(ProducerTrace.of(Map.of("OTEL_TRACES_SAMPLER", "traceidratio", "OTEL_TRACES_SAMPLER_ARG", "x"))
                .traceparent()).as("an argument it cannot read samples all, as the SDK does").endsWith("-01");
        String id = "4bf92f3577b34da6a3ce929d0e0e4736";
        assertThat(ProducerTrace.start(id, Map.of()).traceId()).isEqualTo(id);
    }
}
