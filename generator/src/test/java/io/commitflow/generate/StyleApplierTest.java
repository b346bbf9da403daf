package io.commitflow.generate;

import io.commitflow.event.TestEvents;
import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StyleApplierTest {
    @org.junit.jupiter.api.Test
    void recasesOnlyAPlainFirstWordNeverANameOrAVersion() {
        org.assertj.core.api.Assertions.assertThat(StyleApplier.recase("fix the lexer", true)).isEqualTo("Fix the lexer");
        org.assertj.core.api.Assertions.assertThat(StyleApplier.recase("Javadoc: tweaks", false)).isEqualTo("javadoc: tweaks");
        org.assertj.core.api.Assertions.assertThat(StyleApplier.recase("don't retry", true)).isEqualTo("Don't retry");
        for (String name : List.of("v7.21.7", "org.apache.commons.lang3.Foo fails", "README tweaks", "ArrayUtils: fix",
                "getFoo() returns null", "iOS build", "2024 update", "eval --history takes several sizes")) {
            org.assertj.core.api.Assertions.assertThat(StyleApplier.recase(name, true)).isEqualTo(name);
            org.assertj.core.api.Assertions.assertThat(StyleApplier.recase(name, false)).isEqualTo(name);
        }
    }

    private static RepoKnowledge.Neighbor neighbour(String subject, float score) {
        return new RepoKnowledge.Neighbor(commit(subject, List.of()), score);
    }

    private static IndexedCommit commit(String subject, List<String> files) {
        return new IndexedCommit(0, "a".repeat(40), subject, files, new int[0], new float[0], new int[0], 0, 0, 0,
                null, false, "");
    }

    /** The conventions of a history of these subjects, each changing the files {@code files}. */
    private static Conventions conventionsOf(List<String> files, String... subjects) {
        RepoStyle style = new RepoStyle();
        for (String s : subjects) {
            style.learn(Subject.parse(s), files);
        }
        return style.conventions();
    }

    private static String styled(String subject, List<RepoKnowledge.Neighbor> nn, Conventions conventions,
                                 List<String> files) {
        return StyleApplier.styled(Subject.parse(subject), nn, RepoKnowledge.subjects(nn), conventions, files, files,
                "chore", null).render();
    }

    @Test
    void namesTheAreaAfterTheMainCodeFile() {
        Conventions conventions = conventionsOf(List.of("RevWalk"), "RevWalk: Free flags", "RevWalk: Reset state");
        assertThat(styled("fix the walker", List.of(), conventions, List.of("PackWriterTest", "PackWriter")))
                .isEqualTo("PackWriter: Fix the walker");
        assertThat(StyleApplier.mainCodeFile(List.of("WidgetIT", "WidgetTests"))).as("only tests")
                .isEqualTo("WidgetIT");
    }

    @Test
    void anAreaOfItsOwnKeepsItsCase() {
        Conventions capitals = conventionsOf(List.of("Mirror"), "Fix the walker", "Add a flag", "Reset state");
        assertThat(styled("commitflow mirror: clone on first sight", List.of(), capitals, List.of("MirrorSync")))
                .isEqualTo("commitflow mirror: clone on first sight");
        assertThat(styled("clone on first sight", List.of(), capitals, List.of("MirrorSync")))
                .isEqualTo("Clone on first sight");
        assertThat(styled("ignore \"PR: Breaking Change\" label", List.of(), capitals, List.of("MirrorSync")))
                .as("quoted text is no area").isEqualTo("Ignore \"PR: Breaking Change\" label");
    }

    @Test
    void aMergeKeepsTheSubjectGitWrites() {
        Conventions areas = conventionsOf(List.of("RevWalk"), "RevWalk: Free flags", "RevWalk: Reset state");
        assertThat(styled("Merge branch 'gen-split'", List.of(), areas, List.of("GitPatchWriter")))
                .isEqualTo("Merge branch 'gen-split'");
        assertThat(styled("Merge pull request #12 from a/b", List.of(), areas, List.of("GitPatchWriter")))
                .isEqualTo("Merge pull request #12 from a/b");
        assertThat(styled("Merge the walker's flags", List.of(), areas, List.of("RevWalk")))
                .as("a description that only starts with the word").isEqualTo("RevWalk: Merge the walker's flags");
    }

    @Test
    void aScopeIsSpeltAsTheHistorySpellsItMost() {
        Conventions conventions = conventionsOf(List.of("apiCustomElement"), "fix(custom-elements): a",
                "fix(custom-element): b", "fix(custom-element): c");
        assertThat(styled("fix(custom-elements): reflect the default", List.of(), conventions,
                List.of("apiCustomElement"))).isEqualTo("fix(custom-element): reflect the default");
    }

    @Test
    void anAreaIsNamedAfterCodeNotABuildFileBesideIt() {
        DiffedCommit tests = DiffedCommit.of(TestEvents.commit("r", "a".repeat(40)), List.of(
                change("org.eclipse.jgit.test/tst/org/eclipse/jgit/util/BlockListTest.java", 12, 2),
                change("org.eclipse.jgit.test/BUILD", 6, 1),
                change("org.eclipse.jgit.test/tst/org/eclipse/jgit/util/RefMapTest.java", 2, 2)), 3, "", "", "m", null);
        assertThat(StyleApplier.codeFiles(tests)).containsExactly("BlockListTest", "RefMapTest");
        assertThat(StyleApplier.mainCodeFile(StyleApplier.codeFiles(tests))).isEqualTo("BlockListTest");
        DiffedCommit build = DiffedCommit.of(TestEvents.commit("r", "a".repeat(40)), List.of(
                change("pom.xml", 12, 2), change("src/main/java/a/Walk.java", 1, 1)), 2, "", "", "m", null);
        assertThat(StyleApplier.codeFiles(build)).as("the main file is no code").isEmpty();
    }

    private static FileChange change(String path, int added, int deleted) {
        return new FileChange("MODIFY", path, path, false, added, deleted, 0, "100644", "100644");
    }

    @Test
    void anInterfaceChangedWithItsImplementationNamesTheArea() {
        assertThat(StyleApplier.mainCodeFile(List.of("MultiPackIndexV1", "MultiPackIndexTest", "MultiPackIndex")))
                .isEqualTo("MultiPackIndex");
        assertThat(StyleApplier.mainCodeFile(List.of("PackObjectSizeIndexWriter", "PackObjectSizeIndex")))
                .isEqualTo("PackObjectSizeIndex");
        assertThat(StyleApplier.mainCodeFile(List.of("PackReverseIndex", "Pack"))).as("too short to be its family")
                .isEqualTo("PackReverseIndex");
        assertThat(StyleApplier.mainCodeFile(List.of("MergeTools", "MergeTool"))).as("not at a word boundary")
                .isEqualTo("MergeTools");
        assertThat(StyleApplier.mainCodeFile(List.of("RevWalk", "RevWalkUtils"))).as("the main file is shorter")
                .isEqualTo("RevWalk");
    }

    @Test
    void namesTheAreaWhateverShareOfTheNeighboursDoesAndSaysItOnce() {
        Conventions conventions = conventionsOf(List.of("RevWalk"), "RevWalk: Free flags", "RevWalk: Reset state",
                "Fix the build");
        List<RepoKnowledge.Neighbor> nn = List.of(neighbour("Fix the build", 0.9f), neighbour("Fix a leak", 0.8f),
                neighbour("PackWriter: Fix a leak", 0.1f));
        assertThat(styled("Fix a leak", nn, conventions, List.of("DirCacheCheckout")))
                .as("one neighbour in three has an area").isEqualTo("DirCacheCheckout: Fix a leak");
        assertThat(styled("Fix NPE in DirCacheCheckout", nn, conventions, List.of("DirCacheCheckout")))
                .isEqualTo("DirCacheCheckout: Fix NPE");
        assertThat(styled("Make DirCacheCheckout reusable", nn, conventions, List.of("DirCacheCheckout")))
                .as("named inside the description: no area").isEqualTo("Make DirCacheCheckout reusable");
        assertThat(styled("Apache MINA sshd client: fix password authentication", nn, conventions,
                List.of("AuthenticationLogger"))).as("an area of its own")
                .isEqualTo("Apache MINA sshd client: fix password authentication");
    }

    @Test
    void takesTheTypeTheNeighboursVoteFor() {
        Conventions conventions = conventionsOf(List.of("Pack"), "fix(core): retry packs", "feat(core): add packs");
        List<RepoKnowledge.Neighbor> nn = List.of(neighbour("feat(core): add packs", 0.6f),
                neighbour("fix(core): retry packs", 0.5f), neighbour("fix(core): close packs", 0.5f));
        assertThat(styled("feat(core): add walks", nn, conventions, List.of("Walk")))
                .isEqualTo("fix(core): add walks");
        assertThat(styled("feat(core): add walks", nn.subList(0, 2), conventions, List.of("Walk")))
                .as("the exemplar's own type when it weighs most").isEqualTo("feat(core): add walks");
    }

    @Test
    void votesTheScopeAmongTheNeighboursOfTheChosenType() {
        Conventions conventions = conventionsOf(List.of("Pack"), "fix(core): retry packs", "chore: release");
        // all five, each by its similarity squared: "fix" wins the type (0.50 to 0.41), and the empty scope would
        // win among all (0.50 to 0.41)
        List<RepoKnowledge.Neighbor> nn = List.of(neighbour("fix(core): retry packs", 0.5f),
                neighbour("fix(core): close packs", 0.4f), neighbour("fix: close walks", 0.3f),
                neighbour("chore: bump deps", 0.45f), neighbour("chore: tidy", 0.45f));
        assertThat(styled("fix(core): retry walks", nn, conventions, List.of("Walk")))
                .as("the fixes vote for a fix's scope").isEqualTo("fix(core): retry walks");
        List<RepoKnowledge.Neighbor> chores = List.of(neighbour("chore(deps): bump deps", 0.35f),
                neighbour("fix(core): close packs", 0.3f));
        assertThat(styled("fix(core): retry walks", chores, conventions, List.of("Walk")))
                .as("a chore's scope from the chores").isEqualTo("chore(deps): retry walks");
    }

    @Test
    void anEmptyVoteLeavesTheExemplarsOwnScope() {
        Conventions conventions = conventionsOf(List.of("Pack"), "fix(core): retry packs", "fix: close packs");
        // the bare fixes outweigh the exemplar (0.50 to 0.36): they say a scope is not always written, not that
        // this subject has none
        List<RepoKnowledge.Neighbor> nn = List.of(neighbour("fix(headers): clear packs", 0.6f),
                neighbour("fix: close packs", 0.5f), neighbour("fix: tidy packs", 0.5f));
        assertThat(styled("fix(headers): clear walks", nn, conventions, List.of("Walk")))
                .isEqualTo("fix(headers): clear walks");
        assertThat(styled("fix: clear walks", nn, conventions, List.of("Walk"))).as("a bare exemplar stays bare")
                .isEqualTo("fix: clear walks");
        List<RepoKnowledge.Neighbor> scoped = List.of(neighbour("fix(headers): clear packs", 0.5f),
                neighbour("fix(core): close packs", 0.6f), neighbour("fix(core): tidy packs", 0.5f));
        assertThat(styled("fix(headers): clear walks", scoped, conventions, List.of("Walk")))
                .as("a scope the neighbours vote for still wins").isEqualTo("fix(core): clear walks");
    }

    @Test
    void aNearNeighboursFormOutweighsSeveralFarOnes() {
        Conventions conventions = conventionsOf(List.of("Pack"), "fix(core): retry packs", "fix(dom): close packs");
        // by similarity, dom would win (1.0 to 0.9); squared, the near one does (0.81 to 0.50): in a young
        // repository every commit is a neighbour, and a linear vote is the most frequent scope
        List<RepoKnowledge.Neighbor> nn = List.of(neighbour("fix(core): retry packs", 0.9f),
                neighbour("fix(dom): close packs", 0.5f), neighbour("fix(dom): tidy packs", 0.5f));
        assertThat(styled("fix(dom): retry walks", nn, conventions, List.of("Walk"))).isEqualTo("fix(core): retry walks");
    }

    @Test
    void aDependencyUpdateKeepsTheExemplarsOwnForm() {
        Conventions conventions = conventionsOf(List.of("Pack"), "fix(teleport): retry packs", "chore(deps): update x");
        List<RepoKnowledge.Neighbor> nn = List.of(neighbour("fix(teleport): retry packs", 0.9f),
                neighbour("fix(teleport): close packs", 0.8f), neighbour("chore(deps): update vitest to ^2.0.0", 0.3f));
        assertThat(styled("chore(deps): update vitest to 2.1.1", nn, conventions, List.of("package")))
                .as("vuejs/core's fixes near a package.json do not make a bump a fix")
                .isEqualTo("chore(deps): update vitest to 2.1.1");
        assertThat(styled("chore(deps): retry walks", nn, conventions, List.of("Walk")))
                .as("anything else: the neighbours' vote").isEqualTo("fix(teleport): retry walks");
        assertThat(styled("release: v3.5.20", nn, conventions, List.of("CHANGELOG")))
                .as("nor a release").isEqualTo("release: v3.5.20");
        assertThat(styled("release: vue-router@4.1.0", nn, conventions, List.of("CHANGELOG")))
                .isEqualTo("release: vue-router@4.1.0");
    }

    @Test
    void aSeldomTaggingHistoryKeepsAnExemplarsOwnWordTags() {
        Conventions conventions = conventionsOf(List.of("RevWalk"), "RevWalk: Free flags", "RevWalk: Reset state",
                "PackWriter: Close packs", "[releng] Bump japicmp base version");
        assertThat(styled("[releng] Bump japicmp base version", List.of(), conventions, List.of("RevWalk")))
                .as("its own tag, and no area beside it").isEqualTo("[releng] Bump japicmp base version");
        assertThat(styled("[LANG-1448] Normalize varargs examples", List.of(), conventions, List.of("RevWalk")))
                .as("a ticket is no word tag").isEqualTo("RevWalk: Normalize varargs examples");
    }

    @Test
    void givesADiffOfOnlyTestsTheTypeTheHistoryGivesSuchDiffs() {
        RepoStyle style = new RepoStyle();
        for (int i = 0; i < 10; i++) {
            style.learn(Subject.parse("test(core): cover packs"), List.of("PackTest"), PathKind.TEST);
        }
        Conventions conventions = style.conventions();
        List<RepoKnowledge.Neighbor> fixes = List.of(neighbour("fix(core): retry packs", 0.6f),
                neighbour("test(core): cover packs", 0.2f));
        String habit = conventions.habitualType(PathKind.TEST);
        assertThat(habit).isEqualTo("test");
        String test = StyleApplier.styled(Subject.parse("fix(core): retry walks"), fixes,
                RepoKnowledge.subjects(fixes), conventions, List.of("WalkTest"), List.of("WalkTest"), "chore", habit).render();
        assertThat(test).isEqualTo("test(core): retry walks");
        String source = StyleApplier.styled(Subject.parse("fix(core): retry walks"), fixes,
                RepoKnowledge.subjects(fixes), conventions, List.of("Walk"), List.of("Walk"), "chore", null).render();
        assertThat(source).as("a diff of source: the neighbours' vote").isEqualTo("fix(core): retry walks");
    }

    @Test
    void anExemplarWithoutThePlainTicketItsNeighboursWriteTakesTheirForm() {
        Conventions conventions = conventionsOf(List.of("Log"), "KAFKA-100: Trim the log", "KAFKA-200: Roll segments",
                "MINOR: Fix a typo", "KAFKA-300: Fix the flaky test");
        List<RepoKnowledge.Neighbor> tickets = List.of(neighbour("KAFKA-200: Roll segments", 0.9f),
                neighbour("MINOR: Fix a typo", 0.5f), neighbour("Move the log", 0.3f));
        assertThat(styled("Move LogLoader to storage", tickets, conventions, List.of("LogLoader")))
                .isEqualTo("KAFKA-XXXXX: Move LogLoader to storage");
        List<RepoKnowledge.Neighbor> minor = List.of(neighbour("MINOR: Fix a typo", 0.9f),
                neighbour("KAFKA-200: Roll segments", 0.5f));
        assertThat(styled("Fix the javadoc of Log", minor, conventions, List.of("Log")))
                .isEqualTo("MINOR: Fix the javadoc of Log");
        List<RepoKnowledge.Neighbor> plain = List.of(neighbour("Move the log", 0.9f),
                neighbour("KAFKA-200: Roll segments", 0.5f));
        assertThat(styled("Move LogLoader to storage", plain, conventions, List.of("LogLoader")))
                .as("the neighbours vote for none").isEqualTo("Move LogLoader to storage");
    }

    @Test
    void anExemplarsWordPrefixInAHistoryWithoutAreasIsOneVoteAmongTheNeighboursForms() {
        Conventions conventions = conventionsOf(List.of("Log"), "KAFKA-100: Trim the log", "KAFKA-200: Roll segments",
                "MINOR: Fix a typo", "KAFKA-300: Fix the flaky test");
        assertThat(conventions.usesArea()).as("one subject in four names a word prefix").isFalse();
        // the nearer neighbour's form wins: a ticket, MINOR, or none
        Map<String, String> byNearest = Map.of("KAFKA-200: Roll segments", "KAFKA-XXXXX: Fix the javadoc of Log",
                "MINOR: Fix a typo", "MINOR: Fix the javadoc of Log", "Move the log", "Fix the javadoc of Log");
        byNearest.forEach((nearest, expected) -> {
            String other = nearest.startsWith("KAFKA") ? "MINOR: Fix a typo" : "KAFKA-200: Roll segments";
            List<RepoKnowledge.Neighbor> nn = List.of(neighbour(nearest, 0.9f), neighbour(other, 0.5f));
            assertThat(styled("MINOR: Fix the javadoc of Log", nn, conventions, List.of("Log")))
                    .as("nearest: %s", nearest).isEqualTo(expected);
        });
    }

    @Test
    void aHistoryThatSeldomWritesAreasKeepsTheExemplarsWhereAThirdOfItsNeighboursWriteIt() {
        Conventions conventions = conventionsOf(List.of("url.c"), "url: ensure minimum components", "Fix the parser",
                "Add a test", "Update the docs");
        assertThat(conventions.usesArea()).as("one subject in four names an area").isFalse();
        String exemplar = "url: ensure minimum components for formatting";
        List<RepoKnowledge.Neighbor> near = List.of(neighbour("url: ensure minimum components", 0.9f),
                neighbour("Fix the parser", 0.9f), neighbour("Add a test", 0.5f));
        assertThat(styled(exemplar, near, conventions, List.of("url.c")))
                .as("43% of the weight writes it: kept, in the exemplar's own case").isEqualTo(exemplar);
        List<RepoKnowledge.Neighbor> far = List.of(neighbour("url: ensure minimum components", 0.5f),
                neighbour("Fix the parser", 0.9f), neighbour("Add a test", 0.9f));
        assertThat(styled(exemplar, far, conventions, List.of("url.c")))
                .as("13%: dropped, in the history's case").isEqualTo("Ensure minimum components for formatting");
        List<RepoKnowledge.Neighbor> ci = List.of(neighbour("ci: fix the build", 0.9f), neighbour("Add a test", 0.9f));
        assertThat(styled("ci: update centos builds", ci, conventions, List.of("main.yml")))
                .as("a bare type is one more area").isEqualTo("ci: update centos builds");
        List<RepoKnowledge.Neighbor> other = List.of(neighbour("tests: fix the build", 0.9f), neighbour("Add a test", 0.2f));
        assertThat(styled("ci: update centos builds", other, conventions, List.of("main.yml")))
                .as("another area is no vote for this one").isEqualTo("Update centos builds");
    }

    @Test
    void keepsTheTicketFormWithAPlaceholderNeverAnOldNumber() {
        Conventions conventions = conventionsOf(List.of("Scheduler"), "[FLINK-100][runtime] Plan slots lazily",
                "[FLINK-200] Take it");
        List<RepoKnowledge.Neighbor> nn = List.of(neighbour("[FLINK-100][runtime] Plan slots lazily", 0.5f));
        assertThat(styled("[FLINK-100][runtime] Plan slots lazily", nn, conventions, List.of("Scheduler")))
                .isEqualTo("[FLINK-XXXXX][runtime] Plan slots lazily");
        assertThat(styled("[FLINK-100] Plan slots lazily", nn, conventions, List.of("Scheduler")))
                .as("not the exemplar's number either").isEqualTo("[FLINK-XXXXX] Plan slots lazily");
    }

    @Test
    void aVersionUpdateStaysUntaggedInATaggedHistory() {
        Conventions conventions = conventionsOf(List.of("pom.xml"), "[FLINK-100][runtime] Plan slots lazily",
                "[FLINK-200][table] Take it", "[FLINK-300][build] Bump Jackson to 2.12.1", "Update version to 1.15-SNAPSHOT");
        List<RepoKnowledge.Neighbor> nn = List.of(neighbour("[FLINK-100][table-runtime] Move the runtime", 0.5f));
        assertThat(styled("Update version to 1.16-SNAPSHOT", nn, conventions, List.of("pom.xml")))
                .as("the release tool's form, not the neighbours' tags").isEqualTo("Update version to 1.16-SNAPSHOT");
        assertThat(styled("Add a lexer", nn, conventions, List.of("pom.xml")))
                .as("any other untagged exemplar takes the voted form")
                .isEqualTo("[FLINK-XXXXX][table-runtime] Add a lexer");
        List<RepoKnowledge.Neighbor> tagged = List.of(neighbour("[FLINK-100][table-runtime] Move the runtime", 0.9f),
                neighbour("[FLINK-37144][Connectors/Kafka] Update version to 4.0-SNAPSHOT", 0.3f));
        assertThat(styled("Update version to 4.1-SNAPSHOT", tagged, conventions, List.of("pom.xml")))
                .as("a history that tags its version updates: the form of the neighbour that is one")
                .isEqualTo("[FLINK-XXXXX][Connectors/Kafka] Update version to 4.1-SNAPSHOT");
    }

    @Test
    void votesTheTagsWhateverTheTicketsNumbers() {
        Conventions conventions = conventionsOf(List.of("Docs"), "[FLINK-100][docs] Fix links", "[hotfix][docs] Typo",
                "[FLINK-300][build] Bump Jackson to 2.12.1");
        List<RepoKnowledge.Neighbor> nn = List.of(neighbour("[hotfix][docs] Fix a typo", 0.6f),
                neighbour("[FLINK-23044][docs] Fix typos", 0.5f), neighbour("[FLINK-22740][docs] Drop links", 0.5f));
        assertThat(styled("Fix typo", nn, conventions, List.of("Docs")))
                .as("two tickets' [docs] outvote one [hotfix][docs]").isEqualTo("[FLINK-XXXXX][docs] Fix typo");
    }

    @Test
    void writesTheRepositorysCaseAndPeriod() {
        Conventions conventions = conventionsOf(List.of("Parser"), "fix the parser.", "add a lexer.",
                "Drop the old one");
        assertThat(styled("Add tests", List.of(), conventions, List.of("Parser"))).isEqualTo("add tests.");
        assertThat(styled("Add tests.", List.of(), new RepoStyle().conventions(), List.of("Parser")))
                .as("no history: as written").isEqualTo("Add tests.");
    }
}
