package io.commitflow.gpu;

/**
 * How {@link CudaEngine} spends a device-memory budget: each of the three tiers reserves its search scratch up front
 * (allocated on its first search), and the rest holds row chunks. Per tier, for a batch of {@code B} queries:
 * the queries ({@code B·dim} floats), their groups and stamp windows ({@code 20·B} bytes), the scores of one chunk
 * ({@code B·chunkRows} floats), the k best of each chunk ({@code 8·B·64} bytes per chunk) and the answers
 * ({@code 8·B·64} bytes). A chunk is {@code chunkRows·(4·dim + 4 + 8)} bytes: fp32 rows, int32 groups, int64 stamps.
 *
 * <pre>{@code
 * new DeviceBudget(1024, 65_536, 256, 8L << 30).maxRows()  // 2,031,616 rows (31 chunks) in 8 GiB
 * }</pre>
 */
record DeviceBudget(int dim, int chunkRows, int batchQueries, long budgetBytes) {
    /** Search lanes: one per {@link Tier}. */
    static final int LANES = Tier.values().length;
    /** No more chunks than this, whatever the budget (keeps candidate lists and indices small). */
    static final int CHUNK_LIMIT = 65_536;

    /** Device bytes of one chunk of rows. */
    long chunkBytes() {
        return (long) chunkRows * ((long) dim * Float.BYTES + Integer.BYTES + Long.BYTES);
    }

    /** One lane's scratch apart from its candidate lists. */
    long laneFixedBytes() {
        long b = batchQueries;
        return b * dim * Float.BYTES
                + b * (Integer.BYTES + 2 * Long.BYTES)
                + b * chunkRows * Float.BYTES
                + b * CudaEngine.MAX_K * (Float.BYTES + Integer.BYTES);
    }

    /** One lane's candidate lists grow by this much per chunk the engine may hold. */
    long candidateBytesPerChunk() {
        return (long) batchQueries * CudaEngine.MAX_K * (Float.BYTES + Integer.BYTES);
    }

    /** The most chunks that fit beside the three lanes' scratch, each lane with candidates for that many chunks. */
    int maxChunks() {
        long left = budgetBytes - LANES * laneFixedBytes();
        if (left <= 0) {
            return 0;
        }
        long chunks = left / (chunkBytes() + LANES * candidateBytesPerChunk());
        return (int) Math.min(chunks, Math.min(CHUNK_LIMIT, Integer.MAX_VALUE / chunkRows));
    }

    long maxRows() {
        return (long) maxChunks() * chunkRows;
    }

    /** One lane's scratch, candidate lists included. */
    long laneBytes() {
        return laneFixedBytes() + maxChunks() * candidateBytesPerChunk();
    }

    /** The smallest budget that holds the scratch and one chunk. */
    long minimumBytes() {
        return LANES * (laneFixedBytes() + candidateBytesPerChunk()) + chunkBytes();
    }

    static String mib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}
