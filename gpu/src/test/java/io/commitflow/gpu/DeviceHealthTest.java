package io.commitflow.gpu;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A sticky error keeps the device closed for the rest of the process, so a restarted task does not reopen it. */
class DeviceHealthTest {
    @AfterEach
    void forget() {
        DeviceHealth.resetForTests();
    }

    @Test
    void anErrorThatIsNotStickyLeavesTheDeviceUsable() {
        GpuException oom = new GpuException("cuMemAlloc(1024 bytes) failed: CUDA_ERROR_OUT_OF_MEMORY");
        assertThat(DeviceHealth.note(oom)).isSameAs(oom);
        assertThat(DeviceHealth.poisoned()).isNull();
        assertThatCode(DeviceHealth::checkUsable).doesNotThrowAnyException();
    }

    @Test
    void aStickyErrorClosesTheDeviceForTheRestOfTheProcess() {
        DeviceHealth.note(new GpuException("cuStreamSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS"));
        DeviceHealth.note(new GpuException("cuLaunchKernel failed: CUDA_ERROR_LAUNCH_FAILED"));
        assertThat(DeviceHealth.poisoned()).as("the first one").isEqualTo("CUDA_ERROR_ILLEGAL_ADDRESS");
        assertThatThrownBy(DeviceHealth::checkUsable).isInstanceOf(GpuException.class)
                .hasMessageContaining("CUDA_ERROR_ILLEGAL_ADDRESS").hasMessageContaining("restart the TaskManager");
        // before JCuda is touched: the same answer on a machine without a GPU or its libraries
        assertThatThrownBy(() -> JCudaGpu.open(0)).isInstanceOf(GpuException.class)
                .hasMessageContaining("corrupted by CUDA_ERROR_ILLEGAL_ADDRESS");
        // and an engine that meets it is lost at once, without a retry
        assertThat(GpuException.sticky(catchIt())).isEqualTo("CUDA_ERROR_ILLEGAL_ADDRESS");
    }

    private static Throwable catchIt() {
        try {
            DeviceHealth.checkUsable();
            return null;
        } catch (GpuException e) {
            return e;
        }
    }
}
