package io.commitflow.gpu;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A sticky device error loses the engine once and for all; any other failure passes through to be retried. */
class LosableEngineTest {
    private static final int DIM = 8;

    /** A CPU engine whose next calls fail with {@code error} while {@code failures} is positive. */
    private static RetrievalEngine failing(AtomicInteger failures, AtomicInteger calls, String error) {
        CpuEngine cpu = new CpuEngine(DIM);
        return new RetrievalEngine() {
            private void maybeFail() {
                calls.incrementAndGet();
                if (failures.getAndDecrement() > 0) {
                    throw new GpuException("a search on the gold stream failed",
                            new GpuException("cuStreamSynchronize failed: " + error));
                }
            }

            @Override public String name() { return "cuda"; }
            @Override public int dimension() { return DIM; }
            @Override public int size() { return cpu.size(); }
            @Override public int add(int group, long stamp, float[] v) { maybeFail(); return cpu.add(group, stamp, v); }
            @Override public void remove(int slot) { maybeFail(); cpu.remove(slot); }
            @Override public Neighbors[] search(Tier t, int[] g, long[] f, long[] to, float[][] q, int k) {
                maybeFail();
                return cpu.search(t, g, f, to, q, k);
            }
            @Override public void close() { cpu.close(); }
        };
    }

    private static float[] axis(int i) {
        float[] v = new float[DIM];
        v[i] = 1;
        return v;
    }

    @Test
    void namesTheStickyErrorsAndOnlyThose() {
        assertThat(GpuException.sticky(new GpuException("x", new GpuException("cuLaunchKernel: CUDA_ERROR_ILLEGAL_ADDRESS"))))
                .isEqualTo("CUDA_ERROR_ILLEGAL_ADDRESS");
        assertThat(GpuException.sticky(new IllegalStateException("CUDA_ERROR_LAUNCH_FAILED (injected)")))
                .isEqualTo("CUDA_ERROR_LAUNCH_FAILED");
        assertThat(GpuException.sticky(new GpuException("CUDA_ERROR_OUT_OF_MEMORY"))).isNull();
        assertThat(GpuException.sticky(new GpuException("CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"))).isNull();
        assertThat(GpuException.sticky(new GpuException("CUDA_ERROR_LAUNCH_TIMEOUT_X"))).isNull();
    }

    @Test
    void aNonStickyFailurePassesThroughAndTheEngineStays() {
        AtomicInteger failures = new AtomicInteger();
        AtomicInteger calls = new AtomicInteger();
        try (LosableEngine e = new LosableEngine(failing(failures, calls, "CUDA_ERROR_OUT_OF_MEMORY"))) {
            e.add(0, axis(1));
            failures.set(1);
            assertThatThrownBy(() -> e.search(new int[] {0}, new float[][] {axis(1)}, 1))
                    .isInstanceOf(GpuException.class).isNotInstanceOf(EngineLostException.class);
            assertThat(e.lost()).isNull();
            assertThat(e.search(new int[] {0}, new float[][] {axis(1)}, 1)[0].slots()).containsExactly(0);
        }
    }

    @Test
    void aStickyFailureLosesTheEngineAndNothingReachesTheDeviceAgain() {
        AtomicInteger failures = new AtomicInteger();
        AtomicInteger calls = new AtomicInteger();
        try (LosableEngine e = new LosableEngine(failing(failures, calls, "CUDA_ERROR_ILLEGAL_ADDRESS"))) {
            int slot = e.add(0, axis(1));
            failures.set(1);
            assertThatThrownBy(() -> e.search(new int[] {0}, new float[][] {axis(1)}, 1))
                    .isInstanceOf(EngineLostException.class).hasMessageContaining("CUDA_ERROR_ILLEGAL_ADDRESS");
            assertThat(e.lost()).isEqualTo("CUDA_ERROR_ILLEGAL_ADDRESS");
            int before = calls.get();

            assertThatThrownBy(() -> e.search(new int[] {0}, new float[][] {axis(1)}, 1)).isInstanceOf(EngineLostException.class);
            assertThatThrownBy(() -> e.add(0, axis(2))).as("repositories leave the engine as when it is full")
                    .isInstanceOf(EngineFullException.class).hasMessageContaining("lost");
            e.remove(slot);
            assertThat(calls.get()).as("no call reaches the lost device").isEqualTo(before);
        }
    }

    @Test
    void aStickyFailureOnAnAddBecomesAFullEngine() {
        AtomicInteger failures = new AtomicInteger(1);
        AtomicInteger calls = new AtomicInteger();
        try (LosableEngine e = new LosableEngine(failing(failures, calls, "CUDA_ERROR_LAUNCH_FAILED"))) {
            assertThatThrownBy(() -> e.add(0, axis(1))).isInstanceOf(EngineFullException.class);
            assertThat(e.lost()).isEqualTo("CUDA_ERROR_LAUNCH_FAILED");
        }
    }
}
