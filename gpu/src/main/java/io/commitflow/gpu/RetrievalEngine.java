package io.commitflow.gpu;

/**
 * A matrix of unit vectors (rows) in groups, answering batched top-k cosine queries within a group. commitflow
 * keeps one engine per task and one group per repository, so that a batch of queries from many repositories is one
 * matrix product. Rows live in slots; a removed row's slot is reused.
 *
 * <p>Order is total and the same on every implementation: higher score first, then lower slot. Implementations:
 * {@link CpuEngine} and {@link CudaEngine}, which return the same slots with bit-identical scores.
 *
 * <pre>{@code
 * try (RetrievalEngine e = new CpuEngine(1024)) {
 *     int slot = e.add(repoGroup, unitVector);
 *     Neighbors[] nn = e.search(new int[] {repoGroup}, new float[][] {query}, 10);
 * }
 * }</pre>
 */
public interface RetrievalEngine extends AutoCloseable {
    /** {@code cpu} or {@code cuda}. */
    String name();

    int dimension();

    /** Live rows. */
    int size();

    /**
     * The most rows the engine holds at once, or {@link Long#MAX_VALUE} where only the heap limits it (the CPU
     * engine).
     */
    default long capacity() {
        return Long.MAX_VALUE;
    }

    /**
     * Stores {@code vector} (length {@link #dimension()}, L2-normalised) in {@code group} with a {@code stamp} (the
     * job uses the row's running number in its repository); returns its slot. Slots are allocated the same way by
     * every implementation: the most recently freed slot first (last in, first out), else the next new one.
     *
     * <p>An engine with a limited {@link #capacity()} throws {@link EngineFullException} when it already holds that
     * many rows. The engine is then unchanged: no slot is taken and {@link #size()} is the same; adds of other rows
     * fail alike until rows are removed, while {@link #remove} and {@link #search} keep working.
     */
    int add(int group, long stamp, float[] vector);

    /** {@link #add(int, long, float[])} with stamp 0. */
    default int add(int group, float[] vector) {
        return add(group, 0, vector);
    }

    /** Frees a slot; its row no longer answers queries. */
    void remove(int slot);

    /**
     * For each query {@code q}, the top {@code k} rows of group {@code groups[q]} whose stamp lies in
     * {@code [from[q], to[q])}. The window is what makes an answer reproducible while rows keep arriving: a request
     * replayed after a failover sees exactly the rows it saw the first time. {@code tier} is the caller's priority
     * (a CUDA engine runs each tier on its own prioritised stream; the CPU engine ignores it). Searches may run
     * concurrently with each other; {@link #add} and {@link #remove} must not run concurrently with anything.
     */
    Neighbors[] search(Tier tier, int[] groups, long[] from, long[] to, float[][] queries, int k);

    /** For each query, the top {@code k} rows of the query's group, whatever their stamps. */
    default Neighbors[] search(int[] groups, float[][] queries, int k) {
        long[] from = new long[groups.length];
        long[] to = new long[groups.length];
        java.util.Arrays.fill(from, Long.MIN_VALUE);
        java.util.Arrays.fill(to, Long.MAX_VALUE);
        return search(Tier.SILVER, groups, from, to, queries, k);
    }

    @Override
    void close();
}
