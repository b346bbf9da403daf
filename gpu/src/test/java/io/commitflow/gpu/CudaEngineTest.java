package io.commitflow.gpu;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The CUDA engine's bookkeeping on a simulated device ({@link FakeGpu}): no GPU needed. */
class CudaEngineTest {
    private static final int DIM = 8;

    private static CudaEngine.Options options(long budget) {
        return new CudaEngine.Options(budget, 16, 4, 3);
    }

    private static CudaEngine engine(FakeGpu gpu) {
        return new CudaEngine(gpu, DIM, options(1L << 20));
    }

    @Test
    void mapsTierLevelsToThreeOrderedStreamPriorities() {
        // the usual range: least 0, greatest -5 (lower is more urgent)
        assertThat(CudaEngine.streamPriority(Tier.GOLD.cudaLevel, 0, -5)).isEqualTo(-2);
        assertThat(CudaEngine.streamPriority(Tier.SILVER.cudaLevel, 0, -5)).isEqualTo(-1);
        assertThat(CudaEngine.streamPriority(Tier.BRONZE.cudaLevel, 0, -5)).isEqualTo(0);
        // narrow ranges clamp: gold and silver share the greatest
        assertThat(CudaEngine.streamPriority(Tier.GOLD.cudaLevel, 0, -1)).isEqualTo(-1);
        assertThat(CudaEngine.streamPriority(Tier.SILVER.cudaLevel, 0, -1)).isEqualTo(-1);
        assertThat(CudaEngine.streamPriority(Tier.BRONZE.cudaLevel, 0, -1)).isEqualTo(0);
        assertThat(CudaEngine.streamPriority(Tier.GOLD.cudaLevel, 0, 0)).isZero();
        // a range that does not start at 0
        assertThat(CudaEngine.streamPriority(Tier.GOLD.cudaLevel, 3, -2)).isEqualTo(1);
        assertThat(CudaEngine.streamPriority(Tier.BRONZE.cudaLevel, 3, -2)).isEqualTo(3);
    }

    @Test
    void createsOneStreamPerTierAtItsPriority() {
        FakeGpu gpu = new FakeGpu(0, -5);
        try (CudaEngine e = engine(gpu)) {
            assertThat(e.streamPriorities()).containsEntry(Tier.GOLD, -2).containsEntry(Tier.SILVER, -1)
                    .containsEntry(Tier.BRONZE, 0);
            assertThat(gpu.liveStreams).as("three tiers and the upload stream").isEqualTo(4);
        }
    }

    @Test
    void splitsTheBudgetIntoScratchAndChunks() {
        DeviceBudget b = new DeviceBudget(1024, 65_536, 256, 8L << 30);
        assertThat(b.chunkBytes()).isEqualTo(65_536L * 4108);
        assertThat(b.laneFixedBytes()).isEqualTo(256L * 1024 * 4 + 256 * 20 + 256L * 65_536 * 4 + 256 * 64 * 8);
        assertThat(b.maxChunks()).isEqualTo(31);
        assertThat(b.maxRows()).isEqualTo(2_031_616);
        assertThat(3 * b.laneBytes() + b.maxChunks() * b.chunkBytes()).isLessThanOrEqualTo(8L << 30);
        assertThat(new DeviceBudget(1024, 65_536, 256, b.minimumBytes()).maxChunks()).isEqualTo(1);
        assertThat(new DeviceBudget(1024, 65_536, 256, b.minimumBytes() - 1).maxChunks()).isZero();
        assertThat(new DeviceBudget(1024, 65_536, 256, 100).maxChunks()).isZero();
    }

