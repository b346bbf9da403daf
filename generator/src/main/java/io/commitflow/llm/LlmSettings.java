package io.commitflow.llm;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;

import java.io.Serializable;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Locale;

/**
 * A tenant's LLM endpoint: {@code KIND:MODEL@URL}, e.g. {@code openai:gpt-4o-mini@https://api.openai.com},
 * {@code openai:qwen2.5-coder@http://vllm:8000} (any OpenAI-compatible server) or
 * {@code anthropic:claude-3-5-haiku-latest@https://api.anthropic.com}. The key comes from the environment variable
 * {@code keyEnv} on the TaskManagers (default {@code OPENAI_API_KEY} or {@code ANTHROPIC_API_KEY}), never from a
 * command line; an OpenAI-compatible server without a key is called without one.
 *
 * @param maxTokens    the most tokens of reply
 * @param promptTokens the budget the diff is fitted to
 * @param perTenant    requests in flight per tenant; more wait
 * @param instructions the tenant's own instructions to its model ("Use Conventional Commits", "Subjects in
 *                     German"), after the repository's style in every prompt; empty for none
 */
public record LlmSettings(String kind, String model, String url, String keyEnv, int maxTokens, int promptTokens,
                          int perTenant, String instructions) implements Serializable {
    /** The most characters of a tenant's instructions: a paragraph or two, not a second prompt. */
    public static final int MAX_INSTRUCTIONS_CHARS = 4000;

    public LlmSettings(String kind, String model, String url, String keyEnv, int maxTokens, int promptTokens,
                       int perTenant) {
        this(kind, model, url, keyEnv, maxTokens, promptTokens, perTenant, "");
    }

    public LlmSettings {
        instructions = instructions == null ? "" : instructions.strip();
        if (instructions.length() > MAX_INSTRUCTIONS_CHARS) {
            throw new IllegalArgumentException("the instructions have " + instructions.length() + " characters; at most "
                    + MAX_INSTRUCTIONS_CHARS);
        }
        if (!kind.equals("openai") && !kind.equals("anthropic")) {
            throw new IllegalArgumentException("LLM kind must be openai or anthropic, not '" + kind + "'");
        }
        if (model.isBlank()) {
            throw new IllegalArgumentException("the LLM model is empty");
        }
        URI u = URI.create(url);
        if (u.getScheme() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https")) || u.getHost() == null) {
            throw new IllegalArgumentException("the LLM URL must be http(s)://HOST[:PORT], not '" + url + "'");
        }
        if (maxTokens < 16 || promptTokens < 256 || perTenant < 1) {
            throw new IllegalArgumentException("LLM limits too small: max tokens ≥ 16, prompt tokens ≥ 256, per tenant ≥ 1");
        }
    }

    public static LlmSettings parse(String spec) {
        int colon = spec.indexOf(':');
        int at = spec.indexOf('@');
        if (colon < 1 || at < colon + 2 || at == spec.length() - 1) {
            throw new IllegalArgumentException("an LLM backend is KIND:MODEL@URL, e.g. openai:gpt-4o-mini@https://api.openai.com, not '"
                    + spec + "'");
        }
        String kind = spec.substring(0, colon).toLowerCase(Locale.ROOT);
        return new LlmSettings(kind, spec.substring(colon + 1, at), spec.substring(at + 1),
                kind.equals("anthropic") ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY", 300, 6000, 4);
    }

    /** These settings with the tenant's own {@code instructions}. */
    public LlmSettings withInstructions(String instructions) {
        return new LlmSettings(kind, model, url, keyEnv, maxTokens, promptTokens, perTenant, instructions);
    }

    /** The backend, with the key read from the environment now. */
    public LlmBackend create(HttpClient http, java.util.function.Function<String, String> env) {
        String key = env.apply(keyEnv);
        if (kind.equals("anthropic")) {
            if (key == null || key.isBlank()) {
                throw new IllegalStateException("the Anthropic backend needs its key in the environment variable " + keyEnv
                        + " on every TaskManager");
            }
            return new AnthropicBackend(http, url, model, key);
        }
        return new OpenAiBackend(http, url, model, key);
    }

    /** The circuit breaker every endpoint gets: open after 5 failures in a row, for 30 s. */
    public CircuitBreaker breaker() {
        return CircuitBreaker.of(kind + ":" + model + "@" + url, ResilientBackend.breakerConfig(5, Duration.ofSeconds(30)));
    }
}
