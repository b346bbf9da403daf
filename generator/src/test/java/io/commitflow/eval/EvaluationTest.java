package io.commitflow.eval;

import org.eclipse.jgit.junit.TestRepository;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

class EvaluationTest {
    @TempDir
    Path tmp;

    /** 60 commits in two modules with conventional subjects, a merge in the middle (left out of the chain). */
    private Repository history() throws Exception {
        Repository repo = new FileRepositoryBuilder().setGitDir(tmp.resolve("h.git").toFile()).setBare().build();
        repo.create(true);
        try (TestRepository<Repository> git = new TestRepository<>(repo)) {
            RevCommit parent = git.commit().add("README.md", "# h\n").message("chore: start").create();
            for (int i = 0; i < 60; i++) {
                boolean parser = i % 2 == 0;
                String file = parser ? "parser/src/Lexer.java" : "cli/src/Main.java";
                String body = (parser ? "class Lexer {\n  int tokens = " : "class Main {\n  int flags = ") + i + ";\n}\n";
                String subject = parser ? "fix(parser): count tokens " + i : "feat(cli): add flag " + i;
                parent = git.commit().parent(parent).add(file, body).message(subject).create();
                if (i == 30) {
                    RevCommit side = git.commit().parent(parent).add("side.txt", "x\n").message("side").create();
                    parent = git.commit().parent(parent).parent(side).message("Merge side").create();
                }
            }
            git.update("refs/heads/master", parent);
        }
        return repo;
    }

    @Test
    void scoresEachTestCommitFromOnlyTheCommitsBeforeIt() throws Exception {
        try (Repository repo = history()) {
            List<Evaluation.Row> rows = new ArrayList<>();
            Evaluation.Summary s = new Evaluation(20, 30).run(repo, rows::add, line -> { });

            assertThat(rows).hasSize(20);
            assertThat(s.commits()).isEqualTo(20);
            assertThat(rows).extracting(Evaluation.Row::reference).doesNotContain("Merge side", "side");
            assertThat(rows.get(rows.size() - 1).reference()).isEqualTo("feat(cli): add flag 59");
            assertThat(s.bnorm()).isCloseTo(100 * rows.stream().mapToDouble(Evaluation.Row::bnorm).average().orElseThrow(), offset(1e-9));
            assertThat(s.nngenBnorm()).isCloseTo(100 * rows.stream().mapToDouble(Evaluation.Row::nngenBnorm).average().orElseThrow(), offset(1e-9));
            // the repository's form is learned: type and scope match the module the diff touches
            assertThat(rows).allSatisfy(r -> assertThat(r.commitflow()).startsWith(r.reference().substring(0, r.reference().indexOf(':') + 1)));
        }
    }

    @Test
    void hindsightChoosesAmongTheSameExemplarsAndIsNeverWorseThanTheGenerator() throws Exception {
        try (Repository repo = history()) {
            List<Evaluation.Row> plain = new ArrayList<>();
            Evaluation.Summary without = new Evaluation(20, 30).run(repo, plain::add, line -> { });
            List<Evaluation.Row> rows = new ArrayList<>();
            Evaluation.Summary s = new Evaluation(20, 30, 30, true).run(repo, rows::add, line -> { });

            assertThat(without.hindsight()).isNaN();
            assertThat(plain).allSatisfy(r -> assertThat(r.hindsight()).isNull());
            // the second draft changes nothing the generator learns or writes
            assertThat(rows).extracting(Evaluation.Row::commitflow)
                    .containsExactlyElementsOf(plain.stream().map(Evaluation.Row::commitflow).toList());
            assertThat(s.bnorm()).isEqualTo(without.bnorm());
            // the generator's own pick is one of those judged: hindsight is at least as good, commit by commit
            assertThat(rows).allSatisfy(r -> assertThat(r.hindsightBnorm()).isGreaterThanOrEqualTo(r.bnorm()));
            assertThat(s.hindsight()).isCloseTo(
                    100 * rows.stream().mapToDouble(Evaluation.Row::hindsightBnorm).average().orElseThrow(), offset(1e-9));
            assertThat(s.hindsightRatio()).isCloseTo(s.hindsight() / s.nngenBnorm(), offset(1e-9));
            assertThat(s.hindsightNoSuffix()).isCloseTo(s.hindsight(), offset(1e-9)); // no "(#n)" here
            assertThat(s.realForm()).isCloseTo(
                    100 * rows.stream().mapToDouble(Evaluation.Row::realFormBnorm).average().orElseThrow(), offset(1e-9));
            assertThat(without.realForm()).isNaN();
        }
    }

