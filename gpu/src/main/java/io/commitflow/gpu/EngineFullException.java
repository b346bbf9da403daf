package io.commitflow.gpu;

/**
 * A {@link RetrievalEngine} with a {@link RetrievalEngine#capacity() capacity} (the CUDA engine's device memory
 * budget) has no room for another row. Recoverable: the refused {@link RetrievalEngine#add add} changed nothing, and
 * the engine takes rows again once some are removed.
 */
public final class EngineFullException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EngineFullException(String message) {
        super(message);
    }
}
