package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import org.junit.jupiter.api.Test;

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
