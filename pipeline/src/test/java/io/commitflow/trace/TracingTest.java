package io.commitflow.trace;

import io.commitflow.event.TraceContext;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** When tracing is on, what it samples, and the span ids that let stages name each other. */
class TracingTest {
    @Test
    void offUnlessAnExporterOrEndpointIsConfigured() {
        assertThat(Tracing.wanted(Tracing.otelKeys(Map.of(), Map.of()))).isFalse();
        assertThat(Tracing.wanted(Tracing.otelKeys(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"),
                Map.of()))).isTrue();
        assertThat(Tracing.wanted(Tracing.otelKeys(Map.of(),
                Map.of("otel.exporter.otlp.traces.endpoint", "http://collector:4318/v1/traces")))).isTrue();
        assertThat(Tracing.wanted(Tracing.otelKeys(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
                "OTEL_TRACES_EXPORTER", "none"), Map.of()))).isFalse();
        assertThat(Tracing.wanted(Tracing.otelKeys(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"),
                Map.of("otel.sdk.disabled", "true")))).isFalse();
        assertThat(Tracing.wanted(Tracing.otelKeys(Map.of("PATH", "/bin", "OTEL_SERVICE_NAME", "x"), Map.of())))
                .as("a service name alone exports nothing").isFalse();
        assertThat(Tracing.start(Map.of(), Map.of()).enabled()).isFalse();
        assertThat(Tracing.current().enabled()).as("nothing acquired it").isFalse();
    }

    @Test
    void aParentBasedRatioSamplerFollowsTheProducerAndSamplesTheRestByTraceId() {
        Tracing t = Tracing.start(Map.of(), Map.of("otel.exporter.otlp.endpoint", "http://127.0.0.1:9",
                "otel.traces.sampler", "parentbased_traceidratio", "otel.traces.sampler.arg", "0.1"));
        try {
            assertThat(t.enabled()).isTrue();
            Random r = new Random(1);
            int sampled = 0;
            for (int i = 0; i < 10_000; i++) {
                String id = String.format("%016x%016x", r.nextLong(), r.nextLong());
                Tracing.Trace trace = t.trace(id, null, null);
                assertThat(t.traceparentFor(trace, id, "k")).as("sampled as the trace is").isEqualTo(trace != null
                        ? TraceContext.traceparent(id, "k") : TraceContext.unsampled(id, "k"));
                if (trace != null) {
                    sampled++;
                    assertThat(t.trace(id, null, null)).as("every stage decides alike").isEqualTo(trace);
                }
                assertThat(t.trace(id, "00-" + id + "-00f067aa0ba902b7-01", null)).as("the producer sampled it").isNotNull();
                assertThat(t.trace(id, "00-" + id + "-00f067aa0ba902b7-00", null)).as("the producer did not").isNull();
            }
            assertThat(sampled).isBetween(900, 1100);
        } finally {
            t.shutdown();
        }
    }

    @Test
    void spanIdsAreDerivedAsTheUntracedTraceparentIs() {
        String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
        String key = Stages.published("app", "a".repeat(40));
        Tracing off = Tracing.current();
        assertThat(off.traceparentFor(null, trace, key)).as("tracing off: as before tracing")
                .isEqualTo(TraceContext.traceparent(trace, key));
        assertThat(TraceContext.unsampled(trace, key)).isEqualTo(TraceContext.traceparent(trace, key)
                .replaceAll("-01$", "-00"));
        assertThat(TraceContext.spanId(trace, "parse/x")).hasSize(16).isNotEqualTo(TraceContext.spanId(trace, "pre/x"))
                .isEqualTo(TraceContext.spanId(trace, "parse/x"));
        assertThat(TraceContext.traceparent(trace, key)).contains("-" + TraceContext.spanId(trace, key) + "-");
    }
}
