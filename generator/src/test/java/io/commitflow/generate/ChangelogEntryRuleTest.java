package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ChangelogEntryRuleTest {
    private static void learnEntries(Rules r, int from, int to, boolean titled) {
        for (int i = from; i < to; i++) {
            String issue = "LANG-" + (10 + i);
            String subject = (titled ? "[" + issue + "] " : "") + "Add Range" + i + ".fit(int)\n";
            r.learn(TestDiffs.withEntry(TestDiffs.change("r", String.format("%040d", i), "Range" + i, "fit", subject, null),
                    "Add Range" + i + ".fit(int).", issue));
        }
    }

    @Test
    void theEntryIsTheSubjectWithItsIssueAsTheTicketWhereTheHistoryWritesThemSo() {
        try (Rules r = new Rules()) {
            learnEntries(r, 0, 3, false);
            DiffedCommit d = TestDiffs.withEntry(TestDiffs.change("r", "e".repeat(40), "Pair", "swap", null, null),
                    "Add Pair.swap() for the other order.", "LANG-99");
            SubjectRule.Written w = new ChangelogEntryRule().write(r.composition(d));
            assertThat(w.subject().description()).startsWith("Add Pair.swap() for the other order");
            assertThat(w.subject().ticket()).as("the history never wrote its entries' issues").isEmpty();
            assertThat(w.exemplars()).isNotEmpty();
            DiffedCommit past = TestDiffs.withEntry(TestDiffs.change("r", "d".repeat(40), "Pair", "swap", null, null),
                    "Added Pair.swap() for the other order.", "LANG-98");
            assertThat(new ChangelogEntryRule().write(r.composition(past)).subject().description())
                    .as("where the subjects are the entries, the entry's own words").startsWith("Added Pair.swap()");

            learnEntries(r, 3, 7, true);
            assertThat(new ChangelogEntryRule().write(r.composition(d)).subject().ticket()).isEqualTo("LANG-99");
        }
    }

    @Test
    void anEntryThatSumsUpAReleasesBumpsSaysThisCommitsStep() {
        try (Rules r = new Rules()) {
            learnEntries(r, 0, 3, false);
            String pom = "diff --git a/pom.xml b/pom.xml\n--- a/pom.xml\n+++ b/pom.xml\n@@ -4,3 +4,3 @@\n"
                    + "-    <version>103</version>\n+    <version>104</version>\n";
            DiffedCommit bump = TestDiffs.withEntry(TestDiffs.change("r", "b".repeat(40), "Pair", "swap", null, null),
                    "Bump org.apache.commons:commons-parent from 93 to 104.");
            DiffedCommit d = DiffedCommit.of(bump.commit(), bump.files(), 1, pom + bump.patch(), "", "mirror", null);
            assertThat(new ChangelogEntryRule().write(r.composition(d)).subject().description())
                    .as("the change log's line moves from 93 to 103 to 93 to 104: the pom's step is 103 to 104")
                    .isEqualTo("Bump org.apache.commons:commons-parent from 103 to 104");
        }
    }

    @Test
    void anEntryThatScoredBetterThanTheNeighboursIsTheSubjectWhereItSaysWhatTheDiffDoes() {
        try (Rules r = new Rules()) {
            r.learn(TestDiffs.change("r", "1".repeat(40), "Widget", "run", "Widget: Retry runs\n", null));
            DiffedCommit d = TestDiffs.withEntry(TestDiffs.change("r", "e".repeat(40), "Pair", "swap", null, null),
                    "[pairs] Add Pair.swap() for the other order.", null);
            assertThat(new ChangelogEntryRule().write(r.composition(d))).as("no lesson yet").isNull();

            RepoStyle style = r.memory.model().style;
            for (int i = 0; i < RepoStyle.TITLE_LESSONS - 1; i++) {
                style.learnEntry(0.4, 0.2);
            }
            assertThat(style.conventions().entryBeatsNeighbours()).as("nine lessons").isFalse();
            style.learnEntry(0.4, 0.2);
            assertThat(style.conventions().entryBeatsNeighbours()).isTrue();
            assertThat(style.conventions().subjectIsChangelogEntry()).as("the subjects never said the entries").isFalse();

            SubjectRule.Written w = new ChangelogEntryRule().write(r.composition(d));
            assertThat(w.subject().description()).startsWith("Add Pair.swap() for the other order");
            assertThat(w.subject().tags()).as("a change log's tag, in a history that writes none").isEmpty();
            DiffedCommit past = TestDiffs.withEntry(TestDiffs.change("r", "d".repeat(40), "Pair", "swap", null, null),
                    "Added Pair.swap() for the other order.", null);
            assertThat(new ChangelogEntryRule().write(r.composition(past)).subject().description())
                    .as("the entry in the subjects' mood, the imperative").startsWith("Add Pair.swap() for the other order");
            assertThat(ChangelogEntryRule.asWritten("Fixed a leak in Pair.swap()", List.of(), false))
                    .as("what a lesson scores is what is written").isEqualTo("Fix a leak in Pair.swap()");
            assertThat(ChangelogEntryRule.asWritten("Fixed a leak in Pair.swap()", List.of(), true))
                    .as("an author who writes the past tense").isEqualTo("Fixed a leak in Pair.swap()");
            assertThat(ChangelogEntryRule.asWritten("Removing a pair no longer swaps it", List.of(), false))
                    .as("a gerund is what the sentence is about").isEqualTo("Removing a pair no longer swaps it");

            DiffedCommit logOnly = DiffedCommit.of(d.commit(), List.of(new FileChange("MODIFY", "src/changes/changes.xml",
                    "src/changes/changes.xml", false, 1, 0, 0, "100644", "100644")), 1, d.patch(), "", "mirror", null);
            assertThat(new ChangelogEntryRule().write(r.composition(logOnly))).as("a change to the log alone").isNull();
            DiffedCommit link = TestDiffs.withEntry(TestDiffs.change("r", "f".repeat(40), "Pair", "swap", null, null),
                    "BUG #2177", null);
            assertThat(ChangelogEntryRule.entry(link)).as("a link's text, no sentence").isNull();
            assertThat(ChangelogEntryRule.entry(d)).isEqualTo("[pairs] Add Pair.swap() for the other order");

            for (int i = 0; i < 30; i++) {
                style.learnEntry(0.1, 0.2);
            }
            assertThat(style.conventions().entryBeatsNeighbours()).as("the neighbours scored better since").isFalse();
        }
    }

    @Test
    void aLongEntryIsShortenedAsAWriterWouldBeforeItIsCut() {
        String chain = "Installing a dependency chain whose packages carry peer dependencies no longer expands"
                + " exponentially with the depth of the chain";
        assertThat(ChangelogEntryRule.shortened(chain, 60))
                .as("the clause that says which chain, up to the predicate")
                .isEqualTo("Installing a dependency chain no longer expands exponentially with the depth of the chain");
        assertThat(SubjectLength.cut(ChangelogEntryRule.shortened(chain, 62), 62))
                .isEqualTo("Installing a dependency chain no longer expands exponentially");
        assertThat(SubjectLength.cut(chain, 62)).as("the cut alone leaves no predicate")
                .isEqualTo("Installing a dependency chain whose packages carry peer");

        shortens(55, "Dependency resolution is faster: package metadata is now filtered once per packument",
                "Dependency resolution is faster", "what the colon opens");
        String quotedColon = "Fix a crash when `# fmt: skip` is used on one-line `async def` statements in a class";
        shortens(55, quotedColon, quotedColon, "a colon in code is no colon of the sentence's");
        shortens(60, "Avoid calling ``@property`` (and other instance descriptors) during fixture discovery",
                "Avoid calling ``@property`` during fixture discovery", "an aside that says more");
        String gloss = "Add a cargo feature (`vendored-libgit2`) to build with the libgit2 that the crate vendors";
        shortens(60, gloss, gloss, "a name's gloss stays");
        String verbFirst = "Fixes a bug that caused the parser to fail, which now no longer happens on any input";
        shortens(50, verbFirst, verbFirst, "a sentence that opens with its verb keeps its clauses");
        String adjective = "A failed packument request now reports the status the registry returned instead";
        shortens(50, adjective, adjective, "an adjective of the phrase itself stays");
        assertThat(ChangelogEntryRule.shortened("Short enough", 50)).isEqualTo("Short enough");
    }

    @Test
    void anAreaThePatchLacksIsCutBackToAFolderOfAChangedFile() {
        DiffedCommit base = TestDiffs.change("r", "e".repeat(40), "Pair", "swap", null, null);
        String path = "crates/ignore/src/dir.rs";
        String patch = "diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path
                + "\n@@ -1 +1 @@\n-old\n+new\n";
        DiffedCommit d = DiffedCommit.of(base.commit(), List.of(new FileChange("MODIFY", "crates/ignore/src/dir.rs",
                "crates/ignore/src/dir.rs", false, 1, 1, 0, "100644", "100644")), 1, patch, "", "mirror", null);
        Subject voted = Subject.parse("ignore/types: skip a BOM at the start of a gitignore file");
        assertThat(ChangelogEntryRule.withAreaInPatch(voted, d).render())
                .isEqualTo("ignore: skip a BOM at the start of a gitignore file");
        assertThat(ChangelogEntryRule.withAreaInPatch(Subject.parse("printer/json: skip a BOM"), d).render())
                .as("no folder of the diff's").isEqualTo("skip a BOM");
        assertThat(ChangelogEntryRule.withAreaInPatch(Subject.parse("ignore/src: skip a BOM"), d).render())
                .as("an area the patch has stays").isEqualTo("ignore/src: skip a BOM");
    }

    private static void shortens(int max, String entry, String expected, String why) {
        assertThat(ChangelogEntryRule.shortened(entry, max)).as(why).isEqualTo(expected);
    }

    /** {@code d} with a new change-log fragment whose entry opens with a link to issue {@code issue}. */
    private static DiffedCommit withFragment(DiffedCommit d, int issue, String entry) {
        String path = "changelog/fix_" + issue + ".md";
        String log = "diff --git a/" + path + " b/" + path + "\nnew file mode 100644\n--- /dev/null\n+++ b/" + path
                + "\n@@ -0,0 +1 @@\n+* [#" + issue + "](https://github.com/o/r/issues/" + issue + "): " + entry
                + " ([@someone][])\n";
        return DiffedCommit.of(d.commit(), d.files(), 1, d.patch() + log, "", "mirror", null);
    }

    @Test
    void aFragmentsIssueTakesTheTagTheHistoryGivesItsIssues() {
        try (Rules r = new Rules()) {
            for (int i = 0; i < 4; i++) {
                String entry = "Fix false positives for `Style/Range" + i + "`.";
                r.learn(withFragment(TestDiffs.change("r", String.format("%040d", i), "Range" + i, "fit",
                        "[Fix #" + (10 + i) + "] Fix false positives for `Style/Range" + i + "`\n", null), 10 + i, entry));
            }
            assertThat(r.memory.model().style.conventions().subjectIsChangelogEntry()).isTrue();
            assertThat(r.memory.model().style.conventions().entryIssueIsTicket()).isTrue();
            DiffedCommit d = withFragment(TestDiffs.change("r", "e".repeat(40), "Pair", "swap", null, null), 99,
                    "Fix false positives for `Style/Pair`.");
            assertThat(new ChangelogEntryRule().write(r.composition(d)).subject().render())
                    .as("the neighbours' tag with this diff's issue, and their code quotes")
                    .isEqualTo("[Fix #99] Fix false positives for `Style/Pair`");
        }
    }

    @Test
    void anEntrysCodeQuotesStayOnlyWhereTheNeighboursQuoteCode() {
        try (Rules r = new Rules()) {
            learnEntries(r, 0, 3, false);
            DiffedCommit d = TestDiffs.withEntry(TestDiffs.change("r", "e".repeat(40), "Pair", "swap", null, null),
                    "Add `Pair.swap()` for the other order.", null);
            assertThat(new ChangelogEntryRule().write(r.composition(d)).subject().description())
                    .startsWith("Add Pair.swap() for the other order");
        }
    }

    /** A commit that changes the change log alone, adding {@code entry}, with its real subject (null: none). */
    private static DiffedCommit logOnly(String sha, String entry, String issue, String subject) {
        DiffedCommit d = TestDiffs.withEntry(TestDiffs.change("r", sha, "Pair", "swap", subject, null), entry, issue);
        String log = d.patch().substring(d.patch().indexOf("diff --git a/src/changes/"));
        return DiffedCommit.of(d.commit(), List.of(new FileChange("MODIFY", "src/changes/changes.xml",
                "src/changes/changes.xml", false, 1, 0, 0, "100644", "100644")), 1, log, "", "mirror", null);
    }

    @Test
    void aDiffOfTheLogAloneSaysItsEntryWhereTheHistorysSuchDiffsDid() {
        try (Rules r = new Rules()) {
            // the code changes' subjects are not their entries: the history does not say its entries everywhere
            for (int i = 0; i < 4; i++) {
                r.learn(TestDiffs.withEntry(TestDiffs.change("r", String.format("%040d", i), "Range" + i, "fit",
                        "Javadoc\n", null), "Add Range" + i + ".fit(int).", null));
            }
            DiffedCommit d = logOnly("e".repeat(40), "Fix Pair.swap() for the other order.", "LANG-99", null);
            assertThat(new ChangelogEntryRule().write(r.composition(d))).as("nothing learned of such diffs").isNull();
            for (int i = 0; i < 3; i++) {
                r.learn(logOnly(String.format("%040d", 10 + i), "Fix Range" + i + ".fit(long).", null,
                        "Fix Range" + i + ".fit(long)\n"));
            }
            assertThat(r.memory.model().style.conventions().subjectIsChangelogEntry()).isFalse();
            assertThat(r.memory.model().style.conventions().logOnlyIsEntry()).isTrue();
            assertThat(new ChangelogEntryRule().write(r.composition(d)).subject().description())
                    .startsWith("Fix Pair.swap() for the other order");
            DiffedCommit code = TestDiffs.withEntry(TestDiffs.change("r", "d".repeat(40), "Pair", "swap", null, null),
                    "Fix Pair.swap() for the other order.", null);
            assertThat(new ChangelogEntryRule().write(r.composition(code))).as("a code change with its entry").isNull();
        }
        try (Rules r = new Rules()) {
            for (int i = 0; i < 3; i++) {
                r.learn(logOnly(String.format("%040d", 10 + i), "Fix Range" + i + ".fit(long).", null,
                        "Update changes.xml\n"));
            }
            assertThat(r.memory.model().style.conventions().logOnlyIsEntry()).as("such diffs said something else")
                    .isFalse();
            assertThat(new ChangelogEntryRule().write(r.composition(logOnly("e".repeat(40),
                    "Fix Pair.swap() for the other order.", null, null)))).isNull();
        }
    }

    @Test
    void noEntryOrAHistoryThatDoesNotSayItsEntriesIsNotThisRules() {
        try (Rules r = new Rules()) {
            learnEntries(r, 0, 3, false);
            DiffedCommit plain = TestDiffs.change("r", "e".repeat(40), "Pair", "swap", null, null);
            assertThat(new ChangelogEntryRule().write(r.composition(plain))).isNull();
        }
        try (Rules r = new Rules()) {
            r.learn(TestDiffs.change("r", "1".repeat(40), "Widget", "run", "Widget: Retry runs\n", null));
            DiffedCommit d = TestDiffs.withEntry(TestDiffs.change("r", "e".repeat(40), "Pair", "swap", null, null),
                    "Add Pair.swap() for the other order.", null);
            assertThat(new ChangelogEntryRule().write(r.composition(d))).isNull();
        }
    }
}
