package io.commitflow.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checkout's own {@code ./commitflow} launcher, as the prepare-commit-msg hook runs it (the other tests run the
 * CLI through {@link TestLauncher}): {@code suggest} three times in a row, each answering with the staged change's
 * own description when no job answers. A launcher that kept a class-data archive of its first run crashed on every
 * later one with JDK 17.0.15 (SIGSEGV mapping an archived lambda), so the hook answered only the first commit.
 */
class LauncherITCase {
    @TempDir
    Path dir;

    @Test
    void suggestRunsAgainAndAgainThroughTheRealLauncher() throws Exception {
        GitCli.run(dir, "init", "-q");
        Files.writeString(dir.resolve("README.md"), "hello\n");
        GitCli.run(dir, "add", "README.md");
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        for (int run = 1; run <= 3; run++) {
            Process p = new ProcessBuilder(DemoITCase.HOME.resolve("commitflow").toString(), "suggest", "--bootstrap",
                    "localhost:" + closed, "--timeout", "1s", "--fallback", "local").directory(dir.toFile()).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("run %d: %s", run, err).isZero();
            assertThat(out).as("run %d", run).contains("README.md").doesNotContain("fatal error");
        }
    }
}