    /**
     * A terse history whose test files are fixed ("Fix some regress tests.") and, late, added: a diff that only adds a
     * test file is closest to the fixes, yet has nothing to fix.
     */
    @Test
    void aDiffThatOnlyAddsFilesIsNotSaidToFixOrUpdateThem() throws Exception {
        Repository repo = new FileRepositoryBuilder().setGitDir(tmp.resolve("t.git").toFile()).setBare().build();
        repo.create(true);
        List<String> added = new ArrayList<>();
        try (TestRepository<Repository> git = new TestRepository<>(repo)) {
            RevCommit parent = git.commit().add("regress/input.sh", test("input", 0)).add("input.c", "int x;\n")
                    .message("Start.").create();
            for (int i = 1; i <= 60; i++) {
                if (i == 55 || i == 60) {
                    String name = "case" + i;
                    parent = git.commit().parent(parent).add("regress/" + name + ".sh", test(name, i))
                            .message("Add " + name + " test.").create();
                    added.add(parent.name());
                } else if (i % 2 == 0) {
                    parent = git.commit().parent(parent).add("regress/input.sh", test("input", i))
                            .message("Fix some regress tests.").create();
                } else {
                    parent = git.commit().parent(parent).add("input.c", "int x = " + i + ";\n")
                            .message("Fix input parsing.").create();
                }
            }
            git.update("refs/heads/master", parent);
        }
        try (repo) {
            List<Evaluation.Row> rows = new ArrayList<>();
            new Evaluation(30, 30).run(repo, rows::add, line -> { });
            List<Evaluation.Row> adding = rows.stream().filter(r -> added.contains(r.sha())).toList();

            assertThat(adding).hasSize(2);
            assertThat(adding).allSatisfy(r -> assertThat(r.commitflow())
                    .doesNotStartWith("Fix").doesNotStartWith("Update"));
            // the fixes themselves are still said to be fixes
            assertThat(rows).filteredOn(r -> r.reference().equals("Fix some regress tests."))
                    .anySatisfy(r -> assertThat(r.commitflow()).startsWith("Fix"));
        }
    }

    private static String test(String name, int i) {
        return "#!/bin/sh\n# " + name + "\nPATH=/bin:/usr/bin\nTERM=screen\n$TMUX -f/dev/null new -d || exit 1\n"
                + "$TMUX send-keys 'echo " + i + "' Enter\nsleep 1\n$TMUX kill-server 2>/dev/null\nexit 0\n";
    }

    @Test
    void theRealFormIsTheRealTypeScopeAndAreaAroundTheGeneratedWords() {
        assertThat(Evaluation.withRealForm("fix(runtime-core): avoid double render", "feat(hydration): add useId (#1)"))
                .isEqualTo("feat(hydration): avoid double render");
        assertThat(Evaluation.withRealForm("fix(runtime-core): avoid double render", "chore: bump deps"))
                .isEqualTo("chore: avoid double render");
        assertThat(Evaluation.withRealForm("RevWalk: Fix NPE on shallow commits", "DfsReader: Fix NPE"))
                .isEqualTo("DfsReader: Fix NPE on shallow commits");
        // a ticket's number is no form: the generated one stays
        assertThat(Evaluation.withRealForm("[FLINK-XXXXX][kafka] Bump Kafka to 4.2.0", "[FLINK-39120] Update Kafka"))
                .isEqualTo("[FLINK-XXXXX][kafka] Bump Kafka to 4.2.0");
    }

    @Test
    void aHistoryShorterThanAskedIsUsedWholeAndSaysHowMuchItHad() throws Exception {
        try (Repository repo = history()) {
            List<Evaluation.Row> rows = new ArrayList<>();
            List<String> said = new ArrayList<>();
            Evaluation.Summary s = new Evaluation(5, 500).run(repo, rows::add, said::add);

            assertThat(rows).hasSize(5);
            assertThat(s.history()).as("61 commits without merges, the last 5 tested").isEqualTo(56);
            assertThat(said).anySatisfy(l -> assertThat(l).contains("up to 56 before it (asked: 5 from 500)"));
            // the whole chain is tested when it is shorter than --test, from at least one commit
            assertThat(new Evaluation(100, 10).run(repo, r -> { }, l -> { }).commits()).isEqualTo(60);
        }
    }

