package io.commitflow.gpu;

/** A CUDA engine on the simulated device ({@link FakeGpu}), for tests outside this package. */
public final class SimulatedCuda {
    private SimulatedCuda() {
    }

    /** A CUDA engine of {@code dim} floats per row on a new simulated device, with the default sizes but chunks. */
    public static CudaEngine engine(int dim, long budgetBytes, int chunkRows) {
        return new CudaEngine(new FakeGpu(), dim, CudaEngine.Options.of(budgetBytes).withChunkRows(chunkRows));
    }

    /** What the probe reports for an H200 (memory clock 3,201 MHz on a 6,144-bit bus: 4,916.7 GB/s). */
    public static EngineChoice h200() {
        return EngineChoice.available("NVIDIA H200 (simulated)", 1, 150_000_000_000L, 9, 0, 3_201_000, 6144, 13_000);
    }
}
