package io.commitflow.gpu;

/**
 * The engine is gone for the life of this process (a sticky CUDA error corrupted its context): callers answer from
 * the CPU without retrying.
 */
public final class EngineLostException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EngineLostException(String message, Throwable cause) {
        super(message, cause);
    }
}
