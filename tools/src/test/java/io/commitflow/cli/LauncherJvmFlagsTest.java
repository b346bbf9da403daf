package io.commitflow.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A local run's TaskManager is the launcher's own JVM, so the checkout's {@code ./commitflow} and the host kit's
 * {@code bin/commitflow} give that JVM the TaskManagers' flags of flink-conf/config.yaml
 * ({@code env.java.opts.taskmanager}: the JIT's), before {@code COMMITFLOW_JAVA_OPTS} so that a user's flag wins;
 * {@code suggest} (no job, C1 only) does without them. Each launcher runs here on a {@code java} that prints its
 * arguments.
 */
class LauncherJvmFlagsTest {
    @TempDir
    Path dir;

    /** The flags the cluster file gives the TaskManagers. */
    static List<String> taskManagerFlags() throws IOException {
        String prefix = "env.java.opts.taskmanager:";
        String line = Files.readAllLines(DemoITCase.HOME.resolve("flink-conf/config.yaml")).stream()
                .filter(l -> l.startsWith(prefix)).findFirst().orElseThrow();
        return Arrays.asList(line.substring(prefix.length()).trim().split(" +"));
    }

    @Test
    void theCheckoutsLauncherGivesALocalRunTheTaskManagersFlags() throws Exception {
        Path javaHome = fakeJava(dir.resolve("jdk"));
        Path launcher = DemoITCase.HOME.resolve("commitflow");
        List<String> args = run(launcher, Map.of("JAVA_HOME", javaHome.toString(), "COMMITFLOW_JAVA_OPTS", "-Xmx3g"),
                "loadtest", "--help");
        List<String> flags = taskManagerFlags();
        assertThat(flags).isNotEmpty().allMatch(f -> f.startsWith("-XX:"));
        assertThat(args).containsSubsequence(flags.get(0), "-Xmx3g", "io.commitflow.cli.Commitflow", "loadtest");
        assertThat(args).containsAll(flags);
        assertThat(args.indexOf("-Xmx3g")).as("a user's flags come last").isGreaterThan(args.indexOf(flags.get(flags.size() - 1)));

        List<String> suggest = run(launcher, Map.of("JAVA_HOME", javaHome.toString()), "suggest", "--help");
        assertThat(suggest).contains("-XX:TieredStopAtLevel=1").doesNotContainAnyElementsOf(flags);

        // a user's collector replaces the launcher's: the JVM would refuse two
        List<String> parallel = run(launcher, Map.of("JAVA_HOME", javaHome.toString(), "COMMITFLOW_JAVA_OPTS",
                "-Xmx3g -XX:+UseParallelGC"), "loadtest", "--help");
        assertThat(collectors(parallel)).containsExactly("-XX:+UseParallelGC");
        assertThat(parallel).containsAll(flags).contains("-Xmx2g", "-Xmx3g");
        assertThat(collectors(run(launcher, Map.of("JAVA_HOME", javaHome.toString()), "loadtest", "--help")))
                .containsExactly("-XX:+UseG1GC");
        assertThat(collectors(run(launcher, Map.of("JAVA_HOME", javaHome.toString(), "COMMITFLOW_JAVA_OPTS",
                "-XX:+UseParallelGC"), "suggest", "--help"))).containsExactly("-XX:+UseParallelGC");
    }

    /** The garbage collectors a command line selects. */
    private static List<String> collectors(List<String> args) {
        return args.stream().filter(a -> a.matches("-XX:\\+Use[A-Za-z0-9]+GC")).toList();
    }

    @Test
    void theHostKitsLauncherGivesALocalRunTheTaskManagersFlags() throws Exception {
        Path kit = dir.resolve("kit");
        fakeJava(kit.resolve("java"));
        Files.createDirectories(kit.resolve("bin"));
        Files.createDirectories(kit.resolve("lib"));
        Files.createDirectories(kit.resolve("flink-conf"));
        Path launcher = kit.resolve("bin/commitflow");
        Files.copy(DemoITCase.HOME.resolve("tools/src/kit/commitflow"), launcher, StandardCopyOption.COPY_ATTRIBUTES);
        Files.copy(DemoITCase.HOME.resolve("flink-conf/config.yaml"), kit.resolve("flink-conf/config.yaml"));
        Files.writeString(kit.resolve("lib/cli.classpath"), "cli.jar");
        Files.writeString(kit.resolve("lib/broker.classpath"), "broker.jar");

        List<String> args = run(launcher, Map.of("COMMITFLOW_JAVA_OPTS", "-Xmx3g"), "loadtest", "--help");
        List<String> flags = taskManagerFlags();
        assertThat(args).containsAll(flags).contains("-cp", kit.resolve("lib/cli.jar").toString());
        assertThat(args.indexOf("-Xmx3g")).as("a user's flags come last").isGreaterThan(args.indexOf(flags.get(flags.size() - 1)));
        assertThat(collectors(args)).containsExactly("-XX:+UseG1GC");
        assertThat(collectors(run(launcher, Map.of("COMMITFLOW_JAVA_OPTS", "-XX:+UseZGC"), "loadtest", "--help")))
                .containsExactly("-XX:+UseZGC");
    }

    /** {@code home/bin/java}: prints each argument on a line of its own. */
    private static Path fakeJava(Path home) throws IOException {
        Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\nprintf '%s\\n' \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return home;
    }

    private List<String> run(Path launcher, Map<String, String> env, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(launcher.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().remove("COMMITFLOW_JAVA_OPTS");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(out).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out.lines().toList();
    }
}
