package io.commitflow.gpu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The CUDA engine answers exactly as the CPU engine: same slots, same order, same scores. The CPU engine is checked
 * against brute force; the CUDA engine against the CPU engine on a simulated device (always) and on the GPU (where
 * {@link Engines#probe()} finds one; skipped elsewhere), on both {@link CudaEngine.SmallBatchPath small-batch paths}.
 */
class CudaParityTest {
    private static final int DIM = 40; // not a multiple of the kernels' 32-wide tiles

    /**
     * Small chunks and passes, so that a few thousand rows span several chunks and 300 queries several passes; a pass
     * of up to 8 queries has room for all chunks' scores at once (the few path's single top-k launch).
     */
    private static CudaEngine.Options smallOptions(CudaEngine.SmallBatchPath path) {
        return new CudaEngine.Options(64L << 20, 512, 128, 100, path);
    }

    /** Chunks of 64 rows and passes of 16 queries: too many chunks for one score matrix, so the top k is per chunk. */
    private static CudaEngine.Options tinyChunks(CudaEngine.SmallBatchPath path) {
        return new CudaEngine.Options(64L << 20, 64, 16, 100, path);
    }

    private static void assumeGpu() {
        EngineChoice c = Engines.probe();
        assumeTrue(c.cudaAvailable(), "no GPU here, so the CUDA comparison is skipped: " + c.reason());
    }

    @Test
    void cpuEngineMatchesBruteForce() {
        ParityFixture f = new ParityFixture(11, 3000, DIM);
        try (CpuEngine cpu = new CpuEngine(DIM)) {
            f.fill(cpu);
            List<ParityFixture.Batch> batches = f.batches();
            List<Neighbors[]> answers = new ArrayList<>();
            for (ParityFixture.Batch b : batches) {
                Neighbors[] got = ParityFixture.run(cpu, b);
                assertThat(ParityFixture.assertSame("cpu, " + b.name(), f.reference(b), got)).isZero();
                answers.add(got);
            }
            ParityFixture.assertInteresting(batches, answers);
        }
    }

    @ParameterizedTest(name = "{displayName}, {0} path")
    @EnumSource(CudaEngine.SmallBatchPath.class)
    void cudaEngineOnASimulatedDeviceMatchesTheCpuEngine(CudaEngine.SmallBatchPath path) {
        compare("a simulated device, " + path.label() + " path", new CudaEngine(new FakeGpu(), DIM, smallOptions(path)),
                12, 3000, DIM);
        compare("a simulated device, " + path.label() + " path, tiny chunks",
                new CudaEngine(new FakeGpu(), DIM, tinyChunks(path)), 15, 1000, DIM);
    }

    @ParameterizedTest(name = "{displayName}, {0} path")
    @EnumSource(CudaEngine.SmallBatchPath.class)
    void cudaEngineMatchesTheCpuEngine(CudaEngine.SmallBatchPath path) {
        assumeGpu();
        compare("the GPU, " + path.label() + " path", new CudaEngine(DIM, smallOptions(path)), 13, 3000, DIM);
        compare("the GPU, " + path.label() + " path, tiny chunks", new CudaEngine(DIM, tinyChunks(path)), 16, 3000,
                DIM);
        // a dimension that is not a multiple of 4: score_few's 4-byte row loads (at 40 it takes 16-byte ones)
        compare("the GPU, " + path.label() + " path, dim 37", new CudaEngine(37, smallOptions(path)), 17, 2000, 37);
    }

    @Test
    void cudaEngineMatchesTheCpuEngineAtFullWidthAndDefaultChunks() {
        assumeGpu();
        // 1024 floats per row (the job's width) and default 65,536-row chunks: 70,000 rows make two chunks; the same
        // batches on both small-batch paths of one engine
        ParityFixture f = new ParityFixture(14, 70_000, 1024);
        try (CpuEngine cpu = new CpuEngine(1024); CudaEngine cuda = new CudaEngine(1024, 2L << 30)) {
            f.fill(cpu, cuda);
            Random r = new Random(5);
            List<ParityFixture.Batch> batches = List.of(f.batch("1 query", r, 1, 10, Tier.GOLD),
                    f.batch("2 queries, k 64", r, 2, 64, Tier.SILVER), f.batch("3 queries", r, 3, 10, Tier.GOLD),
                    f.batch("8 queries", r, 8, 10, Tier.BRONZE), f.batch("32 queries", r, 32, 10, Tier.SILVER),
                    f.batch("9 queries, k 64", r, 9, 64, Tier.BRONZE));
            List<Neighbors[]> expected = new ArrayList<>();
            int scores = 0;
            for (ParityFixture.Batch b : batches) {
                expected.add(ParityFixture.run(cpu, b));
                for (Neighbors n : expected.get(expected.size() - 1)) {
                    scores += n.size();
                }
            }
            for (CudaEngine.SmallBatchPath path : CudaEngine.SmallBatchPath.values()) {
                cuda.smallBatchPath(path);
                int inexact = 0;
                for (int i = 0; i < batches.size(); i++) {
                    inexact += ParityFixture.assertSame("cuda, " + path.label() + " path, dim 1024, "
                            + batches.get(i).name(), expected.get(i), ParityFixture.run(cuda, batches.get(i)));
                }
                System.out.printf("CudaParityTest: on the GPU, %s path, dim 1024: %d of %d scores bit-identical to "
                        + "the CPU engine's%n", path.label(), scores - inexact, scores);
                assertThat(inexact).as("scores that are not bit-identical to the CPU engine's").isZero();
            }
        }
    }

    @Test
    void cudaEngineAnswersConcurrentSearchesOnAllTiers() throws Exception {
        assumeGpu();
        concurrent(new CudaEngine(DIM, smallOptions(CudaEngine.SmallBatchPath.FEW)));
    }

    @Test
    void cudaEngineOnASimulatedDeviceAnswersConcurrentSearchesOnAllTiers() throws Exception {
        concurrent(new CudaEngine(new FakeGpu(), DIM, smallOptions(CudaEngine.SmallBatchPath.FEW)));
    }

    private static void compare(String device, CudaEngine cuda, long seed, int rows, int dim) {
        ParityFixture f = new ParityFixture(seed, rows, dim);
        try (CpuEngine cpu = new CpuEngine(dim); cuda) {
            f.fill(cpu, cuda);
            int inexact = 0;
            int scores = 0;
            for (ParityFixture.Batch b : f.batches()) {
                Neighbors[] expected = ParityFixture.run(cpu, b);
                Neighbors[] actual = ParityFixture.run(cuda, b);
                inexact += ParityFixture.assertSame("cuda, " + b.name(), expected, actual);
                for (Neighbors n : expected) {
                    scores += n.size();
                }
            }
            System.out.printf("CudaParityTest: on %s, %d of %d scores bit-identical to the CPU engine's%n", device,
                    scores - inexact, scores);
            assertThat(inexact).as("scores that are not bit-identical to the CPU engine's").isZero();

            // rows removed after the first searches disappear from the next ones, on both engines alike
            f.removeEvery(3, 600, cpu, cuda);
            for (ParityFixture.Batch b : f.batches()) {
                Neighbors[] expected = f.reference(b);
                ParityFixture.assertSame("cpu after removals, " + b.name(), expected, ParityFixture.run(cpu, b));
                ParityFixture.assertSame("cuda after removals, " + b.name(), expected, ParityFixture.run(cuda, b));
            }
        }
    }

    /** Three threads, one per tier, searching at once, answer as one thread does. */
    private static void concurrent(CudaEngine cuda) throws Exception {
        ParityFixture f = new ParityFixture(21, 2000, DIM);
        try (cuda) {
            f.fill(cuda);
            Random r = new Random(3);
            List<ParityFixture.Batch> batches = new ArrayList<>();
            for (Tier t : Tier.values()) {
                batches.add(f.batch(t.label(), r, 50, 10, t));
            }
            List<Neighbors[]> alone = new ArrayList<>();
            for (ParityFixture.Batch b : batches) {
                alone.add(ParityFixture.run(cuda, b));
            }
            ExecutorService pool = Executors.newFixedThreadPool(3);
            try {
                for (int round = 0; round < 5; round++) {
                    List<Future<Neighbors[]>> futures = new ArrayList<>();
                    for (ParityFixture.Batch b : batches) {
                        futures.add(pool.submit(() -> ParityFixture.run(cuda, b)));
                    }
                    for (int i = 0; i < batches.size(); i++) {
                        ParityFixture.assertSame("concurrent " + batches.get(i).name(), alone.get(i), futures.get(i).get());
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
