package io.commitflow.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.commitflow.event.Json;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;

/**
 * Anthropic {@code POST /v1/messages}: the prefix as the {@code system} block marked for prompt caching
 * ({@code cache_control: ephemeral}), the diff as the user message; headers {@code x-api-key} and
 * {@code anthropic-version}; the reply from the {@code text} blocks of {@code content}, token counts from
 * {@code usage} (prompt = input + cache read + cache creation tokens).
 */
public final class AnthropicBackend extends HttpBackend {
    public static final String VERSION = "2023-06-01";
    private final String apiKey;

    public AnthropicBackend(HttpClient http, String baseUrl, String model, String apiKey) {
        super(http, "anthropic", baseUrl, "/v1/messages", model);
        this.apiKey = apiKey;
    }

    @Override
    JsonNode body(LlmRequest r) {
        ObjectNode b = Json.mapper().createObjectNode();
        b.put("model", model);
        b.put("max_tokens", r.maxTokens());
        b.put("temperature", 0);
        ObjectNode system = b.putArray("system").addObject();
        system.put("type", "text").put("text", r.prefix());
        system.putObject("cache_control").put("type", "ephemeral");
        b.putArray("messages").addObject().put("role", "user").put("content", r.diff());
        return b;
    }

    @Override
    HttpRequest.Builder headers(HttpRequest.Builder b) {
        return b.header("x-api-key", apiKey == null ? "" : apiKey).header("anthropic-version", VERSION);
    }

    @Override
    LlmReply parse(JsonNode json) {
        JsonNode content = json.path("content");
        if (!content.isArray()) {
            throw malformed(name(), "no content in the reply");
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode block : content) {
            if (block.path("type").asText().equals("text")) {
                text.append(block.path("text").asText());
            }
        }
        if (text.isEmpty()) {
            throw malformed(name(), "no text block in the reply");
        }
        JsonNode usage = json.path("usage");
        int cached = usage.path("cache_read_input_tokens").asInt(0);
        int prompt = usage.path("input_tokens").asInt(0) + cached + usage.path("cache_creation_input_tokens").asInt(0);
        return new LlmReply(text.toString(), prompt, cached);
    }
}
