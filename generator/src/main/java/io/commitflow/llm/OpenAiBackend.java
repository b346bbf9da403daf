package io.commitflow.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.commitflow.event.Json;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;

/**
 * OpenAI-compatible {@code POST /v1/chat/completions} (OpenAI, vLLM, llama.cpp's server, Ollama): the prefix as the
 * system message, the diff as the user message; the reply from {@code choices[0].message.content}, token counts
 * from {@code usage} ({@code prompt_tokens_details.cached_tokens} where the server reports its prefix cache).
 *
 * <p>The reply's length is capped with {@code max_completion_tokens}, the current parameter: OpenAI's reasoning models
 * refuse the older {@code max_tokens} with a 400, and take only their default temperature. A 400 that names
 * {@code max_completion_tokens} (a server that knows only the older name) or {@code temperature} makes the backend
 * write its requests the way the endpoint takes them, from then on, and send that request again once; any other 400
 * is the caller's fault, reported as {@link LlmException.Kind#CLIENT}.
 */
public final class OpenAiBackend extends HttpBackend {
    private static final Logger LOG = LoggerFactory.getLogger(OpenAiBackend.class);
    private final String apiKey;
    /** The endpoint refused {@code max_completion_tokens}: it takes the older {@code max_tokens}. */
    private volatile boolean olderMaxTokens;
    /** The model refused {@code temperature: 0}: it takes only its default. */
    private volatile boolean defaultTemperature;

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
        b.put(olderMaxTokens ? "max_tokens" : "max_completion_tokens", r.maxTokens());
        if (!defaultTemperature) {
            b.put("temperature", 0);
        }
        b.put("n", 1);
        return b;
    }

    @Override
    boolean adapt(JsonNode reply) {
        JsonNode error = reply.path("error");
        String param = error.path("param").asText("");
        String message = error.isTextual() ? error.asText() : error.path("message").asText(reply.path("message").asText(""));
        if (!olderMaxTokens && (param.equals("max_completion_tokens")
                || param.isEmpty() && message.contains("max_completion_tokens") && !message.contains("instead"))) {
            olderMaxTokens = true;
            LOG.warn("{} does not take max_completion_tokens; sending max_tokens from now on", name());
            return true;
        }
        if (!defaultTemperature && param.equals("temperature")) {
            defaultTemperature = true;
            LOG.warn("{} takes only its default temperature; leaving temperature out from now on", name());
            return true;
        }
        return false;
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
