package io.commitflow.gpu;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The probe's test launch, on the simulated device: it passes, fails with the reason, and frees what it took. */
class KernelCheckTest {
    @Test
    void passesOnADeviceWhoseTopkAnswersRightAndLeavesNothingBehind() {
        FakeGpu gpu = new FakeGpu();
        KernelCheck.run(gpu);
        assertThat(gpu.launches).isEqualTo(1);
        assertLeftNothing(gpu);
    }

    @Test
    void failsWithTheCudaErrorWhenTheLaunchFails() {
        FakeGpu gpu = new FakeGpu();
        gpu.failSynchronize = "CUDA_ERROR_LAUNCH_FAILED";
        assertThatThrownBy(() -> KernelCheck.run(gpu)).isInstanceOf(GpuException.class)
                .hasMessageContaining("CUDA_ERROR_LAUNCH_FAILED");
        assertLeftNothing(gpu);
    }

    @Test
    void failsWhenTheKernelRunsButAnswersWrong() {
        FakeGpu gpu = new FakeGpu();
        gpu.wrongTopk = true;
        assertThatThrownBy(() -> KernelCheck.run(gpu)).isInstanceOf(GpuException.class)
                .hasMessageContaining("test launch answered slots [0, 0]").hasMessageContaining("instead of [2, 0]");
        assertLeftNothing(gpu);
    }

    private static void assertLeftNothing(FakeGpu gpu) {
        assertThat(gpu.liveMem).as("device buffers").isZero();
        assertThat(gpu.livePinned).as("pinned buffers").isZero();
        assertThat(gpu.liveStreams).as("streams").isZero();
    }
}
