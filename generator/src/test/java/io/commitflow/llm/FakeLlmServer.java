package io.commitflow.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.commitflow.event.Json;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local HTTP server speaking the OpenAI chat-completions and Anthropic messages wire formats, with scripted
 * faults: each request takes the next {@link Step}, the last one repeats. Records every request's headers and body.
 * Only a paid service is faked here; what it speaks is the APIs' documented format.
 */
final class FakeLlmServer implements AutoCloseable {
    /** What to do with a request. */
    record Step(int status, String body, String retryAfter, long delayMillis, boolean hangUp) {
        static Step ok(String body) {
            return new Step(200, body, null, 0, false);
        }

        static Step status(int status) {
            return new Step(status, "{\"error\":{\"type\":\"x\",\"message\":\"scripted\"}}", null, 0, false);
        }

        static Step rateLimited(String retryAfter) {
            return new Step(429, "{\"error\":{\"type\":\"rate_limit_error\"}}", retryAfter, 0, false);
        }

        static Step slow(long millis, String body) {
            return new Step(200, body, null, millis, false);
        }

        static Step reset() {
            return new Step(0, "", null, 0, true);
        }
    }

    record Seen(String path, com.sun.net.httpserver.Headers headers, JsonNode body) {}

    private final HttpServer server;
    private final Deque<Step> script = new ArrayDeque<>();
    final List<Seen> seen = new CopyOnWriteArrayList<>();
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();

    FakeLlmServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
    }

    String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    synchronized FakeLlmServer then(Step... steps) {
        script.addAll(List.of(steps));
        return this;
    }

    private synchronized Step next() {
        return script.size() > 1 ? script.poll() : script.peek();
    }

    private void handle(HttpExchange x) throws IOException {
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        try {
            seen.add(new Seen(x.getRequestURI().getPath(), x.getRequestHeaders(),
                    Json.mapper().readTree(x.getRequestBody().readAllBytes())));
            Step s = next();
            if (s.delayMillis() > 0) {
                Thread.sleep(s.delayMillis());
            }
            if (s.hangUp()) {
                x.getResponseBody().close(); // no status line: the client sees the connection end
                x.close();
                return;
            }
            if (s.retryAfter() != null) {
                x.getResponseHeaders().add("retry-after", s.retryAfter());
            }
            byte[] b = s.body().getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("content-type", "application/json");
            x.sendResponseHeaders(s.status(), b.length == 0 ? -1 : b.length);
            if (b.length > 0) {
                x.getResponseBody().write(b);
            }
            x.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            inFlight.decrementAndGet();
        }
    }

    static String openAi(String content) {
        return Json.string(Json.mapper().createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion")
                .put("model", "m").set("choices", Json.mapper().createArrayNode().add(Json.mapper().createObjectNode()
                        .put("index", 0).put("finish_reason", "stop")
                        .set("message", Json.mapper().createObjectNode().put("role", "assistant").put("content", content)))))
                .replace("}]}", "}],\"usage\":{\"prompt_tokens\":1000,\"completion_tokens\":12,\"total_tokens\":1012,"
                        + "\"prompt_tokens_details\":{\"cached_tokens\":800}}}");
    }

    static String anthropic(String text) {
        var n = Json.mapper().createObjectNode().put("id", "msg_1").put("type", "message").put("role", "assistant")
                .put("model", "m").put("stop_reason", "end_turn");
        n.putArray("content").addObject().put("type", "text").put("text", text);
        n.putObject("usage").put("input_tokens", 200).put("output_tokens", 12).put("cache_read_input_tokens", 800)
                .put("cache_creation_input_tokens", 0);
        return Json.string(n);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
