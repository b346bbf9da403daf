package io.commitflow.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.commitflow.event.Json;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;

/**
 * OpenAI-compatible {@code POST /v1/chat/completions} (OpenAI, vLLM, llama.cpp's server, Ollama): the prefix as the
 * system message, the diff as the user message; the reply from {@code choices[0].message.content}, token counts
 * from {@code usage} ({@code prompt_tokens_details.cached_tokens} where the server reports its prefix cache).
 */
public final class OpenAiBackend extends HttpBackend {
    private final String apiKey;

    /** @param baseUrl for example {@code https://api.openai.com} or {@code http://vllm:8000}; the path is added */
    public OpenAiBackend(HttpClient http, String baseUrl, String model, String apiKey) {
        super(http, "openai", baseUrl, "/v1/chat/completions", model);
        this.apiKey = apiKey;
    }

    @Override
    JsonNode body(LlmRequest r) {
        ObjectNode b = Json.mapper().createObjectNode();
        b.put("model", model);
        var messages = b.putArray("messages");
        messages.addObject().put("role", "system").put("content", r.prefix());
        messages.addObject().put("role", "user").put("content", r.diff());
        b.put("max_tokens", r.maxTokens());
        b.put("temperature", 0);
        b.put("n", 1);
        return b;
    }

    @Override
    HttpRequest.Builder headers(HttpRequest.Builder b) {
        return apiKey == null || apiKey.isEmpty() ? b : b.header("authorization", "Bearer " + apiKey);
    }

    @Override
    LlmReply parse(JsonNode json) {
        JsonNode choices = json.path("choices");
        if (!choices.isArray() || choices.isEmpty()) {
            throw malformed(name(), "no choices in the reply");
        }
        JsonNode content = choices.get(0).path("message").path("content");
        if (!content.isTextual()) {
            throw malformed(name(), "choices[0].message.content is not text");
        }
        JsonNode usage = json.path("usage");
        return new LlmReply(content.asText(), usage.path("prompt_tokens").asInt(0),
                usage.path("prompt_tokens_details").path("cached_tokens").asInt(0));
    }
}