    @Test
    void reportsFaithfulnessAndScoresWithoutTheSquashSuffix() throws Exception {
        try (Repository repo = history()) {
            List<Evaluation.Row> rows = new ArrayList<>();
            Evaluation.Summary s = new Evaluation(20, 30).run(repo, rows::add, line -> { });

            double unfaithful = 100.0 * rows.stream().filter(r -> !r.unsupported().isEmpty()).count() / rows.size();
            assertThat(s.unfaithful()).isCloseTo(unfaithful, offset(1e-9));
            // the real subjects name no file, identifier or version: "fix(parser): count tokens 41"
            assertThat(s.referenceUnfaithful()).isZero();
            // no subject here has a "(#n)" suffix: both scores agree
            assertThat(s.bnormNoSuffix()).isCloseTo(s.bnorm(), offset(1e-9));
            assertThat(s.rougeLNoSuffix()).isCloseTo(s.rougeL(), offset(1e-9));
            assertThat(s.nngenRougeLNoSuffix()).isCloseTo(s.nngenRougeL(), offset(1e-9));
        }
    }

    @Test
    void learnsFromBotsWithoutScoringThemAndCountsSubjectsOfTwentyToSeventyTwo() throws Exception {
        Repository repo = new FileRepositoryBuilder().setGitDir(tmp.resolve("bots.git").toFile()).setBare().build();
        repo.create(true);
        try (TestRepository<Repository> git = new TestRepository<>(repo)) {
            org.eclipse.jgit.lib.PersonIdent bot = new org.eclipse.jgit.lib.PersonIdent("renovate[bot]",
                    "29139614+renovate[bot]@users.noreply.github.com");
            RevCommit parent = git.commit().add("README.md", "# b\n").message("Start the project").create();
            for (int i = 0; i < 40; i++) {
                if (i % 2 == 0) {
                    parent = git.commit().parent(parent).author(bot).add("package.json", "{\"lodash\": \"4.17." + i + "\"}\n")
                            .message("chore(deps): update dependency lodash to v4.17." + i).create();
                } else {
                    parent = git.commit().parent(parent).add("src/Lexer.java", "class Lexer { int n = " + i + "; }\n")
                            .message(i % 3 == 0 ? "Fix lexer" : "Count the lexer's tokens once more, " + i).create();
                }
            }
            git.update("refs/heads/master", parent);
        }
        List<Evaluation.Row> rows = new ArrayList<>();
        Evaluation.Summary s = new Evaluation(10, 100).run(repo, rows::add, line -> { });

        assertThat(rows).hasSize(10).noneSatisfy(r -> assertThat(r.reference()).startsWith("chore(deps)"));
        assertThat(s.bots()).as("the bots' commits after the first tested one").isEqualTo(9);
        assertThat(s.history()).as("the start and 21 commits before the first tested one").isEqualTo(22);
        // "Fix lexer" is 9 characters: the real subjects do not all conform; the generator's always do
        assertThat(s.referenceConforming()).isCloseTo(
                100.0 * rows.stream().filter(Evaluation.Row::referenceConforms).count() / rows.size(), offset(1e-9))
                .isLessThan(100);
        assertThat(s.conforming()).isEqualTo(100);
        // a chain of test + history commits gives every test commit the whole history, even if that means fewer:
        // of the 21 commits after the first 20, 11 are by people
        List<String> said = new ArrayList<>();
        Evaluation.Summary few = new Evaluation(15, 20).run(repo, r -> { }, said::add);
        assertThat(few.commits()).isEqualTo(11);
        assertThat(few.history()).isEqualTo(20);
        assertThat(said).anySatisfy(l -> assertThat(l).contains("testing the last 11 by people (among its last 21 commits)"));
        // a learning curve's shorter history scores the same commits as its longest
        List<Evaluation.Row> curve = new ArrayList<>();
        Evaluation.Summary point = new Evaluation(15, 5, 20).run(repo, curve::add, l -> { });
        assertThat(point.history()).isEqualTo(5);
        assertThat(curve).extracting(Evaluation.Row::sha).containsExactlyElementsOf(
                rowsOf(new Evaluation(15, 20), repo).stream().map(Evaluation.Row::sha).toList());
        assertThat(Bots.is("Babel Bot")).isTrue();
        assertThat(Bots.is("dependabot[bot]")).isTrue();
        assertThat(Bots.is("Abbott Robotham")).isFalse();
    }

