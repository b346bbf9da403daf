package io.commitflow.git;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Reason;
import io.commitflow.event.TestEvents;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommitDifferTest {
    @TempDir
    Path root;
    private GitFixture fx;
    private final CommitDiffer differ = new CommitDiffer(DiffBudget.DEFAULT);

    @BeforeEach
    void setUp() throws Exception {
        fx = new GitFixture(root, "repo.git");
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private DiffedCommit diff(RevCommit c) throws Exception {
        return differ.diff(fx.repo, TestEvents.commit("repo", c.name()));
    }

    @Test
    void diffsRootCommitAgainstEmptyTree() throws Exception {
        RevCommit root = fx.git.commit().add("README.md", "hello\n").add("src/Main.java", fx.lines(3, "x")).create();

        DiffedCommit d = diff(root);

        assertThat(d.files()).extracting(FileChange::change).containsOnly("ADD");
        assertThat(d.files()).extracting(FileChange::newPath).containsExactlyInAnyOrder("README.md", "src/Main.java");
        assertThat(d.files()).extracting(FileChange::oldPath).containsOnly("");
        assertThat(d.linesAdded()).isEqualTo(4);
        assertThat(d.linesDeleted()).isZero();
        assertThat(d.patch()).contains("new file mode 100644", "+++ b/src/Main.java");
        assertThat(d.truncated()).isFalse();
        assertThat(d.source()).isEqualTo("mirror");
    }

    @Test
    void leavesOutWhatTheCommitsIgnoreFileNamesUnlessItNamesEveryChangedFile() throws Exception {
        RevCommit a = fx.git.commit().add(".commitflowignore", "# generated\npackage-lock.json\ngen/\n")
                .add("src/Main.java", "class Main {}\n").add("package-lock.json", "{}\n").add("gen/Out.java", "x\n")
                .add("docs/Old.md", "k\n").add("lib/gen/Made.java", "m\n").create();
        RevCommit b = fx.git.commit().parent(a).add("src/Main.java", "class Main { int v; }\n")
                .add("package-lock.json", "{\"v\": 2}\n").add("gen/Out.java", "y\n").rm("docs/Old.md").create();
        RevCommit lockOnly = fx.git.commit().parent(b).add("package-lock.json", "{\"v\": 3}\n").create();

        DiffedCommit d = diff(b);
        assertThat(d.files()).extracting(FileChange::path).containsExactly("docs/Old.md", "src/Main.java");
        assertThat(diff(a).files()).as("the root commit: its own ignore file applies; gen/ matches at any depth")
                .extracting(FileChange::path).containsExactlyInAnyOrder(".commitflowignore", "src/Main.java", "docs/Old.md");
        assertThat(d.totalFiles()).isEqualTo(2);
        assertThat(d.patch()).doesNotContain("package-lock.json", "gen/Out.java");
        assertThat(diff(lockOnly).files()).as("a lock file alone is the change").extracting(FileChange::path)
                .containsExactly("package-lock.json");
    }

    @Test
    void countsLinesOfModification() throws Exception {
        RevCommit a = fx.git.commit().add("f.txt", "one\ntwo\nthree\n").create();
        RevCommit b = fx.git.commit().parent(a).add("f.txt", "one\n2\nthree\nfour\n").create();

        DiffedCommit d = diff(b);

        assertThat(d.files()).singleElement().satisfies(f -> {
            assertThat(f.change()).isEqualTo("MODIFY");
            assertThat(f.oldPath()).isEqualTo("f.txt");
            assertThat(f.newPath()).isEqualTo("f.txt");
            assertThat(f.added()).isEqualTo(2);
            assertThat(f.deleted()).isEqualTo(1);
        });
        assertThat(d.patch()).contains("-two\n", "+2\n", "+four\n");
    }

    @Test
    void reportsDeletion() throws Exception {
        RevCommit a = fx.git.commit().add("gone.txt", "a\nb\n").add("kept.txt", "k\n").create();
        RevCommit b = fx.git.commit().parent(a).rm("gone.txt").create();

        DiffedCommit d = diff(b);

        assertThat(d.files()).singleElement().satisfies(f -> {
            assertThat(f.change()).isEqualTo("DELETE");
            assertThat(f.oldPath()).isEqualTo("gone.txt");
            assertThat(f.newPath()).isEmpty();
            assertThat(f.path()).isEqualTo("gone.txt");
            assertThat(f.deleted()).isEqualTo(2);
        });
    }

    @Test
    void detectsRenameAtGitsFiftyPercentThreshold() throws Exception {
        // 100 lines of equal length, 45 of them changed: 55% similar. git (50%) calls this a rename,
        // JGit's own default (60%) would not.
        StringBuilder before = new StringBuilder();
        StringBuilder after = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            before.append(String.format("line %03d\n", i));
            after.append(String.format(i < 55 ? "line %03d\n" : "LINE %03d\n", i));
        }
        RevCommit a = fx.git.commit().add("old/Name.java", before.toString()).create();
        RevCommit b = fx.git.commit().parent(a).rm("old/Name.java").add("new/Name.java", after.toString()).create();

        DiffedCommit d = diff(b);

        assertThat(d.files()).singleElement().satisfies(f -> {
            assertThat(f.change()).isEqualTo("RENAME");
            assertThat(f.oldPath()).isEqualTo("old/Name.java");
            assertThat(f.newPath()).isEqualTo("new/Name.java");
            assertThat(f.score()).isBetween(50, 59);
        });
        assertThat(d.patch()).contains("rename from old/Name.java", "rename to new/Name.java");
    }

    @Test
    void aBlobTheMirrorLacksIsSummarisedWhereRenamesAreLookedFor() throws Exception {
        // a partial clone: neither the deleted file's blob nor the added one's is there, so the rename detector
        // cannot compare them
        RevCommit a = fx.git.commit().add("old/Name.java", fx.lines(40, "x")).add("keep.txt", "k\n").create();
        RevCommit b = fx.git.commit().parent(a).rm("old/Name.java").add("new/Name.java", fx.lines(40, "x") + "y\n")
                .create();
        for (org.eclipse.jgit.lib.ObjectId gone : java.util.List.of(fx.git.get(a.getTree(), "old/Name.java"),
                fx.git.get(b.getTree(), "new/Name.java"))) {
            java.nio.file.Files.delete(root.resolve("repo.git/objects").resolve(gone.name().substring(0, 2))
                    .resolve(gone.name().substring(2)));
        }

        DiffedCommit d = diff(b);

        assertThat(d.files()).extracting(FileChange::change).containsExactlyInAnyOrder("DELETE", "ADD");
        assertThat(d.truncation()).contains("blobs missing from the mirror");
    }

    @Test
    void summarisesBinaryFiles() throws Exception {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
        RevCommit a = fx.git.commit().add("logo.png", fx.git.blob(png)).create();

        DiffedCommit d = diff(a);

        assertThat(d.files()).singleElement().satisfies(f -> {
            assertThat(f.binary()).isTrue();
            assertThat(f.added()).isZero();
        });
        assertThat(d.patch()).contains("Binary files");
    }

    @Test
    void treatsBlobsOverTheBudgetAsBinary() throws Exception {
        String big = GitFixture.lines(2_000, "text");
        RevCommit a = fx.git.commit().add("big.txt", big).create();
        CommitDiffer small = new CommitDiffer(new DiffBudget(10, 100, 10_000, 1_024));

        DiffedCommit d = small.diff(fx.repo, TestEvents.commit("repo", a.name()));

        assertThat(d.files()).singleElement().satisfies(f -> assertThat(f.binary()).isTrue());
    }

    @Test
    void diffsMergeAgainstFirstParent() throws Exception {
        RevCommit base = fx.git.commit().add("a.txt", "a\n").add("b.txt", "b\n").create();
        RevCommit main = fx.git.commit().parent(base).add("a.txt", "a2\n").create();
        RevCommit side = fx.git.commit().parent(base).add("b.txt", "b2\n").create();
        RevCommit merge = fx.git.commit().parent(main).parent(side).add("b.txt", "b2\n").create();

        DiffedCommit d = diff(merge);

        assertThat(d.files()).singleElement().satisfies(f -> {
            assertThat(f.path()).isEqualTo("b.txt");
            assertThat(f.change()).isEqualTo("MODIFY");
        });
    }

    @Test
    void keepsWithinFileBudgetAndRecordsTheCut() throws Exception {
        var builder = fx.git.commit();
        for (int i = 0; i < 10; i++) {
            builder.add("f" + i + ".txt", "x\n");
        }
        RevCommit a = builder.create();
        CommitDiffer small = new CommitDiffer(new DiffBudget(3, 1_000, 100_000, 1_000_000));

        DiffedCommit d = small.diff(fx.repo, TestEvents.commit("repo", a.name()));

        assertThat(d.files()).hasSize(3);
        assertThat(d.totalFiles()).isEqualTo(10);
        assertThat(d.truncation()).isEqualTo("files 10>3");
    }

    @Test
    void cutsPatchAtLineBoundaryWithinByteBudget() throws Exception {
        RevCommit a = fx.git.commit().add("f.txt", GitFixture.lines(500, "some text")).create();
        CommitDiffer small = new CommitDiffer(new DiffBudget(10, 10_000, 1_000, 1_000_000));

        DiffedCommit d = small.diff(fx.repo, TestEvents.commit("repo", a.name()));

        assertThat(d.patch().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(1_000);
        assertThat(d.patch()).endsWith("\n");
        assertThat(d.truncation()).isEqualTo("patch bytes>1000");
        assertThat(d.files().get(0).added()).as("counts stay exact when the text is cut").isEqualTo(500);
    }

    @Test
    void keepsAReaderPerRepositoryForTheMostRecentlyUsedOnesAndClosesThem() throws Exception {
        java.util.List<GitFixture> others = new java.util.ArrayList<>();
        try {
            for (int i = 0; i <= CommitDiffer.MAX_READERS; i++) {
                GitFixture other = new GitFixture(root, "other-" + i + ".git");
                others.add(other);
                RevCommit c = other.git.commit().add("f.txt", "v" + i + "\n").create();
                differ.diff(other.repo, TestEvents.commit("other-" + i, c.name()));
            }
            RevCommit mine = fx.git.commit().add("a.txt", "a\n").create();
            diff(mine);

            assertThat(differ.keptReaders()).hasSize(CommitDiffer.MAX_READERS)
                    .doesNotContain(others.get(0).repo, others.get(1).repo).endsWith(fx.repo);
            // the kept reader finds what the mirror wrote since, packed by another process's gc
            RevCommit next = fx.git.commit().parent(mine).add("a.txt", "a\nb\n").create();
            fx.git.packAndPrune();
            assertThat(diff(next).linesAdded()).isEqualTo(1);
            assertThat(differ.keptReaders()).endsWith(fx.repo);
        } finally {
            differ.close();
            others.forEach(GitFixture::close);
        }
        assertThat(differ.keptReaders()).isEmpty();
    }

    @Test
    void rejectsCommitMissingFromMirror() {
        CommitEvent unknown = TestEvents.commit("repo", "c".repeat(40));

        assertThatThrownBy(() -> differ.diff(fx.repo, unknown))
                .isInstanceOf(InvalidEventException.class)
                .satisfies(e -> assertThat(((InvalidEventException) e).reason()).isEqualTo(Reason.UNKNOWN_COMMIT));
    }

    @Test
    void rejectsIdOfNonCommitObject() throws Exception {
        var blob = fx.git.blob("just a blob");

        assertThatThrownBy(() -> differ.diff(fx.repo, TestEvents.commit("repo", blob.name())))
                .isInstanceOf(InvalidEventException.class)
                .satisfies(e -> assertThat(((InvalidEventException) e).reason()).as("never a commit: no wait for the mirror")
                        .isEqualTo(Reason.INVALID_FIELD));
    }

    @Test
    void aDiffPastItsTimeLimitStopsWithTheTimeAndWhereItStopped() throws Exception {
        RevCommit slow = CostlyDiffs.commit(fx.git, null, 300, 3_000);
        CommitDiffer limited = new CommitDiffer(DiffBudget.DEFAULT.withMaxTime(java.time.Duration.ofMillis(200)));

        long start = System.nanoTime();
        assertThatThrownBy(() -> limited.diff(fx.repo, TestEvents.commit("repo", slow.name())))
                .isInstanceOf(DiffTimeoutException.class)
                .hasMessageContaining("took longer than 200 ms (--max-diff-time)")
                .hasMessageMatching("(?s).*stopped at file \\d+ of 300 after \\d+ ms.*");
        long ms = (System.nanoTime() - start) / 1_000_000;
        // one file past the limit at most: a file costs well under a second here
        assertThat(ms).as("stopped soon after the limit, not after all 300 files").isLessThan(5_000);

        RevCommit quick = fx.git.commit().parent(slow).add("README.md", "hello\n").create();
        assertThat(limited.diff(fx.repo, TestEvents.commit("repo", quick.name())).files()).hasSize(1);
    }

    @Test
    void withoutATimeLimitTheSameKindOfFileIsDiffedWhole() throws Exception {
        RevCommit slow = CostlyDiffs.commit(fx.git, null, 2, 3_000);
        DiffedCommit d = new CommitDiffer(DiffBudget.UNTIMED).diff(fx.repo, TestEvents.commit("repo", slow.name()));
        assertThat(d.files()).hasSize(2);
        assertThat(d.linesAdded()).isEqualTo(2 * 3_000);
    }
}
