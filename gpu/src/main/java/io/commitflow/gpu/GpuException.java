package io.commitflow.gpu;

/** A CUDA call failed: the message names the call and CUDA's error (e.g. {@code CUDA_ERROR_OUT_OF_MEMORY}). */
public final class GpuException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public GpuException(String message, Throwable cause) {
        super(message, cause);
    }

    public GpuException(String message) {
        super(message);
    }
}