    @Test
    void aYoungRepositoryLearnsFromItsFleetOnlyWhatCameBefore() throws Exception {
        Repository fleet = new FileRepositoryBuilder().setGitDir(tmp.resolve("fleet.git").toFile()).setBare().build();
        fleet.create(true);
        try (TestRepository<Repository> git = new TestRepository<>(fleet)) {
            RevCommit parent = git.commit().add("README.md", "# fleet\n").message("Start the fleet").create();
            for (int i = 0; i < 30; i++) {
                parent = i % 2 == 0
                        ? git.commit().parent(parent).add(".github/workflows/ci.yml", "uses: actions/checkout@v" + i + "\n")
                                .message("Bump actions/checkout to v" + i).create()
                        : git.commit().parent(parent).add("lib/Cache.java", "class Cache { int n = " + i + "; }\n")
                                .message("Rework the widget cache, step " + i).create();
            }
            git.tick(1_000_000); // after the evaluated repository's start: never used
            for (int i = 0; i < 5; i++) {
                parent = git.commit().parent(parent).add(".github/workflows/ci.yml", "uses: actions/checkout@w" + i + "\n")
                        .message("Late commit " + i).create();
            }
            git.update("refs/heads/master", parent);
        }
        Repository young = new FileRepositoryBuilder().setGitDir(tmp.resolve("young.git").toFile()).setBare().build();
        young.create(true);
        try (TestRepository<Repository> git = new TestRepository<>(young)) {
            git.tick(500_000);
            RevCommit parent = git.commit().add("README.md", "# young\n")
                    .add(".github/workflows/ci.yml", "uses: actions/checkout@v123\n")
                    .message("Start the young one").create();
            for (int i = 0; i < 14; i++) {
                parent = git.commit().parent(parent).add("src/Parser.java", "class Parser { int depth = " + i + "; }\n")
                        .message("Tune the parser's depth to " + i).create();
            }
            parent = git.commit().parent(parent).add(".github/workflows/ci.yml", "uses: actions/checkout@v124\n")
                    .message("Bump actions/checkout to v124").create();
            git.update("refs/heads/master", parent);
        }
        try (fleet; young) {
            List<Evaluation.Row> alone = new ArrayList<>();
            new Evaluation(3, 10).run(young, alone::add, l -> { });
            List<Evaluation.Row> rows = new ArrayList<>();
            List<String> said = new ArrayList<>();
            Evaluation.Summary s = new Evaluation(3, 10).run(young, new Evaluation.Fleet(List.of(fleet), 1000),
                    rows::add, said::add);

            assertThat(s.fleet()).as("the fleet's commits before the young one's first learned").isEqualTo(31);
            assertThat(said).anySatisfy(l -> assertThat(l).contains("fleet: 31 commits of 1 repositories"));
            Evaluation.Row bump = rows.get(2);
            assertThat(bump.reference()).isEqualTo("Bump actions/checkout to v124");
            assertThat(alone.get(2).commitflow()).doesNotStartWith("Bump actions/checkout");
            assertThat(bump.commitflow()).as("the fleet's form of a CI bump").startsWith("Bump actions/checkout to v");
            assertThat(bump.nngen()).as("NNGen is given the same fleet").startsWith("Bump actions/checkout to v");
            assertThat(rows).allSatisfy(r -> assertThat(r.commitflow() + r.nngen()).doesNotContain("Late commit"));
            // the code commits have nothing of a same-named file in the fleet: their own history writes them
            assertThat(rows.subList(0, 2)).extracting(Evaluation.Row::commitflow)
                    .containsExactlyElementsOf(alone.subList(0, 2).stream().map(Evaluation.Row::commitflow).toList());
            assertThat(new Evaluation(3, 10).run(young, new Evaluation.Fleet(List.of(fleet), 4), r -> { }, l -> { })
                    .fleet()).as("the last 4 of the fleet's").isEqualTo(4);
        }
    }