    @Test
    void refusesABudgetTooSmallForOneChunk() {
        FakeGpu gpu = new FakeGpu();
        assertThatThrownBy(() -> new CudaEngine(gpu, 1024, CudaEngine.Options.of(100L << 20)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("device budget of 100.0 MiB").hasMessageContaining("needs at least");
        assertThat(gpu.closed).as("the device is let go").isTrue();
    }

    @Test
    void staysWithinItsBudgetAndSaysWhenItIsFull() {
        FakeGpu gpu = new FakeGpu();
        DeviceBudget b = new DeviceBudget(DIM, 16, 4, 0);
        long budget = 3 * b.laneFixedBytes() + 5 * (b.chunkBytes() + 3 * b.candidateBytesPerChunk()) + 100;
        Random r = new Random(1);
        try (CudaEngine e = new CudaEngine(gpu, DIM, options(budget))) {
            assertThat(e.maxRows()).isEqualTo(5 * 16);
            for (int i = 0; i < 80; i++) {
                e.add(0, i, ParityFixture.unit(r, DIM));
            }
            for (Tier t : Tier.values()) {
                e.search(t, new int[] {0}, new long[] {0}, new long[] {100}, new float[][] {ParityFixture.unit(r, DIM)}, 3);
            }
            assertThat(gpu.peak).as("device bytes at the peak").isLessThanOrEqualTo(budget);
            assertThat(e.capacity()).isEqualTo(e.maxRows());
            assertThatThrownBy(() -> e.add(0, 80, ParityFixture.unit(r, DIM)))
                    .isInstanceOf(EngineFullException.class)
                    .hasMessageContaining("device memory budget of")
                    .hasMessageContaining("is full at 80 rows")
                    .hasMessageContaining("use the CPU engine");
            assertThat(e.size()).as("the failed add changed nothing").isEqualTo(80);
            e.remove(17);
            assertThat(e.add(0, 81, ParityFixture.unit(r, DIM))).as("a freed slot still takes a row").isEqualTo(17);
        }
    }

    @Test
    void aFullEngineRefusesARowChangesNothingAndTakesRowsAgainOnceOneIsRemoved() {
        FakeGpu gpu = new FakeGpu();
        DeviceBudget b = new DeviceBudget(DIM, 16, 4, 0);
        long budget = 3 * b.laneFixedBytes() + 2 * (b.chunkBytes() + 3 * b.candidateBytesPerChunk());
        Random r = new Random(9);
        int[] groups = {0, 1, 0, 1};
        long[] from = {Long.MIN_VALUE, Long.MIN_VALUE, 10, 0};
        long[] to = {Long.MAX_VALUE, Long.MAX_VALUE, 20, 7};
        float[][] q = {ParityFixture.unit(r, DIM), ParityFixture.unit(r, DIM), ParityFixture.unit(r, DIM),
                ParityFixture.unit(r, DIM)};
        try (CudaEngine e = new CudaEngine(gpu, DIM, options(budget)); CpuEngine cpu = new CpuEngine(DIM)) {
            assertThat(e.capacity()).as("two chunks of 16 rows").isEqualTo(32);
            assertThat(cpu.capacity()).as("no limit").isEqualTo(Long.MAX_VALUE);
            for (int i = 0; i < 32; i++) {
                float[] v = ParityFixture.unit(r, DIM);
                assertThat(e.add(i % 2, i, v)).isEqualTo(cpu.add(i % 2, i, v));
            }
            Neighbors[] before = e.search(Tier.SILVER, groups, from, to, q, 5);
            assertThat(ParityFixture.assertSame("full", cpu.search(Tier.SILVER, groups, from, to, q, 5), before))
                    .isZero();
            int buffers = gpu.liveMem;
            long bytes = gpu.allocated;

            for (int attempt = 0; attempt < 2; attempt++) {
                assertThatThrownBy(() -> e.add(0, 99, ParityFixture.unit(r, DIM)))
                        .isInstanceOf(EngineFullException.class)
                        .hasMessageContaining("is full at 32 rows")
                        .hasMessageContaining("raise the device memory budget or use the CPU engine");
            }
            assertThat(e.size()).as("no row taken").isEqualTo(32);
            assertThat(gpu.liveMem).as("no chunk allocated").isEqualTo(buffers);
            assertThat(gpu.allocated).isEqualTo(bytes);
            assertThat(ParityFixture.assertSame("after the refused adds", before,
                    e.search(Tier.SILVER, groups, from, to, q, 5))).isZero();

            e.remove(5);
            cpu.remove(5);
            assertThat(e.size()).isEqualTo(31);
            ParityFixture.assertSame("after a removal", cpu.search(Tier.GOLD, groups, from, to, q, 5),
                    e.search(Tier.GOLD, groups, from, to, q, 5));
            float[] v = ParityFixture.unit(r, DIM);
            assertThat(e.add(1, 3, v)).as("the freed slot").isEqualTo(5).isEqualTo(cpu.add(1, 3, v));
            assertThat(e.size()).isEqualTo(32);
            // full again, this time with the new row still staged, not yet on the device
            assertThatThrownBy(() -> e.add(1, 100, ParityFixture.unit(r, DIM))).isInstanceOf(EngineFullException.class);
            assertThat(e.size()).isEqualTo(32);
            ParityFixture.assertSame("full again", cpu.search(Tier.BRONZE, groups, from, to, q, 5),
                    e.search(Tier.BRONZE, groups, from, to, q, 5));
        }
    }

    @Test
    void validatesArgumentsLikeTheCpuEngine() {
        try (CudaEngine e = engine(new FakeGpu())) {
            assertThatThrownBy(() -> e.add(0, new float[3])).hasMessageContaining("3 dimensions");
            assertThatThrownBy(() -> e.search(new int[] {0}, new float[][] {new float[5]}, 1))
                    .hasMessageContaining("5 dimensions");
            assertThatThrownBy(() -> e.search(Tier.GOLD, new int[] {0}, new long[0], new long[1],
                    new float[][] {new float[DIM]}, 1)).hasMessageContaining("stamp bounds for 1 queries");
            assertThatThrownBy(() -> e.remove(0)).hasMessageContaining("no row");
            e.add(0, new float[DIM]);
            assertThatThrownBy(() -> e.search(new int[] {0}, new float[][] {new float[DIM]}, 65))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k = 65")
                    .hasMessageContaining("64");
            assertThat(e.search(new int[] {0}, new float[][] {new float[DIM]}, 0)[0].size()).as("k 0").isZero();
            assertThat(e.search(new int[] {0}, new float[][] {new float[DIM]}, 64)[0].size()).as("k 64").isEqualTo(1);
            assertThat(e.search(new int[0], new float[0][], 5)).isEmpty();
        }
        assertThatThrownBy(() -> new CudaEngine(new FakeGpu(), 0, options(1L << 20))).hasMessageContaining("dimension");
        assertThatThrownBy(() -> new CudaEngine.Options(0, 1, 1, 1)).hasMessageContaining("must be positive");
    }

    @Test
    void answersFromAnEmptyEngine() {
        try (CudaEngine e = engine(new FakeGpu())) {
            assertThat(e.search(new int[] {0, 1}, new float[][] {new float[DIM], new float[DIM]}, 3))
                    .allSatisfy(n -> assertThat(n.size()).isZero());
        }
    }

    @Test
    void uploadsStagedRowsWhenTheStagingBufferFills() {
        FakeGpu gpu = new FakeGpu();
        Random r = new Random(2);
        try (CudaEngine e = engine(gpu); CpuEngine cpu = new CpuEngine(DIM)) {
            // staging holds 3 rows: 50 adds upload 16 times before the first search; chunks hold 16 rows
            for (int i = 0; i < 50; i++) {
                float[] v = ParityFixture.unit(r, DIM);
                assertThat(e.add(i % 2, i, v)).isEqualTo(cpu.add(i % 2, i, v));
            }
            float[][] q = {ParityFixture.unit(r, DIM), ParityFixture.unit(r, DIM)};
            ParityFixture.assertSame("after staging overflow", cpu.search(new int[] {0, 1}, q, 30),
                    e.search(new int[] {0, 1}, q, 30));
        }
    }

    @Test
    void splitsASmallBatchsTopkOverSeveralBlocksPerQuery() {
        // about as many top-k blocks per chunk at every batch size, none with fewer than 1,024 entries
        assertThat(CudaEngine.topkParts(1, 65_536, 256)).isEqualTo(64);
        assertThat(CudaEngine.topkParts(8, 65_536, 256)).isEqualTo(32);
        assertThat(CudaEngine.topkParts(32, 65_536, 256)).isEqualTo(8);
        assertThat(CudaEngine.topkParts(256, 65_536, 256)).isEqualTo(1);
        assertThat(CudaEngine.topkParts(100, 65_536, 256)).isEqualTo(2);
        assertThat(CudaEngine.topkParts(1, 3_000, 256)).isEqualTo(3);
        assertThat(CudaEngine.topkParts(1, 10, 256)).isEqualTo(1);
        assertThat(CudaEngine.topkParts(1, 65_536, 1)).as("a batch of one query per pass").isEqualTo(1);
    }

    @Test
    void splitsASmallBatchsWholeScoreMatrixOverAboutAsManyBlocks() {
        long room = 256L * 15 * CudaEngine.MAX_K; // a full lane's candidate room at 15 chunks
        assertThat(CudaEngine.wholeTopkParts(1, 1_000_000, 10, room)).isEqualTo(256);
        assertThat(CudaEngine.wholeTopkParts(8, 1_000_000, 64, room)).isEqualTo(32);
        assertThat(CudaEngine.wholeTopkParts(1, 3_000, 10, room)).as("1,024 entries or more per part").isEqualTo(3);
        assertThat(CudaEngine.wholeTopkParts(1, 10, 10, room)).isEqualTo(1);
        assertThat(CudaEngine.wholeTopkParts(1, 1_000_000, 64, 4 * 64)).as("no more candidates than room").isEqualTo(4);
        assertThat(CudaEngine.wholeTopkParts(4, 1_000_000, 64, 4 * 64)).isEqualTo(1);
    }

    @Test
    void picksTheSmallBatchPathByNameOrSystemProperty() {
        assertThat(CudaEngine.SmallBatchPath.parse(" Narrow")).isEqualTo(CudaEngine.SmallBatchPath.NARROW);
        assertThat(CudaEngine.SmallBatchPath.parse("few")).isEqualTo(CudaEngine.SmallBatchPath.FEW);
        assertThatThrownBy(() -> CudaEngine.SmallBatchPath.parse("tiled")).hasMessageContaining("few or narrow");
        String before = System.getProperty(CudaEngine.SMALL_BATCH_PATH_PROPERTY);
        try {
            System.clearProperty(CudaEngine.SMALL_BATCH_PATH_PROPERTY);
            assertThat(CudaEngine.Options.of(1L << 30).smallBatchPath()).as("the default")
                    .isEqualTo(CudaEngine.SmallBatchPath.FEW);
            System.setProperty(CudaEngine.SMALL_BATCH_PATH_PROPERTY, "narrow");
            assertThat(CudaEngine.Options.of(1L << 30).smallBatchPath()).isEqualTo(CudaEngine.SmallBatchPath.NARROW);
        } finally {
            if (before == null) {
                System.clearProperty(CudaEngine.SMALL_BATCH_PATH_PROPERTY);
            } else {
                System.setProperty(CudaEngine.SMALL_BATCH_PATH_PROPERTY, before);
            }
        }
        try (CudaEngine e = new CudaEngine(new FakeGpu(), DIM,
                options(1L << 20).withSmallBatchPath(CudaEngine.SmallBatchPath.NARROW))) {
            assertThat(e.smallBatchPath()).isEqualTo(CudaEngine.SmallBatchPath.NARROW);
            e.smallBatchPath(CudaEngine.SmallBatchPath.FEW);
            assertThat(e.smallBatchPath()).isEqualTo(CudaEngine.SmallBatchPath.FEW);
        }
    }

    @Test
    void aSplitTopkAnswersAsTheCpuEngineOnBothSmallBatchPaths() {
        // chunks of 4,096 rows, passes of 4 queries: on the narrow path a batch of one takes 4 parts per chunk, a
        // batch of 3 one; on the few path a batch of one selects from all 3 chunks' scores at once (8 parts), a batch
        // of 3 (9 chunk-queries, more than the 4 a pass has room for) per chunk. The last chunk has 3 rows, so one of
        // its parts has none, and duplicate rows of group 1 tie across parts and chunks.
        for (CudaEngine.SmallBatchPath path : CudaEngine.SmallBatchPath.values()) {
            FakeGpu gpu = new FakeGpu();
            Random r = new Random(21);
            try (CudaEngine e = new CudaEngine(gpu, DIM,
                    new CudaEngine.Options(1L << 24, 4096, 4, 64).withSmallBatchPath(path));
                 CpuEngine cpu = new CpuEngine(DIM)) {
                float[] dup = ParityFixture.unit(r, DIM);
                for (int i = 0; i < 8_195; i++) {
                    float[] v = i % 1_500 == 1 || i == 8_194 ? dup : ParityFixture.unit(r, DIM);
                    assertThat(e.add(i % 3, i, v)).isEqualTo(cpu.add(i % 3, i, v));
                }
                float[][] one = {dup};
                float[][] three = {dup, ParityFixture.unit(r, DIM), ParityFixture.unit(r, DIM)};
                int before = gpu.launches;
                Neighbors[] got = e.search(Tier.GOLD, new int[] {1}, new long[] {0}, new long[] {8_195}, one, 12);
                if (path == CudaEngine.SmallBatchPath.NARROW) {
                    assertThat(gpu.launches - before).as("score and topk per chunk, one merge").isEqualTo(3 * 2 + 1);
                } else {
                    assertThat(gpu.launches - before).as("score per chunk, one topk, one merge").isEqualTo(3 + 1 + 1);
                }
                ParityFixture.assertSame(path + ": one query over 3 chunks",
                        cpu.search(Tier.GOLD, new int[] {1}, new long[] {0}, new long[] {8_195}, one, 12), got);
                assertThat(got[0].slots()).as("the duplicates, in slot order")
                        .startsWith(1, 1_501, 3_001, 4_501, 6_001, 7_501, 8_194);
                before = gpu.launches;
                ParityFixture.assertSame(path + ": three queries", cpu.search(new int[] {1, 0, 2}, three, 64),
                        e.search(new int[] {1, 0, 2}, three, 64));
                assertThat(gpu.launches - before).as("score and topk per chunk, one merge").isEqualTo(3 * 2 + 1);
            }
        }
    }

    @Test
    void aSlotFreedAndTakenAgainBeforeASearchHoldsTheNewRow() {
        try (CudaEngine e = engine(new FakeGpu())) {
            int a = e.add(3, 1, unitAxis(0));
            e.remove(a);
            assertThat(e.add(3, 2, unitAxis(1))).isEqualTo(a);
            Neighbors n = e.search(new int[] {3}, new float[][] {unitAxis(1)}, 5)[0];
            assertThat(n.slots()).containsExactly(a);
            assertThat(n.scores()).containsExactly(1f);
            e.remove(a);
            assertThat(e.search(new int[] {3}, new float[][] {unitAxis(1)}, 5)[0].size()).isZero();
        }
    }

    @Test
    void hidesRowsStampedWithTheLargestLongAsTheCpuEngineDoes() {
        try (CudaEngine e = engine(new FakeGpu()); CpuEngine cpu = new CpuEngine(DIM)) {
            for (RetrievalEngine x : new RetrievalEngine[] {e, cpu}) {
                x.add(1, Long.MAX_VALUE, unitAxis(0));
                x.add(1, Long.MAX_VALUE - 1, unitAxis(0));
            }
            ParityFixture.assertSame("stamp Long.MAX_VALUE", cpu.search(new int[] {1}, new float[][] {unitAxis(0)}, 5),
                    e.search(new int[] {1}, new float[][] {unitAxis(0)}, 5));
            assertThat(e.search(new int[] {1}, new float[][] {unitAxis(0)}, 5)[0].slots()).containsExactly(1);
        }
    }

    @Test
    void releasesEverythingOnCloseAndRefusesWorkAfterwards() {
        FakeGpu gpu = new FakeGpu();
        CudaEngine e = engine(gpu);
        Random r = new Random(4);
        for (int i = 0; i < 40; i++) {
            e.add(0, i, ParityFixture.unit(r, DIM));
        }
        for (Tier t : Tier.values()) {
            e.search(t, new int[] {0}, new long[] {0}, new long[] {40}, new float[][] {ParityFixture.unit(r, DIM)}, 2);
        }
        e.close();
        e.close();
        assertThat(gpu.closed).isTrue();
        assertThat(gpu.liveMem).as("device buffers").isZero();
        assertThat(gpu.livePinned).as("pinned buffers").isZero();
        assertThat(gpu.liveStreams).as("streams").isZero();
        assertThat(gpu.allocated).isZero();
        assertThatThrownBy(() -> e.add(0, new float[DIM])).hasMessageContaining("closed");
        assertThatThrownBy(() -> e.search(new int[] {0}, new float[][] {new float[DIM]}, 1)).hasMessageContaining("closed");
    }

    @Test
    void releasesWhatItHadWhenConstructionFails() {
        FakeGpu gpu = new FakeGpu();
        gpu.failAllocation = 1; // the staging buffer
        assertThatThrownBy(() -> engine(gpu)).isInstanceOf(GpuException.class).hasMessageContaining("OUT_OF_MEMORY");
        assertThat(gpu.closed).isTrue();
        assertThat(gpu.liveStreams).isZero();
        assertThat(gpu.livePinned).isZero();
    }

    @Test
    void aChunkThatFailsToAllocateLeavesNothingBehind() {
        FakeGpu gpu = new FakeGpu();
        try (CudaEngine e = engine(gpu)) {
            gpu.failAllocation = 3; // the chunk's stamps
            assertThatThrownBy(() -> e.add(0, new float[DIM])).isInstanceOf(GpuException.class);
            assertThat(gpu.liveMem).isZero();
            assertThat(e.size()).isZero();
            assertThat(e.add(0, unitAxis(2))).as("the next add works and takes slot 0").isZero();
        }
    }

    @Test
    void aSearchWhoseScratchFailsToAllocateFreesWhatItTookAtEveryStep() {
        Random r = new Random(12);
        float[] row = ParityFixture.unit(r, DIM);
        int steps = 0;
        for (int step = 1; ; step++) {
            FakeGpu gpu = new FakeGpu();
            try (CudaEngine e = engine(gpu)) {
                e.add(0, row);
                e.search(new int[] {0}, new float[][] {row}, 1); // rows reach the device: only the lane is left
                int mem = gpu.liveMem;
                int pinned = gpu.livePinned;
                long bytes = gpu.allocated;
                // another tier's lane allocates on its first search: fail its step-th allocation
                gpu.failAllocation = step;
                try {
                    e.search(Tier.BRONZE, new int[] {0}, new long[] {0}, new long[] {Long.MAX_VALUE},
                            new float[][] {row}, 1);
                } catch (GpuException failed) {
                    assertThat(failed).hasMessageContaining("OUT_OF_MEMORY");
                    assertThat(gpu.liveMem).as("device buffers after a failure at step %d", step).isEqualTo(mem);
                    assertThat(gpu.livePinned).as("pinned buffers after a failure at step %d", step).isEqualTo(pinned);
                    assertThat(gpu.allocated).as("device bytes after a failure at step %d", step).isEqualTo(bytes);
                    Neighbors again = e.search(Tier.BRONZE, new int[] {0}, new long[] {0},
                            new long[] {Long.MAX_VALUE}, new float[][] {row}, 1)[0];
                    assertThat(again.slots()).as("the next search allocates afresh and answers").containsExactly(0);
                    steps++;
                    continue;
                }
                gpu.failAllocation = 0;
                break; // the lane needed fewer allocations than step: every step has been failed once
            }
        }
        assertThat(steps).as("allocations of a lane, each failed once").isGreaterThan(10);
    }

    @Test
    void aSearchWaitsOnTheHostForItsOwnStreamOnly() {
        FakeGpu gpu = new FakeGpu(); // priorities: least 0, greatest -5; gold -2, silver -1, bronze 0
        Random r = new Random(13);
        try (CudaEngine e = engine(gpu); CpuEngine cpu = new CpuEngine(DIM)) {
            for (Tier t : new Tier[] {Tier.GOLD, Tier.BRONZE, Tier.SILVER}) {
                float[] v = ParityFixture.unit(r, DIM);
                assertThat(e.add(0, v)).isEqualTo(cpu.add(0, v)); // staged on the host until a search needs it
                int before = gpu.hostWaits.size();
                float[][] q = {v};
                ParityFixture.assertSame(t + " search right after an add", cpu.search(t, new int[] {0},
                                new long[] {Long.MIN_VALUE}, new long[] {Long.MAX_VALUE}, q, 3),
                        e.search(t, new int[] {0}, new long[] {Long.MIN_VALUE}, new long[] {Long.MAX_VALUE}, q, 3));
                assertThat(gpu.hostWaits.subList(before, gpu.hostWaits.size())).as("host waits of a %s search", t)
                        .containsExactly("stream " + CudaEngine.streamPriority(t.cudaLevel, 0, -5));
            }
        }
    }

    @Test
    void aGoldSearchFinishesWhileABronzeSearchIsStillRunning() throws Exception {
        FakeGpu gpu = new FakeGpu();
        Random r = new Random(14);
        java.util.concurrent.CountDownLatch bronzeRunning = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch bronzeMayFinish = new java.util.concurrent.CountDownLatch(1);
        int bronze = CudaEngine.streamPriority(Tier.BRONZE.cudaLevel, 0, -5);
        try (CudaEngine e = engine(gpu); CpuEngine cpu = new CpuEngine(DIM)) {
            for (int i = 0; i < 20; i++) { // staged rows that both searches need, uploaded by the first
                float[] v = ParityFixture.unit(r, DIM);
                assertThat(e.add(0, v)).isEqualTo(cpu.add(0, v));
            }
            float[][] q = {ParityFixture.unit(r, DIM)};
            Neighbors[] want = cpu.search(new int[] {0}, q, 5);
            gpu.beforeStreamWait = p -> { // the bronze search's kernels run long
                if (p == bronze && bronzeRunning.getCount() > 0) {
                    bronzeRunning.countDown();
                    await(bronzeMayFinish);
                }
            };
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
            try {
                java.util.concurrent.Future<Neighbors[]> slow = pool.submit(() -> {
                    gpu.bind();
                    return e.search(Tier.BRONZE, new int[] {0}, new long[] {Long.MIN_VALUE},
                            new long[] {Long.MAX_VALUE}, q, 5);
                });
                assertThat(bronzeRunning.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                java.util.concurrent.Future<Neighbors[]> gold = java.util.concurrent.CompletableFuture.supplyAsync(
                        () -> e.search(Tier.GOLD, new int[] {0}, new long[] {Long.MIN_VALUE},
                                new long[] {Long.MAX_VALUE}, q, 5));
                ParityFixture.assertSame("gold, while bronze runs", want,
                        gold.get(10, java.util.concurrent.TimeUnit.SECONDS));
                assertThat(slow).as("bronze still running").isNotDone();
                bronzeMayFinish.countDown();
                ParityFixture.assertSame("bronze", want, slow.get(10, java.util.concurrent.TimeUnit.SECONDS));
            } finally {
                bronzeMayFinish.countDown();
                pool.shutdownNow();
            }
        }
    }

    private static void await(java.util.concurrent.CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void runsAPassPerBatchOfQueriesAndAScoreAndTopkPerChunk() {
        for (CudaEngine.SmallBatchPath path : CudaEngine.SmallBatchPath.values()) {
            FakeGpu gpu = new FakeGpu();
            Random r = new Random(6);
            try (CudaEngine e = new CudaEngine(gpu, DIM, options(1L << 20).withSmallBatchPath(path))) {
                for (int i = 0; i < 40; i++) { // 3 chunks of 16
                    e.add(0, ParityFixture.unit(r, DIM));
                }
                int before = gpu.launches;
                e.search(new int[9], new float[9][DIM], 2); // 3 passes of at most 4 queries
                // per pass: a score and a topk launch per chunk, one merge; on the few path, the last pass's single
                // query has room for all 3 chunks' scores at once: a score launch per chunk, one topk, one merge
                int launches = path == CudaEngine.SmallBatchPath.NARROW ? 3 * (3 * 2 + 1) : 2 * (3 * 2 + 1) + 3 + 2;
                assertThat(gpu.launches - before).as(path.label()).isEqualTo(launches);
            }
        }
    }

    @Test
    void makesTheContextCurrentOnEveryThreadThatUsesTheDevice() throws Exception {
        FakeGpu gpu = new FakeGpu(); // refuses device calls from threads that did not bind
        Random r = new Random(8);
        CudaEngine e = onThread(() -> engine(gpu));
        onThread(() -> {
            for (int i = 0; i < 40; i++) { // staging overflows, new chunks
                e.add(0, i, ParityFixture.unit(r, DIM));
            }
            return null;
        });
        Neighbors n = onThread(() -> e.search(new int[] {0}, new float[][] {ParityFixture.unit(r, DIM)}, 3)[0]);
        assertThat(n.size()).isEqualTo(3);
        onThread(() -> {
            e.add(0, 40, ParityFixture.unit(r, DIM));
            return null;
        });
        onThread(() -> {
            e.close();
            return null;
        });
        assertThat(gpu.liveMem).isZero();
    }

    private static <T> T onThread(java.util.concurrent.Callable<T> work) throws Exception {
        java.util.concurrent.ExecutorService one = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            return one.submit(work).get();
        } finally {
            one.shutdownNow();
        }
    }

    private static float[] unitAxis(int axis) {
        float[] v = new float[DIM];
        v[axis] = 1;
        return v;
    }
}
