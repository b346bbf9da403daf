package io.commitflow.trace;

import io.commitflow.event.TraceContext;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.trace.IdGenerator;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingDecision;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Spans per stage, exported with the OpenTelemetry SDK — off unless configured the OpenTelemetry way: the
 * environment ({@code OTEL_EXPORTER_OTLP_ENDPOINT}, {@code OTEL_TRACES_SAMPLER}, {@code OTEL_TRACES_SAMPLER_ARG},
 * {@code OTEL_RESOURCE_ATTRIBUTES}, {@code OTEL_SERVICE_NAME}, …) or the same keys as system properties
 * ({@code -Dotel.exporter.otlp.endpoint=…}) of the process that runs the operators (the TaskManager). Tracing is
 * on when an OTLP endpoint or {@code otel.traces.exporter} (other than {@code none}) is set and
 * {@code otel.sdk.disabled} is not {@code true}; then defaults are OTLP over HTTP/protobuf (the JDK's client),
 * service name {@code commitflow}, no metrics or logs exporter (Prometheus has the metrics).
 *
 * <p>A stage runs in its own operator, often on another thread or machine than the one before it, and an event
 * carries no span: each stage makes its span after the fact, with its own start and end, and with ids derived from
 * the trace and the stage ({@link #spanId}) so that the next stage names its parent without being told, and a
 * redelivered record makes the same span again (a backend keeps one). The sampling decision is the configured
 * sampler's on the event's {@code traceparent} (its flags, for the default parent-based sampler) or, without one, on
 * the trace id; every stage of one trace decides the same way. Unsampled events cost one sampler call per stage.
 *
 * <p>One SDK per process and job class loader, shared by the operators that {@link #acquire} it and shut down
 * (flushing its spans) when the last one {@link #release}s it: it is an exporter, like a shared HTTP client, not
 * state. The Kafka sinks' header writers use it while it is open ({@link #current}).
 */
public final class Tracing {
    private static final Logger LOG = LoggerFactory.getLogger(Tracing.class);
    /** The tracer's (instrumentation scope's) name. */
    public static final String SCOPE = "io.commitflow";
    private static final Tracing OFF = new Tracing(null, null);

    private static volatile Tracing shared = OFF;
    private static int users;

    private final OpenTelemetrySdk sdk;
    private final Tracer tracer;
    private final Sampler sampler;
    private final FixedIds ids;

    private Tracing(OpenTelemetrySdk sdk, FixedIds ids) {
        this.sdk = sdk;
        this.ids = ids;
        this.tracer = sdk == null ? null : sdk.getTracer(SCOPE);
        this.sampler = sdk == null ? null : sdk.getSdkTracerProvider().getSampler();
    }

    /** The process's tracing, started on first use from the environment and system properties; pair with {@link #release}. */
    public static synchronized Tracing acquire() {
        if (users++ == 0) {
            shared = start(System.getenv(), System.getProperties());
        }
        return shared;
    }

    /** One user fewer; the last one shuts the SDK down, which exports what is left. */
    public static synchronized void release() {
        if (users > 0 && --users == 0) {
            Tracing t = shared;
            shared = OFF;
            if (t.sdk != null) {
                t.sdk.getSdkTracerProvider().shutdown().join(10, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * A tracing of its own, not the process's, configured by these {@code otel.*} keys over the environment's (tools
     * and benchmarks; the operators use {@link #acquire}). {@link #shutdown} it.
     */
    public static Tracing of(Map<String, String> properties) {
        return start(System.getenv(), properties);
    }

    /** Shuts down a tracing that is not the shared one, exporting what is queued. */
    public void shutdown() {
        if (sdk != null) {
            sdk.getSdkTracerProvider().shutdown().join(10, TimeUnit.SECONDS);
        }
    }

    /** The tracing of the operators running now in this process, or one that is off. */
    public static Tracing current() {
        return shared;
    }

    /** Whether spans are made at all. */
    public boolean enabled() {
        return sdk != null;
    }

    /** The configuration keys (as system properties spell them) that switch tracing on, from either source. */
    static Map<String, String> otelKeys(Map<String, String> env, Map<?, ?> props) {
        Map<String, String> keys = new HashMap<>();
        env.forEach((k, v) -> {
            if (k.startsWith("OTEL_")) {
                keys.put(k.toLowerCase(Locale.ROOT).replace('_', '.'), v);
            }
        });
        props.forEach((k, v) -> {
            if (k instanceof String s && s.startsWith("otel.")) {
                keys.put(s, String.valueOf(v));
            }
        });
        return keys;
    }

    /** Whether this configuration asks for traces. */
    static boolean wanted(Map<String, String> keys) {
        if ("true".equalsIgnoreCase(keys.getOrDefault("otel.sdk.disabled", "").strip())) {
            return false;
        }
        String exporter = keys.getOrDefault("otel.traces.exporter", "").strip();
        if (!exporter.isEmpty()) {
            return !exporter.equals("none");
        }
        return !keys.getOrDefault("otel.exporter.otlp.endpoint", "").isBlank()
                || !keys.getOrDefault("otel.exporter.otlp.traces.endpoint", "").isBlank();
    }

    static Tracing start(Map<String, String> env, Map<?, ?> props) {
        Map<String, String> keys = otelKeys(env, props);
        if (!wanted(keys)) {
            return OFF;
        }
        // the SDK reads the environment and system properties itself; these are its defaults, and the keys read
        // above (the same values, unless the caller passed others)
        Map<String, String> config = new HashMap<>(Map.of(
                "otel.service.name", "commitflow",
                "otel.traces.exporter", "otlp",
                "otel.metrics.exporter", "none",
                "otel.logs.exporter", "none",
                "otel.exporter.otlp.protocol", "http/protobuf"));
        config.putAll(keys);
        FixedIds ids = new FixedIds();
        OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                .addPropertiesSupplier(() -> config)
                .addTracerProviderCustomizer((b, unused) -> b.setIdGenerator(ids))
                .disableShutdownHook()
                .build()
                .getOpenTelemetrySdk();
        Tracing t = new Tracing(sdk, ids);
        LOG.info("tracing on: sampler {}, exporting to {}", t.sampler.getDescription(),
                keys.getOrDefault("otel.exporter.otlp.traces.endpoint",
                        keys.getOrDefault("otel.exporter.otlp.endpoint", keys.get("otel.traces.exporter"))));
        return t;
    }

    /**
     * The trace an event belongs to, when it is sampled: null when tracing is off or the sampler drops it.
     *
     * @param traceId     the event's trace id (any string: one that is not a W3C trace id is hashed into one)
     * @param traceparent the event's {@code traceparent} header, or null
     * @param tracestate  the event's {@code tracestate} header, or null
     */
    public Trace trace(String traceId, String traceparent, String tracestate) {
        if (sdk == null) {
            return null;
        }
        String trace = TraceContext.w3cTraceId(traceId);
        SpanContext remote = remoteParent(trace, traceparent, tracestate);
        Context parent = remote == null ? Context.root() : Context.root().with(Span.wrap(remote));
        SamplingDecision d = sampler.shouldSample(parent, trace, "commitflow", SpanKind.CONSUMER, Attributes.empty(),
                List.of()).getDecision();
        return d == SamplingDecision.RECORD_AND_SAMPLE ? new Trace(trace, remote) : null;
    }

    /** The headers' span as the remote parent, when they are valid and of this trace (read as the W3C propagator does). */
    static SpanContext remoteParent(String trace, String traceparent, String tracestate) {
        if (traceparent == null) {
            return null;
        }
        Map<String, String> carrier = new HashMap<>(2);
        carrier.put(TraceContext.HEADER, traceparent);
        if (tracestate != null) {
            carrier.put(TraceContext.STATE_HEADER, tracestate);
        }
        SpanContext c = Span.fromContext(W3CTraceContextPropagator.getInstance().extract(Context.root(), carrier, MAP))
                .getSpanContext();
        return c.isValid() && c.getTraceId().equals(trace) ? c : null;
    }

    private static final TextMapGetter<Map<String, String>> MAP = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    /**
     * The {@code traceparent} a record written for an event carries, naming the sink's span {@code key} of the
     * event's trace: sampled when the trace is ({@code t}, from {@link #trace}) or tracing is off (as without
     * tracing), unsampled when tracing is on and the sampler dropped the trace.
     */
    public String traceparentFor(Trace t, String traceId, String key) {
        return enabled() && t == null ? TraceContext.unsampled(traceId, key) : TraceContext.traceparent(traceId, key);
    }

    /**
     * Exports one finished span.
     *
     * @param parentKey the parent stage's key, or null: the event's remote parent (or none, a root)
     * @param key       this stage's key ({@link #spanId})
     * @param startNs   start, epoch nanoseconds
     * @param endNs     end, epoch nanoseconds
     * @param error     the error's description, or null
     * @param attrs     the span's attributes
     */
    public void span(Trace t, String name, SpanKind kind, String parentKey, String key, long startNs, long endNs,
                     String error, Attributes attrs) {
        SpanContext parent = parentKey == null ? t.remote() : SpanContext.createFromRemoteParent(t.id(),
                TraceContext.spanId(t.id(), parentKey), TraceFlags.getSampled(),
                t.remote() == null ? TraceState.getDefault() : t.remote().getTraceState());
        SpanBuilder b = tracer.spanBuilder(name).setSpanKind(kind).setStartTimestamp(startNs, TimeUnit.NANOSECONDS)
                .setAllAttributes(attrs);
        b = parent == null ? b.setNoParent() : b.setParent(Context.root().with(Span.wrap(parent)));
        Span span;
        ids.next(t.id(), TraceContext.spanId(t.id(), key));
        try {
            span = b.startSpan();
        } finally {
            ids.clear();
        }
        if (error != null) {
            span.setStatus(StatusCode.ERROR, error);
        }
        span.end(Math.max(startNs, endNs), TimeUnit.NANOSECONDS);
    }

    /** The epoch nanoseconds of now, with the resolution of the clock the SDK uses. */
    public static long nowNs() {
        java.time.Instant i = java.time.Instant.now();
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    /** A sampled trace: its W3C id and the event's remote parent span (null when the event had no header). */
    public record Trace(String id, SpanContext remote) {}

    /**
     * Span and trace ids chosen by the caller for the span being started on this thread (the SDK asks its id
     * generator from inside {@code startSpan}); random ones otherwise.
     */
    static final class FixedIds implements IdGenerator {
        private final ThreadLocal<String[]> next = new ThreadLocal<>();

        void next(String traceId, String spanId) {
            next.set(new String[] {traceId, spanId});
        }

        void clear() {
            next.remove();
        }

        @Override
        public String generateSpanId() {
            String[] n = next.get();
            return n != null ? n[1] : IdGenerator.random().generateSpanId();
        }

        @Override
        public String generateTraceId() {
            String[] n = next.get();
            return n != null ? n[0] : IdGenerator.random().generateTraceId();
        }
    }
}
