package io.commitflow.llm;

/**
 * A completion.
 *
 * @param text         the reply's text
 * @param promptTokens tokens of the prompt as the server counted them
 * @param cachedTokens of those, tokens the server read from its prompt cache (0 when it does not say)
 */
public record LlmReply(String text, int promptTokens, int cachedTokens) {}
