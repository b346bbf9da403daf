package io.commitflow.gpu;

/**
 * The kernels of {@code retrieval.cu} as the engine launches them: PTX entry name, threads per block, the tile a block
 * covers, and the parameter list ({@code p} a device pointer, {@code i} a 32-bit int, {@code l} a 64-bit long), which
 * {@code KernelSignatureTest} checks against the PTX and every launch checks against its arguments.
 */
enum Kernel {
    /**
     * Scores up to 8 queries against 128 rows per block, one row per thread, into {@code out[q * ld + outOff + row]}
     * (the small batches' kernel, {@link CudaEngine.SmallBatchPath#FEW}).
     */
    SCORE_FEW("score_few", 128, 128, 8, "pppiippppipll"),
    /** Scores up to 8 queries against 256 rows per block ({@link CudaEngine.SmallBatchPath#NARROW}). */
    SCORE_NARROW("score_narrow", 256, 256, 8, "pppiippppipl"),
    /** Scores 64 queries against 128 rows per block. */
    SCORE_WIDE("score_wide", 256, 128, 64, "pppiippppipl"),
    /** Top k of one query's entries per block. */
    TOPK("topk", 128, 0, 1, "ppiliiippll");

    final String entry;
    final int threads;
    final int tileRows;
    final int tileQueries;
    final String signature;

    Kernel(String entry, int threads, int tileRows, int tileQueries, String signature) {
        this.entry = entry;
        this.threads = threads;
        this.tileRows = tileRows;
        this.tileQueries = tileQueries;
        this.signature = signature;
    }

    /** The score kernel for a batch of {@code queries} on {@code path}. */
    static Kernel scoreFor(int queries, CudaEngine.SmallBatchPath path) {
        if (queries > SCORE_NARROW.tileQueries) {
            return SCORE_WIDE;
        }
        return path == CudaEngine.SmallBatchPath.FEW ? SCORE_FEW : SCORE_NARROW;
    }

    /** Throws unless {@code args} match the signature: {@link Gpu.Mem}, {@link Integer} or {@link Long} in order. */
    void check(Object... args) {
        if (args.length != signature.length()) {
            throw new IllegalArgumentException(entry + " takes " + signature.length() + " arguments, not " + args.length);
        }
        for (int i = 0; i < args.length; i++) {
            char want = signature.charAt(i);
            Object a = args[i];
            boolean ok = switch (want) {
                case 'p' -> a instanceof Gpu.Mem;
                case 'i' -> a instanceof Integer;
                case 'l' -> a instanceof Long;
                default -> false;
            };
            if (!ok) {
                throw new IllegalArgumentException(entry + " argument " + i + " must be "
                        + (want == 'p' ? "device memory" : want == 'i' ? "an int" : "a long") + ", not " + a);
            }
        }
    }
}
