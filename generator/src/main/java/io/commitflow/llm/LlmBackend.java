package io.commitflow.llm;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** A chat-completion endpoint, asked without blocking. Failures complete the future with an {@link LlmException}. */
public interface LlmBackend {
    /** {@code openai:MODEL} or {@code anthropic:MODEL}: what a suggestion names as its backend. */
    String name();

    CompletableFuture<LlmReply> complete(LlmRequest request, Duration timeout);
}
