package io.commitflow.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The git command line as a developer runs it (hooks and all), for the hook's ITCases. */
record GitProcess(int exit, String out, String err) {

    static GitProcess run(Path in, String... args) throws Exception {
        return run(in, Map.of(), args);
    }

    /** {@code git args} in {@code in} with {@code env} added, stdin closed; fails the test past 180 s. */
    static GitProcess run(Path in, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(in.toFile());
        pb.environment().putAll(env);
        Path err = Files.createTempFile("git", ".err");
        try {
            pb.redirectError(err.toFile());
            Process p = pb.start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(180, TimeUnit.SECONDS)).as(String.join(" ", cmd)).isTrue();
            return new GitProcess(p.exitValue(), out, Files.readString(err));
        } finally {
            Files.deleteIfExists(err);
        }
    }

    /** A clone of {@code mirror}'s main branch at {@code work}, committing as Ada. */
    static Path cloneOf(Path mirror, Path work) throws Exception {
        GitProcess c = run(work.getParent(), "clone", "-q", "-b", "main", mirror.toString(), work.toString());
        assertThat(c.exit()).as(c.err()).isZero();
        run(work, "config", "user.name", "Ada");
        run(work, "config", "user.email", "ada@example.com");
        return work;
    }
}
