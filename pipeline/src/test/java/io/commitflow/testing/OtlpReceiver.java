package io.commitflow.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP/HTTP trace receiver ({@code POST /v1/traces}, {@code application/x-protobuf}, gzip or not), decoding each
 * export with OpenTelemetry's own protobuf classes, as a collector does, and answering as the protocol says.
 */
public final class OtlpReceiver implements AutoCloseable {
    /** A received span, ids in lowercase hex, attributes as strings. */
    public record Received(String traceId, String spanId, String parentSpanId, String traceState, String name,
                           Span.SpanKind kind,
                           long startNs, long endNs, boolean error, Map<String, String> attributes,
                           Map<String, String> resource) {}

    private final HttpServer server;
    private final List<Received> spans = new CopyOnWriteArrayList<>();
    private final List<String> refused = new CopyOnWriteArrayList<>();

    public OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/traces", this::handle);
        server.start();
    }

    /** The value for {@code otel.exporter.otlp.endpoint}. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public List<Received> spans() {
        return List.copyOf(spans);
    }

    /** Requests it could not take, with why: a test fails on any. */
    public List<String> refused() {
        return List.copyOf(refused);
    }

    public List<Received> trace(String traceId) {
        return spans.stream().filter(s -> s.traceId().equals(traceId)).toList();
    }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            String type = x.getRequestHeaders().getFirst("Content-Type");
            if (!"POST".equals(x.getRequestMethod()) || type == null || !type.startsWith("application/x-protobuf")) {
                refused.add(x.getRequestMethod() + " " + type);
                x.sendResponseHeaders(415, -1);
                return;
            }
            byte[] body;
            try (InputStream in = "gzip".equalsIgnoreCase(x.getRequestHeaders().getFirst("Content-Encoding"))
                    ? new GZIPInputStream(x.getRequestBody()) : x.getRequestBody()) {
                body = in.readAllBytes();
            }
            ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body);
            for (ResourceSpans rs : request.getResourceSpansList()) {
                Map<String, String> resource = strings(rs.getResource());
                for (ScopeSpans ss : rs.getScopeSpansList()) {
                    for (Span s : ss.getSpansList()) {
                        spans.add(new Received(hex(s.getTraceId().toByteArray()), hex(s.getSpanId().toByteArray()),
                                hex(s.getParentSpanId().toByteArray()), s.getTraceState(), s.getName(), s.getKind(),
                                s.getStartTimeUnixNano(), s.getEndTimeUnixNano(),
                                s.getStatus().getCode() == io.opentelemetry.proto.trace.v1.Status.StatusCode.STATUS_CODE_ERROR,
                                strings(s.getAttributesList()), resource));
                    }
                }
            }
            byte[] response = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            x.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            x.sendResponseHeaders(200, response.length == 0 ? -1 : response.length);
            if (response.length > 0) {
                x.getResponseBody().write(response);
            }
        } catch (RuntimeException | IOException e) {
            refused.add(e.toString());
            throw e;
        }
    }

    private static Map<String, String> strings(Resource r) {
        return strings(r.getAttributesList());
    }

    private static Map<String, String> strings(List<KeyValue> kvs) {
        return kvs.stream().collect(Collectors.toMap(KeyValue::getKey, kv -> text(kv.getValue()), (a, b) -> b));
    }

    private static String text(AnyValue v) {
        return switch (v.getValueCase()) {
            case STRING_VALUE -> v.getStringValue();
            case INT_VALUE -> Long.toString(v.getIntValue());
            case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
            case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
            default -> v.toString();
        };
    }

    private static String hex(byte[] b) {
        return b.length == 0 ? "" : HexFormat.of().formatHex(b);
    }

    /** Every span of the receiver, one per line: for a failing test's message. */
    public String dump() {
        List<String> lines = new ArrayList<>();
        for (Received s : spans) {
            lines.add(s.traceId() + " " + s.spanId() + " <- " + s.parentSpanId() + " " + s.name());
        }
        return String.join("\n", lines);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
