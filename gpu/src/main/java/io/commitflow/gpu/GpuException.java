package io.commitflow.gpu;

/** A CUDA call failed: the message names the call and CUDA's error (e.g. {@code CUDA_ERROR_OUT_OF_MEMORY}). */
public final class GpuException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * The errors after which CUDA's context is corrupt for the life of the process: every later call in it fails
     * (CUDA's documentation: "the process must be terminated and relaunched"). Retrying is pointless.
     */
    static final java.util.List<String> STICKY = java.util.List.of("CUDA_ERROR_ILLEGAL_ADDRESS",
            "CUDA_ERROR_LAUNCH_FAILED", "CUDA_ERROR_HARDWARE_STACK_ERROR", "CUDA_ERROR_ILLEGAL_INSTRUCTION",
            "CUDA_ERROR_MISALIGNED_ADDRESS", "CUDA_ERROR_INVALID_ADDRESS_SPACE", "CUDA_ERROR_INVALID_PC",
            "CUDA_ERROR_ECC_UNCORRECTABLE", "CUDA_ERROR_ASSERT", "CUDA_ERROR_CONTEXT_IS_DESTROYED");

    /** A sticky error's name as a whole word: CUDA_ERROR_LAUNCH_FAILED, not CUDA_ERROR_LAUNCH_FAILED_SOMETHING. */
    private static final java.util.regex.Pattern STICKY_NAME =
            java.util.regex.Pattern.compile("\\b(" + String.join("|", STICKY) + ")\\b");

    /** The sticky CUDA error that {@code t} or one of its causes names, or null when none does. */
    public static String sticky(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            java.util.regex.Matcher m = STICKY_NAME.matcher(String.valueOf(c.getMessage()));
            if (m.find()) {
                return m.group(1);
            }
        }
        return null;
    }

    public GpuException(String message, Throwable cause) {
        super(message, cause);
    }

    public GpuException(String message) {
        super(message);
    }
}
