package io.commitflow.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** C git, run in a repository: what a hook's caller has installed, and what formats the staged diff as git does. */
final class GitCli {
    private static final long TIMEOUT_SECONDS = 60;

    private GitCli() {}

    /** {@code git -C dir args…}'s standard output. @throws UserError with git's first line of complaint */
    static String run(Path dir, String... args) {
        Result r = exec(dir, args);
        if (r.exit != 0) {
            String why = r.err.strip().lines().findFirst().orElse("exit " + r.exit);
            throw new UserError("git " + String.join(" ", args) + " in " + dir + ": " + why);
        }
        return r.out;
    }

    /** A {@code git config --get} value, or {@code null} when it is not set. */
    static String config(Path dir, String key) {
        Result r = exec(dir, "config", "--get", key);
        return r.exit == 0 ? r.out.strip() : null;
    }

    /**
     * Every {@code git config} entry whose name matches {@code nameRegex} (git's lower-case names), read in one run:
     * the last value of a name, as {@code --get} gives it; empty when none matches.
     */
    static java.util.Map<String, String> configs(Path dir, String nameRegex) {
        Result r = exec(dir, "config", "-z", "--get-regexp", nameRegex);
        java.util.Map<String, String> out = new java.util.HashMap<>();
        if (r.exit != 0) {
            return out;
        }
        for (String entry : r.out.split("\0")) {
            if (entry.isEmpty()) {
                continue;
            }
            int nl = entry.indexOf('\n');
            out.put(nl < 0 ? entry : entry.substring(0, nl), nl < 0 ? "" : entry.substring(nl + 1).strip());
        }
        return out;
    }

    record Result(int exit, String out, String err) {}

    static Result exec(Path dir, String... args) {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).start();
            p.getOutputStream().close();
            CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
            byte[] out = readAll(p.getInputStream());
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new UserError("git " + String.join(" ", args) + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8),
                    new String(err.join(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UserError("cannot run git (is it installed and on PATH?): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while running git");
        }
    }

    private static byte[] readAll(java.io.InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }
}
