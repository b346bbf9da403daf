package io.commitflow.git;

import org.eclipse.jgit.junit.TestRepository;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HistoryTest {
    @TempDir
    Path tmp;

    private RevCommit[] bareWithMerge(Path dir, String branch) throws Exception {
        try (Repository repo = new FileRepositoryBuilder().setGitDir(dir.toFile()).setBare().build()) {
            repo.create(true);
            try (TestRepository<Repository> git = new TestRepository<>(repo)) {
                RevCommit a = git.commit().add("a", "1").message("Add a\n\nWith a body.\n").create();
                RevCommit b = git.commit().parent(a).add("b", "1").message("Add b").create();
                RevCommit c = git.commit().parent(a).add("c", "1").message("Add c").create();
                RevCommit m = git.commit().parent(b).parent(c).message("Merge c").create();
                git.update(branch, m);
                return new RevCommit[] {a, b, c, m};
            }
        }
    }

    @Test
    void walksParentsBeforeChildrenWithMessages() throws Exception {
        RevCommit[] c = bareWithMerge(tmp.resolve("r.git"), "refs/heads/master");
        try (Repository repo = History.open(tmp.resolve("r.git"))) {
            List<History.Commit> commits = History.oldestFirst(repo, "HEAD", 100);

            assertThat(commits).hasSize(4);
            assertThat(commits.get(0).sha()).isEqualTo(c[0].name());
            assertThat(commits.get(0).subject()).isEqualTo("Add a");
            assertThat(commits.get(0).message()).isEqualTo("Add a\n\nWith a body.\n");
            assertThat(commits.get(3).sha()).isEqualTo(c[3].name());
            assertThat(commits.get(3).parents()).containsExactly(c[1].name(), c[2].name());
        }
    }

    @Test
    void stopsAtMax() throws Exception {
        bareWithMerge(tmp.resolve("r.git"), "refs/heads/master");
        try (Repository repo = History.open(tmp.resolve("r.git"))) {
            assertThat(History.oldestFirst(repo, "HEAD", 2)).hasSize(2);
        }
    }

    @Test
    void fallsBackToTheOnlyBranchWhenHeadNamesNone() throws Exception {
        RevCommit[] c = bareWithMerge(tmp.resolve("r.git"), "refs/heads/trunk");
        try (Repository repo = History.open(tmp.resolve("r.git"))) {
            assertThat(History.oldestFirst(repo, "HEAD", 10)).last().extracting(History.Commit::sha).isEqualTo(c[3].name());
        }
    }

    @Test
    void locatesBareAndWorkTreeRepositories() throws Exception {
        bareWithMerge(tmp.resolve("m/app.git"), "refs/heads/master");
        try (Repository repo = History.open(tmp.resolve("m/app.git"))) {
            assertThat(History.location(repo)).isEqualTo(new History.Location(tmp.resolve("m").toRealPath(), "app.git"));
        }
        try (Repository work = new FileRepositoryBuilder().setWorkTree(tmp.resolve("w/app").toFile()).build()) {
            work.create();
        }
        try (Repository repo = History.open(tmp.resolve("w/app"))) {
            assertThat(History.location(repo)).isEqualTo(new History.Location(tmp.resolve("w").toRealPath(), "app"));
        }
    }

    @Test
    void refusesFolderThatIsNoRepository() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        assertThatThrownBy(() -> History.open(empty)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a Git repository");
        assertThatThrownBy(() -> History.open(tmp.resolve("missing"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a directory");
    }
}
