package io.commitflow.gpu;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

class EnginesTest {
    @Test
    void probesOnceAndNeverThrows() {
        EngineChoice first = Engines.probe();
        EngineChoice second = Engines.probe(); // JCuda's classes cannot initialise twice: the answer is remembered
        assertThat(second).isSameAs(first);
        assertThat(first.toJson()).startsWith("{\"cuda_available\":" + first.cudaAvailable());
    }

    @Test
    void saysWhyCudaIsUnavailableOnAMachineWithoutAGpu() {
        EngineChoice c = Engines.probe();
        assumeFalse(c.cudaAvailable(), "this machine has a GPU");
        assertThat(c.reason()).isNotBlank().doesNotContain("\n");
        assertThat(c.describe()).startsWith("CUDA unavailable: ");
    }

    @Test
    void turnsLoadFailuresIntoReasons() {
        EngineChoice c = Engines.safely(() -> {
            throw new UnsatisfiedLinkError("Error while loading native library\n.../libJCudaDriver.so: libcuda.so.1: "
                    + "cannot open shared object file");
        });
        assertThat(c.cudaAvailable()).isFalse();
        assertThat(c.reason()).contains("libcuda.so.1 was not found");
        assertThat(Engines.safely(() -> {
            throw new NoClassDefFoundError("jcuda/driver/JCudaDriver");
        }).reason()).contains("JCuda is missing");
        assertThat(Engines.safely(() -> {
            throw new GpuException("cuInit failed: CUDA_ERROR_NO_DEVICE");
        }).reason()).isEqualTo("GpuException: cuInit failed: CUDA_ERROR_NO_DEVICE");
    }

    @Test
    void reportsADeviceOnlyOnceTheKernelsLoadOnIt() {
        EngineChoice h200 = EngineChoice.available("NVIDIA H200", 1, 150_000_000_000L, 9, 0, 3_201_000, 6144, 12020);
        assertThat(Engines.loads(h200, () -> { })).isSameAs(h200);

        EngineChoice refused = Engines.loads(h200, () -> {
            throw new GpuException("cuModuleLoadData(retrieval.ptx, PTX 9.0 for sm_75) failed: "
                    + "CUDA_ERROR_UNSUPPORTED_PTX_VERSION");
        });
        assertThat(refused.cudaAvailable()).isFalse();
        assertThat(refused.describe()).startsWith("CUDA unavailable: found NVIDIA H200 (compute 9.0")
                .contains("driver 12.2").contains("the kernels do not load on it").contains("UNSUPPORTED_PTX_VERSION");

        EngineChoice none = EngineChoice.unavailable("no driver");
        assertThat(Engines.loads(none, () -> {
            throw new AssertionError("not called without a device");
        })).isSameAs(none);
    }

    @Test
    void opensTheEngineAModeAsksFor() {
        try (RetrievalEngine e = Engines.open(EngineMode.CPU, 16, 1L << 30)) {
            assertThat(e).isInstanceOf(CpuEngine.class);
            assertThat(Engines.lastChoice()).isEqualTo("cpu");
            assertThat(Engines.engineGauge()).isZero();
        }
        assertThatThrownBy(() -> Engines.open(null, 16, 1L << 30)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void parsesModesInAnyCaseAndNamesTheAllowedOnesOtherwise() {
        assertThat(EngineMode.parse("auto")).isEqualTo(EngineMode.AUTO);
        assertThat(EngineMode.parse(" CPU ")).isEqualTo(EngineMode.CPU);
        assertThat(EngineMode.parse("Cuda")).isEqualTo(EngineMode.CUDA);
        for (EngineMode m : EngineMode.values()) {
            assertThat(EngineMode.parse(m.label())).isEqualTo(m);
        }
        assertThat(EngineMode.CUDA.label()).isEqualTo("cuda");
        assertThatThrownBy(() -> EngineMode.parse("gpu")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("engine must be auto, cpu or cuda, not 'gpu'");
        assertThatThrownBy(() -> EngineMode.parse("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("auto, cpu or cuda");
        assertThatThrownBy(() -> EngineMode.parse(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("auto, cpu or cuda");
    }

    @Test
    void fallsBackToTheCpuWithoutAGpu() {
        EngineChoice c = Engines.probe();
        assumeFalse(c.cudaAvailable(), "this machine has a GPU");
        try (RetrievalEngine e = Engines.open(EngineMode.AUTO, 16, 1L << 30)) {
            assertThat(e.name()).isEqualTo("cpu");
        }
        assertThatThrownBy(() -> Engines.open(EngineMode.CUDA, 16, 1L << 30)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("CUDA unavailable");
    }

    @Test
    void opensTheCudaEngineOnAGpu() {
        EngineChoice c = Engines.probe();
        org.junit.jupiter.api.Assumptions.assumeTrue(c.cudaAvailable(), "no GPU here: " + c.reason());
        try (RetrievalEngine e = Engines.open(EngineMode.AUTO, 16, 1L << 30)) {
            assertThat(e.name()).isEqualTo("cuda");
            assertThat(Engines.engineGauge()).isEqualTo(1);
        }
    }

    @Test
    void computesPeakBandwidthFromClockAndBusWidth() {
        // an H100 SXM reports 2,619,000 kHz and 5,120 bits: 3.35 TB/s
        EngineChoice c = EngineChoice.available("x", 1, 1, 9, 0, 2_619_000, 5120, 13000);
        assertThat(c.peakBytesPerSecond()).isEqualTo(2_619_000.0 * 1000 * 5120 * 2 / 8);
        assertThat(EngineChoice.unavailable("none").peakBytesPerSecond()).isZero();
        assertThat(c.describe()).contains("compute 9.0").contains("driver 13.0");
    }
}
