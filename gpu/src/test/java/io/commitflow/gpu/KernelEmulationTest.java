package io.commitflow.gpu;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs the real kernel source (retrieval.cu) on the CPU through a small CUDA emulation (src/test/cuda), launched
 * as {@link CudaEngine} launches it, and checks every answer bit for bit against brute force. This is as close to
 * running the kernels as a machine without a GPU gets; it needs g++ (C++20).
 */
class KernelEmulationTest {
    private static final Path HARNESS = Path.of("src/test/cuda/emulate.cpp");

    @Test
    void kernelsAnswerExactlyAsBruteForce() throws Exception {
        assumeTrue(Files.isRegularFile(HARNESS), "the emulation harness is not here (run from the gpu module)");
        assumeTrue(onPath("g++"), "g++ is not on PATH: the kernels cannot be emulated here");
        Path exe = Files.createTempFile("emulate", ".bin");
        try {
            run(300, "g++", "-std=c++20", "-O1", "-ffp-contract=off", "-fno-strict-aliasing", "-Wno-unknown-pragmas",
                    HARNESS.toString(), "-o", exe.toString());
            String out = run(600, exe.toString());
            assertThat(out).contains("runs match");
        } finally {
            Files.deleteIfExists(exe);
        }
    }

    private static String run(int seconds, String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] bytes = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(seconds, TimeUnit.SECONDS)).as(String.join(" ", command) + " finished").isTrue();
        String out = new String(bytes, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(command[0] + ": " + out).isZero();
        return out;
    }

    static boolean onPath(String tool) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
