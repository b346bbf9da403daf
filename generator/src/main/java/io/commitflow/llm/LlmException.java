package io.commitflow.llm;

import java.time.Duration;

/** Why a completion failed, and whether trying again can help. */
public final class LlmException extends RuntimeException {
    /** The kinds of failure. */
    public enum Kind {
        /** 429: the server asked us to wait ({@link #retryAfter()}). */
        RATE_LIMITED(true),
        /** 5xx, or Anthropic's 529 overloaded. */
        SERVER(true),
        /** No reply in time. */
        TIMEOUT(true),
        /** Connection refused or reset. */
        CONNECTION(true),
        /** A reply that is not the API's format, or holds no text. */
        MALFORMED(false),
        /** 4xx other than 429: our request or key is wrong; trying again will not help. */
        CLIENT(false),
        /** The endpoint's circuit breaker is open. */
        CIRCUIT_OPEN(false);

        public final boolean retryable;

        Kind(boolean retryable) {
            this.retryable = retryable;
        }
    }

    private final Kind kind;
    private final Duration retryAfter;

    public LlmException(Kind kind, String message) {
        this(kind, message, null, null);
    }

    public LlmException(Kind kind, String message, Duration retryAfter, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.retryAfter = retryAfter;
    }

    public Kind kind() {
        return kind;
    }

    /** How long the server asked us to wait, or null. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
