package io.commitflow.cli;

import io.commitflow.event.TraceContext;
import io.commitflow.job.KafkaIO;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingDecision;
import org.apache.kafka.common.header.Headers;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The W3C trace context a commitflow producer ({@code push-event}, so the post-receive hook; {@code suggest}) puts on
 * its Kafka record, so that the job's trace of the event starts on the Git server or the developer's machine:
 * <ul>
 * <li>the environment's {@code TRACEPARENT} (and {@code TRACESTATE}), when valid — OpenTelemetry's convention for
 * handing a trace to a child process, e.g. from a CI job or a traced server;</li>
 * <li>else a new trace, sampled as {@code OTEL_TRACES_SAMPLER} and {@code OTEL_TRACES_SAMPLER_ARG} say (the SDK's
 * default, {@code parentbased_always_on}, samples it): with the parent-based samplers the job follows that flag, so a
 * ratio is set where the events start.</li>
 * </ul>
 *
 * @param traceparent the {@code traceparent} header
 * @param tracestate  the {@code tracestate} header, or null
 */
record ProducerTrace(String traceparent, String tracestate) {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The trace id the record's trace has. */
    String traceId() {
        return TraceContext.traceIdOf(traceparent);
    }

    /** Adds the headers to a record's. */
    void addTo(Headers headers) {
        KafkaIO.addTraceHeaders(headers, traceparent, tracestate);
    }

    /** The environment's trace, or a new one. */
    static ProducerTrace of(Map<String, String> env) {
        String parent = env.get("TRACEPARENT");
        if (TraceContext.traceIdOf(parent) != null) {
            String state = env.get("TRACESTATE");
            return new ProducerTrace(parent.strip(), state == null || state.isBlank() ? null : state.strip());
        }
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        return start(HexFormat.of().formatHex(id), env);
    }

    /** A new trace with this id (32 lowercase hex digits), sampled as the environment's sampler says. */
    static ProducerTrace start(String traceId, Map<String, String> env) {
        byte[] span = new byte[8];
        RANDOM.nextBytes(span);
        span[0] |= 1; // never all zeros
        String flags = sampled(traceId, env) ? "01" : "00";
        return new ProducerTrace("00-" + traceId + "-" + HexFormat.of().formatHex(span) + "-" + flags, null);
    }

    static boolean sampled(String traceId, Map<String, String> env) {
        String sampler = env.getOrDefault("OTEL_TRACES_SAMPLER", "parentbased_always_on").strip().toLowerCase(Locale.ROOT);
        return switch (sampler) {
            case "always_off", "parentbased_always_off" -> false;
            case "traceidratio", "parentbased_traceidratio" -> Sampler.traceIdRatioBased(ratio(env))
                    .shouldSample(Context.root(), traceId, "push", SpanKind.PRODUCER, Attributes.empty(), List.of())
                    .getDecision() == SamplingDecision.RECORD_AND_SAMPLE;
            default -> true;
        };
    }

    private static double ratio(Map<String, String> env) {
        try {
            double r = Double.parseDouble(env.getOrDefault("OTEL_TRACES_SAMPLER_ARG", "1.0").strip());
            return r >= 0 && r <= 1 ? r : 1.0;
        } catch (NumberFormatException e) {
            return 1.0; // as the SDK does with an argument it cannot read
        }
    }
}
