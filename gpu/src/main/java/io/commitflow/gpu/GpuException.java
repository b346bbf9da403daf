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

    /** The sticky CUDA error that {@code t} or one of its causes names, or null when none does. */
    public static String sticky(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String m = c.getMessage();
            if (m != null) {
                for (String code : STICKY) {
                    int at = m.indexOf(code);
                    // CUDA_ERROR_LAUNCH_FAILED is not CUDA_ERROR_LAUNCH_FAILED_SOMETHING
                    if (at >= 0 && (at + code.length() == m.length() || !Character.isLetterOrDigit(m.charAt(at + code.length()))
                            && m.charAt(at + code.length()) != '_')) {
                        return code;
                    }
                }
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
