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
    @org.junit.jupiter.api.extension.RegisterExtension
    static final io.commitflow.testing.KafkaBroker KAFKA = new io.commitflow.testing.KafkaBroker();

    @TempDir
    Path dir;

    @org.junit.jupiter.api.BeforeAll
    static void topics() throws Exception {
        KAFKA.createTopic("commitflow.replies", 1);
        KAFKA.createTopic("commitflow.dlq", 1);
    }

    /**
     * A TERM sent to the launcher (kill, systemd, a benchmark's cleanup) or an INT (Ctrl-C) reaches its JVM: the
     * gateway says it stopped, no JVM outlives the launcher, and the launcher exits as a process stopped by that
     * signal (143, 130). Before, the launcher died alone, deleted the JVM's temporary folder under a running job and
     * left the JVM running; then Ctrl-C exited 143.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"TERM, 143", "INT, 130"})
    void aSignalToTheLauncherStopsItsJvmCleanly(String signal, int exit) throws Exception {
        Path keys = Files.writeString(dir.resolve("keys"), "a:launcher-itcase-key-0001\n");
        Path out = dir.resolve("gateway.out");
        // as from a terminal: a test run in the background (nohup, CI) passes INT on ignored, which no shell can trap
        Process p = new ProcessBuilder("env", "--default-signal=INT", DemoITCase.HOME.resolve("commitflow").toString(),
                "gateway", "--bootstrap",
                KAFKA.bootstrap(), "--api-keys", keys.toString(), "--host", "127.0.0.1", "--port", "0",
                "--shutdown-grace", "5s").redirectErrorStream(true).redirectOutput(out.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.readString(out).contains("commitflow gateway: http://")) {
            assertThat(p.isAlive()).as(Files.readString(out)).isTrue();
            assertThat(System.nanoTime()).as("started within 120 s: " + Files.readString(out)).isLessThan(deadline);
            Thread.sleep(200);
        }
        java.util.List<ProcessHandle> jvms = p.descendants().toList();
        assertThat(jvms).as("the launcher's JVM").isNotEmpty();

        // to the launcher alone (a terminal's Ctrl-C reaches the JVM too, which ignores INT as a script's background job)
        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor()).isZero();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(Files.readString(out)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(out)).isEqualTo(exit);
        for (ProcessHandle jvm : jvms) {
            jvm.onExit().get(30, TimeUnit.SECONDS);
        }
        assertThat(jvms).noneMatch(ProcessHandle::isAlive);
        assertThat(Files.readString(out)).contains("commitflow gateway: stopping").contains("stopped");
    }

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
