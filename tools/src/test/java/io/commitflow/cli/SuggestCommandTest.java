package io.commitflow.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@code commitflow suggest} sends: the repository's name on its server, and the staged diff in git's format. */
class SuggestCommandTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "git@github.com:team/app.git, team/app.git",
        "https://gitea.example.com/team/app.git, team/app.git",
        "https://gitea.example.com/team/app.git/, team/app.git",
        "ssh://gerrit.example.com:29418/platform/tools, platform/tools",
        "ssh://git@host/~user/app.git, user/app.git",
        "/srv/git/app.git, app.git",
    })
    void namesTheRepositoryAsItsServerDoes(String url, String name) {
        assertThat(SuggestCommand.nameFromRemote(url, Path.of("/home/ada/checkout"))).isEqualTo(name);
    }

    @Test
    void namesARepositoryWithoutARemoteByItsFolder() {
        assertThat(SuggestCommand.nameFromRemote(null, Path.of("/home/ada/checkout"))).isEqualTo("checkout");
    }

    @Test
    void readsTheStagedDiffInGitsFormatWhateverTheUsersDiffSettings() throws Exception {
        GitCli.run(dir, "init", "-q");
        Files.writeString(dir.resolve("a.txt"), "one\n");
        GitCli.run(dir, "add", "a.txt");
        GitCli.run(dir, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "Add a");
        // settings that would change what git diff prints
        GitCli.run(dir, "config", "diff.noprefix", "true");
        GitCli.run(dir, "config", "color.diff", "always");
        GitCli.run(dir, "config", "diff.relative", "true");
        Files.writeString(dir.resolve("a.txt"), "two\n");
        Files.writeString(dir.resolve("unstaged.txt"), "not staged\n");
        GitCli.run(dir, "add", "a.txt");

        String patch = SuggestCommand.stagedPatch(dir);

        assertThat(patch).startsWith("diff --git a/a.txt b/a.txt\n").contains("--- a/a.txt\n+++ b/a.txt\n", "-one\n+two\n")
                .doesNotContain("\u001b[", "unstaged");
        assertThat(SuggestCommand.local(patch).subject()).as("the local fallback describes it, naming its file")
                .isEqualTo("Update a.txt");
    }

    @Test
    void readsTheHooksGitConfigInOneRunAsGetWouldGiveIt() throws Exception {
        GitCli.run(dir, "init", "-q");
        GitCli.run(dir, "config", "commitflow.tenant", "acme");
        GitCli.run(dir, "config", "--add", "commitflow.repo", "old/app.git");
        GitCli.run(dir, "config", "--add", "commitflow.repo", "team/app.git");
        GitCli.run(dir, "config", "remote.origin.url", "git@host:team/app.git");
        GitCli.run(dir, "config", "user.name", "not asked for");

        var config = GitCli.configs(dir, "^(commitflow\\..*|remote\\.origin\\.url)$");

        assertThat(config).containsOnly(org.assertj.core.api.Assertions.entry("commitflow.tenant", "acme"),
                org.assertj.core.api.Assertions.entry("commitflow.repo", GitCli.config(dir, "commitflow.repo")),
                org.assertj.core.api.Assertions.entry("remote.origin.url", "git@host:team/app.git"));
        assertThat(config.get("commitflow.repo")).isEqualTo("team/app.git");
        assertThat(GitCli.configs(dir, "^nothing\\.here$")).isEmpty();
    }

    /**
     * The comment character the hook writes the other subjects with is the one git strips: core.commentChar, or
     * core.commentString where git reads it (2.45 and later; the last of the two set wins), else {@code #}.
     */
    @Test
    void theHooksCommentCharIsTheOneThisGitStrips() throws Exception {
        GitCli.run(dir, "init", "-q");
        assertThat(hookComment()).isEmpty();
        GitCli.run(dir, "config", "core.commentChar", ";");
        assertThat(hookComment()).isEqualTo(";");
        GitCli.run(dir, "config", "core.commentString", "%");
        String version = GitCli.run(dir, "version").replaceAll("^git version (\\d+)\\.(\\d+).*\\s*", "$1 $2");
        int major = Integer.parseInt(version.split(" ")[0]);
        int minor = Integer.parseInt(version.split(" ")[1]);
        boolean readsString = major > 2 || major == 2 && minor >= 45;
        assertThat(hookComment()).as("git " + major + "." + minor).isEqualTo(readsString ? "%" : ";");
        GitCli.run(dir, "config", "--unset", "core.commentChar");
        GitCli.run(dir, "config", "core.commentChar", "!"); // now set after the string
        assertThat(hookComment()).isEqualTo("!");
    }

    /** The comment character the hook script's configuration part settles on, run by sh in the repository. */
    private String hookComment() throws Exception {
        String script;
        try (var in = InstallHookCommand.class.getResourceAsStream(InstallHookCommand.HOOK)) {
            script = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        String config = script.substring(script.indexOf("hook=true url="), script.indexOf("case \"$hook\" in"));
        Process p = new ProcessBuilder("sh", "-c", config + "\nprintf '%s' \"$comment\"").directory(dir.toFile())
                .redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(said).isZero();
        return said;
    }

    /**
     * The hook (shell, git's own matching), {@code suggest} (Java, the same git commands) and the job
     * ({@code IgnoreFile}, JGit's matching) leave out the same files, and a change of ignored files alone is sent whole.
     */
    @Test
    void theHookSuggestAndTheJobLeaveOutWhatCommitflowignoreNames() throws Exception {
        GitCli.run(dir, "init", "-q");
        String ignore = "# generated\npackage-lock.json\n*.lock\n!keep.lock\ngen/\n";
        Files.writeString(dir.resolve(".commitflowignore"), ignore);
        for (String f : List.of("src/Main.java", "package-lock.json", "gen/Out.java", "keep.lock", "lib/gen/X.java",
                "old.lock", "docs/a b.md", "ünï.lock")) {
            Files.createDirectories(dir.resolve(f).getParent() == null ? dir : dir.resolve(f).getParent());
            Files.writeString(dir.resolve(f), "one\n");
        }
        GitCli.run(dir, "add", "-A");
        GitCli.run(dir, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "Start");
        for (String f : List.of("src/Main.java", "package-lock.json", "gen/Out.java", "keep.lock", "lib/gen/X.java",
                "docs/a b.md", "ünï.lock")) {
            Files.writeString(dir.resolve(f), "two\n");
        }
        Files.delete(dir.resolve("old.lock"));
        GitCli.run(dir, "add", "-A");

        List<String> staged = List.of(GitCli.run(dir, "-c", "core.quotePath=false", "diff", "--cached", "--name-only",
                "-z").split("\0"));
        io.commitflow.git.IgnoreFile job = io.commitflow.git.IgnoreFile.parse(
                new java.io.ByteArrayInputStream(ignore.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        List<String> expected = List.of("docs/a b.md", "keep.lock", "src/Main.java");
        assertThat(staged.stream().filter(f -> !job.ignores(f)).toList()).as("the job").isEqualTo(expected);
        assertThat(paths(SuggestCommand.stagedPatch(dir))).as("suggest").isEqualTo(expected);
        assertThat(paths(hookDiff())).as("the hook").isEqualTo(expected);

        GitCli.run(dir, "reset", "-q");
        GitCli.run(dir, "add", "package-lock.json");
        assertThat(paths(SuggestCommand.stagedPatch(dir))).as("ignored files alone are the change")
                .containsExactly("package-lock.json");
        assertThat(paths(hookDiff())).containsExactly("package-lock.json");
    }

    /** The hook script's own staged(), run by sh in the repository. */
    private String hookDiff() throws Exception {
        String script;
        try (var in = InstallHookCommand.class.getResourceAsStream(InstallHookCommand.HOOK)) {
            script = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        String functions = script.substring(script.indexOf("diff_of() {"), script.indexOf("# asks the gateway"));
        Path out = dir.resolve(".git/hook-diff");
        Process p = new ProcessBuilder("sh", "-c", functions + "\nstaged \"$1\"", "sh", out.toString())
                .directory(dir.toFile()).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(said).isZero();
        return Files.readString(out);
    }

    private static List<String> paths(String patch) {
        return patch.lines().filter(l -> l.startsWith("diff --git a/"))
                .map(l -> l.substring("diff --git a/".length(), l.indexOf(" b/"))).toList();
    }

    @Test
    void cutsAHugeStagedDiffAtAFileBoundary() throws Exception {
        GitCli.run(dir, "init", "-q");
        String line = "x".repeat(99) + "\n";
        Files.writeString(dir.resolve("big1.txt"), line.repeat(6_000));
        Files.writeString(dir.resolve("big2.txt"), line.repeat(6_000));
        GitCli.run(dir, "add", "-A");

        String patch = SuggestCommand.stagedPatch(dir);

        assertThat(patch.length()).isLessThanOrEqualTo(SuggestCommand.MAX_PATCH_CHARS);
        assertThat(patch).startsWith("diff --git a/big1.txt").doesNotContain("big2.txt").endsWith("\n");
    }
}
