package io.commitflow.gpu;

/**
 * A matrix of unit vectors (rows) in groups, answering batched top-k cosine queries within a group. commitflow
 * keeps one engine per task and one group per repository, so that a batch of queries from many repositories is one
 * matrix product. Rows live in slots; a removed row's slot is reused.
 *
 * <p>Order is total and the same on every implementation: higher score first, then lower slot. Implementations:
 * {@link CpuEngine}; a CUDA engine (issue 5) must return the same slots, with scores within 1e-3.
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

    /** Stores {@code vector} (length {@link #dimension()}, L2-normalised) in {@code group}; returns its slot. */
    int add(int group, float[] vector);

    /** Frees a slot; its row no longer answers queries. */
    void remove(int slot);

    /** For each query, the top {@code k} rows of the query's group. */
    Neighbors[] search(int[] groups, float[][] queries, int k);

    @Override
    void close();
}
