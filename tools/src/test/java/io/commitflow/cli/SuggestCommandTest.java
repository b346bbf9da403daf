package io.commitflow.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;

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
        assertThat(SuggestCommand.local(patch).subject()).as("the local fallback describes it").contains("a.txt")
                .hasSizeBetween(20, 72);
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
