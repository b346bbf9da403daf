package io.commitflow.git;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the machine's C git with a fixed configuration, so that its answers do not depend on the user's. */
public final class CGit {
    private CGit() {}

    public static boolean available() {
        try {
            return run(Path.of("."), null, "--version").startsWith("git version");
        } catch (IOException e) {
            return false;
        }
    }

    /** Runs {@code git -C dir args…}, optionally feeding {@code stdin}; returns stdout, throws on failure. */
    public static String run(Path dir, byte[] stdin, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", dir.toString(),
                "-c", "diff.algorithm=histogram", "-c", "diff.indentHeuristic=false", "-c", "diff.renames=true",
                "-c", "diff.renameLimit=1000", "-c", "core.quotePath=true", "-c", "color.ui=false"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        pb.environment().put("HOME", dir.toString());
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        if (stdin != null) {
            try (var in = p.getOutputStream()) {
                in.write(stdin);
            }
        } else {
            p.getOutputStream().close();
        }
        byte[] out = readAll(p.getInputStream());
        byte[] err = readAll(p.getErrorStream());
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("git " + String.join(" ", args) + " failed: " + new String(err, StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    public static byte[] runBytes(Path dir, String... args) throws IOException {
        return run(dir, null, args).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        in.transferTo(b);
        return b.toByteArray();
    }
}
