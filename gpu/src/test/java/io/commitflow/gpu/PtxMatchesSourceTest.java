package io.commitflow.gpu;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The checked-in PTX is what ptx.sh makes of retrieval.cu today (where nvcc is installed), and its header names the
 * SHA-256 of that retrieval.cu (ptx.sh ships it in place of nvcc's output only when the two agree).
 */
class PtxMatchesSourceTest {
    private static final Path SCRIPT = Path.of("src/main/cuda/ptx.sh");
    private static final Path SOURCE = Path.of("src/main/cuda/retrieval.cu");
    private static final Path CHECKED_IN = Path.of("src/main/resources/io/commitflow/gpu/retrieval.ptx");

    @Test
    void checkedInPtxNamesTheSourceItWasMadeFrom() throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(SOURCE));
        assertThat(Files.readAllLines(CHECKED_IN, StandardCharsets.US_ASCII))
                .as("retrieval.ptx was made from another retrieval.cu: run gpu/src/main/cuda/ptx.sh " + CHECKED_IN)
                .contains("// source sha256: " + HexFormat.of().formatHex(digest));
    }

    @Test
    void checkedInPtxMatchesTheKernelSource() throws Exception {
        assumeTrue(KernelEmulationTest.onPath("nvcc"), "nvcc is not on PATH: the checked-in PTX cannot be compared with retrieval.cu here");
        assumeTrue(Files.isRegularFile(SCRIPT) && Files.isRegularFile(CHECKED_IN),
                "the kernel source is not here (run from the gpu module)");
        List<String> checkedIn = Files.readAllLines(CHECKED_IN, StandardCharsets.US_ASCII);
        String release = nvccRelease();
        String recorded = checkedIn.stream().filter(l -> l.startsWith("// Cuda compilation tools, release "))
                .findFirst().orElse("(none)");
        assumeTrue(recorded.contains(release), "nvcc is " + release + ", the checked-in PTX was made by '" + recorded
                + "': outputs may differ between releases");

        Path out = Files.createTempFile("retrieval", ".ptx");
        try {
            Process p = new ProcessBuilder("bash", SCRIPT.toString(), out.toString()).redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
            assertThat(p.exitValue()).as("ptx.sh: " + log).isZero();
            assertThat(code(Files.readAllLines(out, StandardCharsets.US_ASCII)))
                    .as("retrieval.ptx is stale: run gpu/src/main/cuda/ptx.sh " + CHECKED_IN)
                    .isEqualTo(code(checkedIn));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** The PTX without its comment lines (which carry compiler build ids). */
    private static String code(List<String> lines) {
        return lines.stream().filter(l -> !l.startsWith("//")).collect(Collectors.joining("\n"));
    }

    private static String nvccRelease() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("nvcc", "--version").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        int at = out.indexOf("release ");
        return at < 0 ? "unknown" : out.substring(at, out.indexOf('\n', at) < 0 ? out.length() : out.indexOf('\n', at)).trim();
    }
}
