package io.commitflow.gpu;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The kernels the engine launches exist in the PTX with the parameter sizes and block size it passes. */
class KernelSignatureTest {
    private static final Pattern ENTRY = Pattern.compile("\\.visible \\.entry (\\w+)\\(([^)]*)\\)\\s*\\.maxntid (\\d+), 1, 1");
    private static final Pattern PARAM = Pattern.compile("\\.param \\.(u64|u32|b64|b32|s32|s64|f32)");

    @Test
    void everyKernelMatchesItsPtxEntry() {
        String ptx = new String(JCudaGpu.ptx(), StandardCharsets.US_ASCII);
        Map<String, String> sizes = new HashMap<>();
        Map<String, Integer> threads = new HashMap<>();
        Matcher m = ENTRY.matcher(ptx);
        while (m.find()) {
            List<String> params = new ArrayList<>();
            Matcher p = PARAM.matcher(m.group(2));
            while (p.find()) {
                params.add(p.group(1).endsWith("64") ? "8" : "4");
            }
            sizes.put(m.group(1), String.join(",", params));
            threads.put(m.group(1), Integer.parseInt(m.group(3)));
        }
        for (Kernel k : Kernel.values()) {
            List<String> expected = new ArrayList<>();
            for (char c : k.signature.toCharArray()) {
                expected.add(c == 'i' ? "4" : "8");
            }
            assertThat(sizes).as("PTX entries").containsKey(k.entry);
            assertThat(sizes.get(k.entry)).as(k.entry + " parameter sizes").isEqualTo(String.join(",", expected));
            assertThat(threads.get(k.entry)).as(k.entry + " .maxntid").isEqualTo(k.threads);
        }
    }

    @Test
    void thePtxLoadsOnCuda12DriversAndIsNulTerminated() {
        byte[] ptx = JCudaGpu.ptx();
        assertThat(ptx[ptx.length - 1]).isZero();
        Matcher v = Pattern.compile("PTX (\\d+)\\.(\\d+) for sm_(\\d+)").matcher(JCudaGpu.ptxVersion(ptx));
        assertThat(v.find()).as(JCudaGpu.ptxVersion(ptx)).isTrue();
        // R535 (CUDA 12.2) drivers JIT PTX ISA 8.2 and below; nvcc 13 writes 9.0 unless ptx.sh lowers it
        int isa = Integer.parseInt(v.group(1)) * 10 + Integer.parseInt(v.group(2));
        assertThat(isa).as("PTX ISA version x10").isLessThanOrEqualTo(82);
        assertThat(Integer.parseInt(v.group(3))).as("target: Turing and later").isLessThanOrEqualTo(75);
    }

    @Test
    void thePtxHasNoFusedMultiplyAddSoScoresEqualTheCpuEngines() {
        String ptx = new String(JCudaGpu.ptx(), StandardCharsets.US_ASCII);
        // an fma rounds once where the CPU engine rounds twice: scores would differ in the last bit
        assertThat(Pattern.compile("\\bfma\\.").matcher(ptx).find()).as("fma instructions").isFalse();
        assertThat(ptx).contains(".visible .entry");
    }

    @Test
    void checksLaunchArguments() {
        Gpu.Mem m = () -> 4;
        Kernel.TOPK.check(m, m, 0, 1L, 1, 0, 1, m, m, 1L, 0L);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Kernel.TOPK.check(m, m, 0, 1, 1, 0, 1, m, m, 1L, 0L))
                .hasMessageContaining("argument 3 must be a long");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Kernel.SCORE_WIDE.check(m))
                .hasMessageContaining("takes 12 arguments");
    }
}
