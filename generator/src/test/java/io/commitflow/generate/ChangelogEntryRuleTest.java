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

            learnEntries(r, 3, 7, true);
            assertThat(new ChangelogEntryRule().write(r.composition(d)).subject().ticket()).isEqualTo("LANG-99");
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