    @Test
    void refusesAChainWithNothingToLearnFrom() throws Exception {
        Repository repo = new FileRepositoryBuilder().setGitDir(tmp.resolve("one.git").toFile()).setBare().build();
        repo.create(true);
        try (TestRepository<Repository> git = new TestRepository<>(repo)) {
            git.update("refs/heads/master", git.commit().add("a", "a\n").message("start").create());
            assertThatThrownBy(() -> new Evaluation(5, 500).run(repo, r -> { }, l -> { }))
                    .hasMessageContaining("at least two are needed");
        }
    }

    @Test
    void nnGenReusesTheMessageOfTheMostSimilarDiff() {
        NnGen nngen = new NnGen(10);
        nngen.learn("+ int tokens = lexer.count(input);", "Count tokens in the lexer");
        nngen.learn("+ flags.add(\"--verbose\");", "Add a verbose flag");

        assertThat(nngen.predict("+ int tokens = lexer.count(source);")).isEqualTo("Count tokens in the lexer");
        assertThat(new NnGen(1).predict("anything")).isEmpty();
    }

    private static List<Evaluation.Row> rowsOf(Evaluation e, Repository repo) throws Exception {
        List<Evaluation.Row> rows = new ArrayList<>();
        e.run(repo, rows::add, l -> { });
        return rows;
    }

    @Test
    void aNumberTheDiffAddsIsNoOldNumber() {
        String patch = "--- a/src/changes/changes.xml\n+++ b/src/changes/changes.xml\n@@ -1,1 +1,2 @@\n"
                + "     <action issue=\"LANG-1700\" type=\"fix\">Old entry.</action>\n"
                + "+    <action issue=\"LANG-1819\" type=\"fix\">Fix OOM in leftPad.</action>\n";
        // the diff's own issue, whether or not the real subject names it
        assertThat(Evaluation.carried("[LANG-1819] Fix OOM in leftPad", "Fix OOM in leftPad", patch)).isEmpty();
        // a context line's number is an earlier commit's; a number only the subject names is carried
        assertThat(Evaluation.carried("[LANG-1700] Fix OOM in leftPad", "Fix OOM in leftPad", patch))
                .containsExactly("LANG-1700");
        assertThat(Evaluation.carried("Fix OOM in leftPad (#1472)", "Fix OOM in leftPad", patch)).isEmpty();
        assertThat(Evaluation.carried("Fix OOM in leftPad, see #1472", "Fix OOM in leftPad", patch))
                .containsExactly("#1472");
        // nor is a longer number that starts with it the diff's: LANG-18190 is not LANG-1819
        assertThat(Evaluation.carried("[LANG-181] Fix OOM", "Fix OOM", patch)).containsExactly("LANG-181");
    }

    @Test
    void aChangedPathIsTheDiffsWhereTheBudgetCutItsText() {
        io.commitflow.git.DiffedCommit d = io.commitflow.git.DiffedCommit.of(
                io.commitflow.event.TestEvents.commit("r", "a".repeat(40)),
                List.of(new io.commitflow.git.FileChange("MODIFY", "package-lock.json", "package-lock.json", false, 900,
                                900, 0, "100644", "100644"),
                        new io.commitflow.git.FileChange("MODIFY", "package.json", "package.json", false, 1, 1, 0,
                                "100644", "100644")),
                2, "diff --git a/package-lock.json b/package-lock.json\n+\"lockfileVersion\": 3\n", "patch bytes", "mirror",
                null);
        String judged = Evaluation.withPaths(d.patch(), d);
        assertThat(io.commitflow.generate.Faithfulness.unsupported("Update package-lock.json and package.json", d.patch()))
                .as("the patch's text alone").containsExactly("package.json");
        assertThat(io.commitflow.generate.Faithfulness.unsupported("Update package-lock.json and package.json", judged))
                .isEmpty();
        assertThat(io.commitflow.generate.Faithfulness.unsupported("Update yarn.lock", judged)).containsExactly("yarn.lock");
    }
}
