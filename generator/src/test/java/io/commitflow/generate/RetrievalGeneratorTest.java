package io.commitflow.generate;


import io.commitflow.eval.Evaluation;
import io.commitflow.git.DiffedCommit;
import io.commitflow.gpu.CpuEngine;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RetrievalGeneratorTest {
    private static Draft run(RepoKnowledge memory, DiffedCommit d) {
        DiffFeatures f = DiffFeatures.of(d);
        return new RetrievalGenerator().generate(d, f, memory, memory.vector(f.terms()));
    }

    private static void learn(RepoKnowledge memory, DiffedCommit d) {
        DiffFeatures f = DiffFeatures.of(d);
        memory.learn(d, f, memory.vector(f.terms()), d.commit().message());
    }

    @Test
    void writesGitsRevertMessageForAnExactUndo() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
            learn(memory, TestDiffs.change("r", "a".repeat(40), "Widget", "run", "Widget: Retry runs\n", null));
            DiffedCommit original = TestDiffs.change("r", "b".repeat(40), "Widget", "run", "x", null);
            String reversed = original.patch().replace("\n-    void", "\nTMP").replace("\n+    void", "\n-    void")
                    .replace("\nTMP", "\n+    void");
            DiffedCommit undo = DiffedCommit.of(original.commit(), original.files(), 1, reversed, "", "mirror", null);

            Draft d = run(memory, undo);

            assertThat(d.subject()).isEqualTo("Revert \"Widget: Retry runs\"");
            assertThat(d.body()).isEqualTo("This reverts commit " + "a".repeat(40) + ".");
        }
    }

    @Test
    void findsTheRevertedCommitHoweverTheDiffAlignsTheUndo() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
            // "a b" became "b c": one alignment keeps b as context; the revert's diff, as JGit's histogram diff may
            // align it, changes b too (vuejs/core's revert of "cleanup component effect scopes after SSR render")
            String header = "diff --git a/src/W.java b/src/W.java\n--- a/src/W.java\n+++ b/src/W.java\n";
            DiffedCommit c = TestDiffs.change("r", "a".repeat(40), "W", "x", "Widget: Retry runs\n", null);
            learn(memory, DiffedCommit.of(c.commit(), c.files(), 1,
                    header + "@@ -1,2 +1,2 @@\n-    retry(a);\n     retry(b);\n+    retry(c);\n", "", "mirror", null));
            DiffedCommit u = TestDiffs.change("r", "b".repeat(40), "W", "x", null, null);
            DiffedCommit undo = DiffedCommit.of(u.commit(), u.files(), 1,
                    header + "@@ -1,2 +1,2 @@\n-    retry(b);\n-    retry(c);\n+    retry(a);\n+    retry(b);\n", "", "mirror", null);

            assertThat(run(memory, undo).subject()).isEqualTo("Revert \"Widget: Retry runs\"");
        }
    }

    @Test
    void aDiffThatOnlyCorrectsSpellingIsTitledAsATypoFixInTheHistorysForm() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
            learn(memory, TestDiffs.change("r", "a".repeat(40), "Widget", "run", "Widget: Retry runs\n", null));
            learn(memory, TestDiffs.change("r", "b".repeat(40), "Widget", "walk", "Widget: Walk less\n", null));
            DiffedCommit c = TestDiffs.change("r", "c".repeat(40), "Widget", "run", null, null);
            String path = "src/main/java/org/example/Widget.java";
            DiffedCommit typo = DiffedCommit.of(c.commit(), c.files(), 1, "diff --git a/" + path + " b/" + path
                    + "\n--- a/" + path + "\n+++ b/" + path + "\n@@ -1,3 +1,3 @@\n /**\n-  * Runs the widget, optioanl retries\n"
                    + "+  * Runs the widget, optional retries\n   */\n", "", "mirror", null);

            // its neighbours by content retried runs; the diff corrects a spelling in a documentation comment
            assertThat(run(memory, typo).subject()).isEqualTo("Widget: Fix typo in Javadoc");
        }
    }
    @Test
    void aDiffThatOnlyMovesLinesIsTitledAsTheHistoryTitlesItsMoves() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
            learn(memory, TestDiffs.move("1".repeat(40), "Pack", "alpha", "beta", "Sort members\n"));
            learn(memory, TestDiffs.change("r", "2".repeat(40), "Widget", "run", "Widget: Retry runs\n", null));
            learn(memory, TestDiffs.move("3".repeat(40), "Walk", "gamma", "delta", "Sort members.\n"));
            DiffedCommit other = TestDiffs.change("r", "4".repeat(40), "Widget", "walk", "Widget: Walk less\n", null);
            learn(memory, other);
            DiffedCommit next = TestDiffs.move("5".repeat(40), "Widget", "run", "walk", null);
            // two earlier moves say too little: the neighbours by content answer
            assertThat(run(memory, next).subject()).doesNotContain("Sort");

            learn(memory, TestDiffs.move("6".repeat(40), "Tree", "epsilon", "zeta", "Sort methods\n"));
            // three, all "Sort …": the diff is one more
            assertThat(run(memory, next).subject()).isEqualTo("Widget: Sort members");
        }
    }

    @Test
    void theExemplarsOwnScopeStaysWhereTheVotedOneWouldCutItsDescription() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
            // vuejs/core's "fix(types): calling readonly() with ref() should return Readonly<Ref<T>>", in plain words
            String whole = "keep every retry of the widget run when all its runners stop";
            learn(memory, TestDiffs.change("r", "1".repeat(40), "Widget", "run", "fix(types): " + whole + "\n", null));
            learn(memory, TestDiffs.change("r", "2".repeat(40), "Widget", "walk", "fix(reactivity): walk less\n", null));
            learn(memory, TestDiffs.change("r", "3".repeat(40), "Widget", "jump", "fix(reactivity): jump more\n", null));

            Draft d = run(memory, TestDiffs.change("r", "4".repeat(40), "Widget", "run", null, null));

            // the neighbours vote "reactivity", which would leave "… should return": the exemplar's scope keeps it whole
            assertThat(d.subject()).isEqualTo("fix(types): " + whole);
        }
    }

    private static DiffedCommit undo(DiffedCommit original, String sha, String message) {
        String reversed = original.patch().replace("\n-    void", "\nTMP").replace("\n+    void", "\n-    void")
                .replace("\nTMP", "\n+    void");
        DiffedCommit c = TestDiffs.change("r", sha, "Version", "x", message, null);
        return DiffedCommit.of(c.commit(), original.files(), 1, reversed, "", "mirror", null);
    }

    @Test
    void anUndoIsNoRevertWhereTheHistoryTitlesItsUndosInItsOwnWords() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
            // jgit's cycle: a release commit, then "Prepare … builds" puts back exactly what it changed
            DiffedCommit release = TestDiffs.change("r", "a".repeat(40), "Version", "one", "JGit v1.0.0\n", null);
            learn(memory, release);
            learn(memory, undo(release, "b".repeat(40), "Prepare 1.1.0-SNAPSHOT builds\n"));
            DiffedCommit next = TestDiffs.change("r", "c".repeat(40), "Version", "two", "JGit v1.1.0\n", null);
            learn(memory, next);

            Draft d = run(memory, undo(next, "d".repeat(40), null));

            assertThat(d.subject()).doesNotStartWith("Revert");
            // where the earlier undo was titled as a revert, this one is too
            RepoKnowledge reverting = RepoKnowledge.fresh(engine, 1, 100);
            learn(reverting, release);
            learn(reverting, undo(release, "b".repeat(40), "Revert \"JGit v1.0.0\"\n"));
            learn(reverting, next);
            assertThat(run(reverting, undo(next, "d".repeat(40), null)).subject()).isEqualTo("Revert \"JGit v1.1.0\"");
        }
    }

    @Test
    void aRevertOfARevertIsTitledAsTheChangeItPutsBack() {
        assertThat(RevertRule.subject("Improve footer parsing")).isEqualTo("Revert \"Improve footer parsing\"");
        // a revert's revert puts the change back, titled as the change was (13 of 16 re-applications read)
        assertThat(RevertRule.subject("Revert \"Improve footer parsing\""))
                .isEqualTo("Improve footer parsing");
        // GitHub's revert quotes the pull request's title: the squash suffix's old number is not carried
        assertThat(RevertRule.subject("Pin to Node.js 21 on CI (#16451)"))
                .isEqualTo("Revert \"Pin to Node.js 21 on CI\"");
        assertThat(RevertRule.subject("Revert \"Pin to Node.js 21 on CI\" (#16452)"))
                .isEqualTo("Pin to Node.js 21 on CI");
    }

    @Test
    void keepsTicketFormsButNeverInventsOrCarriesTheirNumbers() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
            learn(memory, TestDiffs.change("r", "1".repeat(40), "Scheduler", "plan", "[FLINK-100][runtime] Plan slots lazily\n", null));
            learn(memory, TestDiffs.change("r", "2".repeat(40), "Checkpoint", "take", "[FLINK-200][state] Take checkpoints async\n", null));

            Draft other = run(memory, TestDiffs.change("r", "3".repeat(40), "Scheduler", "assign", null, null));
            assertThat(other.subject()).startsWith("[FLINK-XXXXX][runtime] ");

            // the previous commit touched the same file under a ticket: its number is still not this change's
            Draft follow = run(memory, TestDiffs.change("r", "4".repeat(40), "Checkpoint", "finish", null, null));
            assertThat(follow.subject()).startsWith("[FLINK-XXXXX][state] ");
        }
    }

    @Test
    void takesMergeSubjectsOnlyForMerges() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
            learn(memory, merge("1", "Widget", "run", "Merge branch 'topic'\n", "b"));
            learn(memory, TestDiffs.change("r", "2".repeat(40), "Widget", "walk", "Widget: Retry runs\n", null));

            Draft d = run(memory, TestDiffs.change("r", "3".repeat(40), "Widget", "run", null, null));

            assertThat(d.subject()).doesNotStartWith("Merge");
            assertThat(d.exemplars()).doesNotContain("1".repeat(40));
        }
    }

    @Test
    void aMergeNamesTheCommitItMergesNotTheExemplarsBranch() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
            learn(memory, merge("1", "Widget", "run", "Merge branch 'gen-split'\n", "b"));
            learn(memory, TestDiffs.change("r", "2".repeat(40), "Widget", "walk", "Widget: Retry runs\n", null));

            Draft d = run(memory, merge("3", "Widget", "run", null, "c"));

            assertThat(d.subject()).isEqualTo("Merge commit 'ccccccc'");
            assertThat(d.exemplars()).contains("1".repeat(40));
        }
    }

    /** A merge commit of {@code Widget}'s {@code member}, whose second parent is {@code merged} repeated. */
    private static DiffedCommit merge(String sha, String file, String member, String message, String merged) {
        DiffedCommit change = TestDiffs.change("r", sha.repeat(40), file, member, message, null);
        return DiffedCommit.of(io.commitflow.event.TestEvents.withParents(change.commit(),
                List.of("a".repeat(40), merged.repeat(40))), change.files(), 1, change.patch(), "", "mirror", null);
    }

    @Test
    void aYoungRepositoryDrawsOnItsFleetInItsOwnForm() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge young = RepoKnowledge.fresh(engine, 0, 100);
            learn(young, TestDiffs.change("a", "1".repeat(40), "Scheduler", "plan", "Plan slots lazily\n", null));
            learn(young, TestDiffs.change("a", "2".repeat(40), "Checkpoint", "take", "Take checkpoints async\n", null));
            RepoKnowledge fleet = RepoKnowledge.fresh(engine, 1, 100);
            learn(fleet, TestDiffs.change("b", "3".repeat(40), "Widget", "run", "Widget: Retry runs when busy\n", null));
            learn(fleet, TestDiffs.change("b", "4".repeat(40), "Gadget", "load", "Gadget: Load lazily\n", null));
            DiffedCommit d = TestDiffs.change("a", "5".repeat(40), "Widget", "run", null, null);
            DiffFeatures f = DiffFeatures.of(d);
            RetrievalGenerator g = new RetrievalGenerator();

            Draft alone = g.generate(d, f, young, young.vector(f.terms()));
            Draft withFleet = g.generate(d, f, young, young.vector(f.terms()), fleet);

            assertThat(alone.exemplars()).doesNotContain("3".repeat(40));
            assertThat(withFleet.exemplars()).first().isEqualTo("3".repeat(40));
            // the fleet's words, this repository's form: it names no area before its subjects
            assertThat(withFleet.subject()).startsWith("Retry runs when busy");
            assertThat(g.generate(d, f, young, young.vector(f.terms()), fleet)).as("deterministic").isEqualTo(withFleet);
        }
    }

    @Test
    void aShortHistoryTakesTheScopeTheMainFilesFolderNamesWhereTheVotedOneIsNoFolder() {
        RepoStyle style = new RepoStyle();
        for (String subject : List.of("fix(runtime-core): a", "fix(runtime-core): b", "fix(reactivity): c",
                "fix(reactivity): d", "feat(types): e", "chore(deps): update vitest to 2.1.0")) {
            style.learn(Subject.parse(subject), List.of("x"));
        }
        Conventions conventions = style.conventions();
        DiffedCommit d = DiffedCommit.of(io.commitflow.event.TestEvents.commit("r", "a".repeat(40)), List.of(
                file("packages/runtime-core/__tests__/apiWatch.spec.ts", 3, 1),
                file("packages/runtime-core/src/apiWatch.ts", 10, 2)), 2, "", "", "mirror", null);

        assertThat(RetrievalGenerator.withPathScope(Subject.parse("fix(reactivity): track watchers"), d, conventions)
                .render()).isEqualTo("fix(runtime-core): track watchers");
        assertThat(RetrievalGenerator.withPathScope(Subject.parse("feat(types): type watchers"), d, conventions)
                .render()).isEqualTo("feat(runtime-core): type watchers");
        Subject folder = Subject.parse("fix(runtime-core): track watchers");
        assertThat(RetrievalGenerator.withPathScope(folder, d, conventions)).as("a folder already").isSameAs(folder);
        Subject bump = Subject.parse("chore(deps): update vitest to 2.1.1");
        assertThat(RetrievalGenerator.withPathScope(bump, d, conventions)).as("a bump keeps its scope").isSameAs(bump);
        Subject none = Subject.parse("fix: track watchers");
        assertThat(RetrievalGenerator.withPathScope(none, d, conventions)).as("no scope voted").isSameAs(none);
        DiffedCommit docs = DiffedCommit.of(io.commitflow.event.TestEvents.commit("r", "b".repeat(40)),
                List.of(file("docs/guide/watchers.md", 3, 1)), 1, "", "", "mirror", null);
        Subject other = Subject.parse("fix(reactivity): document watchers");
        assertThat(RetrievalGenerator.withPathScope(other, docs, conventions)).as("no folder the history scopes")
                .isSameAs(other);
    }

    @Test
    void aFeaturesScopeNamedAfterAChangedFileStays() {
        RepoStyle style = new RepoStyle();
        for (String subject : List.of("fix(runtime-dom): a", "fix(runtime-dom): b", "fix(custom-element): c",
                "fix(hydration): d")) {
            style.learn(Subject.parse(subject), List.of("x"));
        }
        Conventions conventions = style.conventions();
        DiffedCommit d = DiffedCommit.of(io.commitflow.event.TestEvents.commit("r", "a".repeat(40)), List.of(
                file("packages/runtime-dom/__tests__/customElement.spec.ts", 3, 1),
                file("packages/runtime-dom/src/apiCustomElement.ts", 10, 2)), 2, "", "", "mirror", null);

        Subject feature = Subject.parse("fix(custom-element): batch prop patching");
        assertThat(RetrievalGenerator.withPathScope(feature, d, conventions)).as("apiCustomElement.ts")
                .isSameAs(feature);
        assertThat(RetrievalGenerator.withPathScope(Subject.parse("fix(hydration): batch prop patching"), d,
                conventions).render()).as("a feature whose file this diff does not change")
                .isEqualTo("fix(runtime-dom): batch prop patching");
        assertThat(Conventions.namesAFile("dom", d.files())).as("too short to name a file").isFalse();
    }

    private static io.commitflow.git.FileChange file(String path, int added, int deleted) {
        return new io.commitflow.git.FileChange("MODIFY", path, path, false, added, deleted, 0, "100644", "100644");
    }

    @Test
    void aRepositoryOfFiftyCommitsNoLongerUsesItsFleet() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge grown = RepoKnowledge.fresh(engine, 0, 100);
            for (int i = 0; i < RetrievalGenerator.YOUNG; i++) {
                learn(grown, TestDiffs.change("a", String.format("%040d", i), "Scheduler" + i, "plan",
                        "Plan slots lazily " + i + "\n", null));
            }
            RepoKnowledge fleet = RepoKnowledge.fresh(engine, 1, 100);
            learn(fleet, TestDiffs.change("b", "f".repeat(40), "Widget", "run", "Widget: Retry runs when busy\n", null));
            DiffedCommit d = TestDiffs.change("a", "e".repeat(40), "Widget", "run", null, null);
            DiffFeatures f = DiffFeatures.of(d);
            RetrievalGenerator g = new RetrievalGenerator();

            assertThat(g.generate(d, f, grown, grown.vector(f.terms()), fleet))
                    .isEqualTo(g.generate(d, f, grown, grown.vector(f.terms())));
        }
    }

    @Test
    void writesTheTestsTitleWhereTheHistorysSubjectsSayTheirTestsTitles() {
        String[] behaviours = {"keep the order of slots", "warn on a missing prop", "skip empty fragments",
                "reuse the cached vnode", "flush watchers in order", "hydrate a teleport target", "merge class bindings",
                "resolve async components", "unwrap refs in templates", "track map keys", "stop nested effects",
                "patch keyed children"};
        for (boolean mirrored : new boolean[] {true, false}) {
            try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
                RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
                RetrievalGenerator g = new RetrievalGenerator();
                for (int i = 0; i < behaviours.length; i++) {
                    // a history whose subjects say their tests' titles, or one whose subjects say something else
                    String subject = mirrored ? "Should " + behaviours[i] : "Rework the renderer, part " + i;
                    DiffedCommit d = TestDiffs.withTest(TestDiffs.change("r", String.format("%040d", i), "Renderer", "patch",
                            subject + "\n", null), "should " + behaviours[i]);
                    DiffFeatures f = DiffFeatures.of(d);
                    g.observe(d, f, memory, memory.vector(f.terms()), d.commit().message());
                    memory.learn(d, f, memory.vector(f.terms()), d.commit().message());
                }
                assertThat(memory.model().style.conventions().subjectIsTestTitle()).isEqualTo(mirrored);
                DiffedCommit d = TestDiffs.withTest(TestDiffs.change("r", "e".repeat(40), "Renderer", "patch", null, null),
                        "should not leak the current instance");
                DiffFeatures f = DiffFeatures.of(d);
                String subject = g.generate(d, f, memory, memory.vector(f.terms())).subject();
                if (mirrored) {
                    assertThat(subject).isEqualTo("Should not leak the current instance");
                } else {
                    assertThat(subject).doesNotContain("leak");
                }
            }
        }
    }

    @Test
    void writesTheChangeLogEntryWhereTheHistorySaysItsEntriesInItsSubjects() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
            learnEntries(memory, 0, 3, false, false);
            DiffedCommit d = TestDiffs.withEntry(TestDiffs.change("r", "e".repeat(40), "Pair", "swap", null, null),
                    "Add Pair.swap() for the other order.");

            assertThat(run(memory, d).subject()).isEqualTo("Add Pair.swap() for the other order");
        }
    }

    @Test
    void writesTheEntrysIssueAsTheTicketWhereTheHistoryDoes() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
            learnEntries(memory, 0, 3, true, false);
            DiffedCommit plain = TestDiffs.withEntry(TestDiffs.change("r", "e".repeat(40), "Pair", "swap", null, null),
                    "Add Pair.swap() for the other order.", "LANG-99");
            assertThat(run(memory, plain).subject()).as("the history never wrote its entries' issues")
                    .isEqualTo("Add Pair.swap() for the other order");

            learnEntries(memory, 3, 6, true, true);
            // three of six is not more than half
            assertThat(run(memory, plain).subject()).isEqualTo("Add Pair.swap() for the other order");
            learnEntries(memory, 6, 7, true, true);
            assertThat(run(memory, plain).subject()).isEqualTo("[LANG-99] Add Pair.swap() for the other order");
            DiffedCommit none = TestDiffs.withEntry(TestDiffs.change("r", "f".repeat(40), "Pair", "swap", null, null),
                    "Add Pair.swap() for the other order.");
            assertThat(run(memory, none).subject()).as("an entry without an issue has no ticket to write")
                    .isEqualTo("Add Pair.swap() for the other order");
        }
    }

    /**
     * Commits {@code from} to {@code to - 1}, each adding the change-log entry "Add RangeN.fit(int)." and saying it in
     * its subject; the entry naming the issue LANG-(10 + N) when {@code issues}, and the subject opening with it when
     * {@code titled}.
     */
    private static void learnEntries(RepoKnowledge memory, int from, int to, boolean issues, boolean titled) {
        for (int i = from; i < to; i++) {
            String issue = issues ? "LANG-" + (10 + i) : null;
            String subject = (titled ? "[" + issue + "] " : "") + "Add Range" + i + ".fit(int)\n";
            learn(memory, TestDiffs.withEntry(TestDiffs.change("r", String.format("%040d", i), "Range" + i, "fit", subject,
                    null), "Add Range" + i + ".fit(int).", issue));
        }
    }

    @Test
    void writesTheDiffsOwnDescriptionWhenNoExemplarIsSupportedByIt() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
            learn(memory, TestDiffs.change("r", "1".repeat(40), "Widget", "run", "Bump widget to 2.0.0\n", null));
            learn(memory, TestDiffs.change("r", "2".repeat(40), "Widget", "run", "Revert \"Widget: Retry runs\"\n", null));

            Draft d = run(memory, TestDiffs.change("r", "3".repeat(40), "Widget", "run", null, null));

            // the bump names a version this diff lacks, and a revert fits only the diff that undoes its commit
            assertThat(d.subject()).isEqualTo("Update Widget in src/main/java/org/example");
            assertThat(d.exemplars()).isEmpty();

            // nor does a revert in the conventional form ("revert: fix(runtime-dom): ensure v-show respects …")
            learn(memory, TestDiffs.change("r", "4".repeat(40), "Widget", "run", "revert: retry runs in Widget\n",
                    null));
            assertThat(run(memory, TestDiffs.change("r", "5".repeat(40), "Widget", "run", null, null)).subject())
                    .doesNotContainIgnoringCase("retry runs");
        }
    }

    @Test
    void theDiffsOwnDescriptionTakesNoAreaThisDiffDoesNotTouch() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
            for (int i = 0; i < 4; i++) {
                learn(memory, docs(String.format("%040d", i), "CommitGraphWriter: Document format 1." + i + ".0\n",
                        "false", "true"));
            }
            Draft d = run(memory, docs("f".repeat(40), null, "true", "auto"));

            // jgit: the neighbours' area named a class this diff never mentions ("CommitGraphWriter: Update
            // config-options.md"); their subjects name versions it lacks, so the template's words stand, alone
            assertThat(d.exemplars()).as(d.subject()).isEmpty();
            assertThat(d.subject()).doesNotContain("CommitGraphWriter").contains("config-options");
        }
    }

    @Test
    void anExemplarLosesAVotedAreaTheDiffDoesNotTouchNotItsPlace() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
            for (int i = 0; i < 4; i++) {
                learn(memory, docs(String.format("%040d", i),
                        "CommitGraphWriter: Document the writeChangedPaths option\n", "v" + i, "v" + (i + 1)));
            }
            Draft d = run(memory, docs("f".repeat(40), null, "true", "auto"));

            // the exemplar's own words are this diff's; only the area the neighbours vote is not
            assertThat(d.exemplars()).as(d.subject()).isNotEmpty();
            assertThat(d.subject()).isEqualTo("Document the writeChangedPaths option");
        }
    }

    private static DiffedCommit docs(String sha, String message, String from, String to) {
        io.commitflow.event.CommitEvent c = io.commitflow.event.TestEvents.withMessage(
                io.commitflow.event.TestEvents.commit("r", sha), message);
        String path = "Documentation/config-options.md";
        String patch = "diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path + "\n@@ -1,2 +1,2 @@\n"
                + " | option | default |\n-| gc.writeChangedPaths | " + from + " |\n+| gc.writeChangedPaths | " + to + " |\n";
        return DiffedCommit.of(c, List.of(new io.commitflow.git.FileChange("MODIFY", path, path, false, 1, 1, 0, "100644",
                "100644")), 1, patch, "", "mirror", null);
    }

    @Test
    void aJudgeChoosesWithHindsightOnlyAmongTheExemplarsTheGeneratorWouldAccept() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 100);
            List<String> subjects = List.of("Retry runs in Widget", "Let Widget retry its runs",
                    "Widget retries each run", "Bump widget to 2.0.0");
            for (int i = 0; i < subjects.size(); i++) {
                learn(memory, TestDiffs.change("r", String.valueOf(i + 1).repeat(40), "Widget", "run",
                        subjects.get(i) + "\n", null));
            }
            DiffedCommit d = TestDiffs.change("r", "9".repeat(40), "Widget", "run", null, null);
            DiffFeatures f = DiffFeatures.of(d);
            RetrievalGenerator generator = new RetrievalGenerator();
            Draft first = generator.generate(d, f, memory, memory.vector(f.terms()), null);
            List<Draft> drafts = generator.exemplarDrafts(d, f, memory, memory.vector(f.terms()), null);
            assertThat(drafts.get(0)).isEqualTo(first);

            // every supported exemplar is scored, finished as the draft would be: the judge's favourite is taken
            // whatever the ranker's order
            for (String wanted : subjects.subList(0, 3)) {
                String judged = Evaluation.hindsight(drafts, first.subject(), s -> s.equals(wanted) ? 1 : 0);
                assertThat(judged).isEqualTo(wanted);
            }
            // but never one the generator turns down: the bump names a version this diff lacks
            String bump = Evaluation.hindsight(drafts, first.subject(), s -> s.contains("2.0.0") ? 1 : 0);
            assertThat(bump).doesNotContain("2.0.0").isEqualTo(first.subject());
        }
    }

    @Test
    void fallsBackToTheTemplateWithoutHistoryAndIsDeterministic() {
        try (CpuEngine a = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION); CpuEngine b = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            DiffedCommit d = TestDiffs.change("r", "5".repeat(40), "Widget", "run", null, null);
            Draft first = run(RepoKnowledge.fresh(a, 0, 10), d);
            assertThat(first.subject()).isEqualTo("Update Widget in src/main/java/org/example");
            assertThat(first.backend()).isEqualTo("retrieval");
            assertThat(run(RepoKnowledge.fresh(b, 3, 10), d)).isEqualTo(first);
        }
    }
}
