package io.commitflow.llm;

/**
 * One completion request: a stable prefix (instructions and the repository's exemplars — the part an inference
 * server can keep in its KV cache between requests of a repository) and the part that changes (the diff).
 *
 * @param prefix    the system prompt
 * @param diff      the user message
 * @param maxTokens the most tokens of reply
 */
public record LlmRequest(String prefix, String diff, int maxTokens) {
    public LlmRequest {
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be positive: " + maxTokens);
        }
    }
}
