package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OwnTitleRuleTest {
    /** {@code d} with a test whose comment cites {@code ticket} and its title. */
    private static DiffedCommit citing(DiffedCommit d, String ticket, String title) {
        String path = "core/src/test/java/RelOptRulesTest.java";
        return Rules.withPatch(d, d.patch() + "diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/"
                + path + "\n@@ -10,1 +10,4 @@ class RelOptRulesTest {\n   @Test void testOld() {\n+  /** Test case for\n"
                + "+   * <a href=\"https://issues.apache.org/jira/browse/" + ticket + "\">[" + ticket + "]\n+   * " + title
                + "</a>. */\n+  @Test void testNew() {\n");
    }

    private static void learn(Rules r, int from, int to, boolean saysTitle) {
        for (int i = from; i < to; i++) {
            String ticket = "CALCITE-" + (100 + i);
            String title = "Rule" + i + " drops the filter of a join";
            String subject = "[" + ticket + "] " + (saysTitle ? title : "Fix rule" + i + " for joins");
            r.learn(citing(TestDiffs.change("r", String.format("%040d", i), "Rule" + i, "apply", subject + "\n", null),
                    ticket, title));
        }
    }

    @Test
    void theDiffsOwnTicketAndItsTitleAreTheSubjectWhereTheHistorySaysItsTitles() {
        try (Rules r = new Rules()) {
            learn(r, 0, RepoStyle.OWN_TICKETS, true);
            assertThat(r.memory.model().style.conventions().ownTicketIsSubjects()).isTrue();
            assertThat(r.memory.model().style.conventions().ownTitleIsSubjects()).isTrue();
            DiffedCommit d = citing(TestDiffs.change("r", "e".repeat(40), "Pair", "swap", null, null), "CALCITE-7592",
                    "Add expression support for FETCH");
            SubjectRule.Written w = new OwnTitleRule().write(r.composition(d));
            assertThat(w.subject().render()).isEqualTo("[CALCITE-7592] Add expression support for FETCH");
            DiffedCommit none = TestDiffs.change("r", "f".repeat(40), "Pair", "swap", null, null);
            assertThat(new OwnTitleRule().write(r.composition(none))).as("no ticket of its own").isNull();
        }
    }

    @Test
    void notWhereTheSubjectsSaySomethingElse() {
        try (Rules r = new Rules()) {
            learn(r, 0, RepoStyle.OWN_TICKETS, false);
            assertThat(r.memory.model().style.conventions().ownTicketIsSubjects()).isTrue();
            assertThat(r.memory.model().style.conventions().ownTitleIsSubjects()).isFalse();
            DiffedCommit d = citing(TestDiffs.change("r", "e".repeat(40), "Pair", "swap", null, null), "CALCITE-7592",
                    "Add expression support for FETCH");
            assertThat(new OwnTitleRule().write(r.composition(d))).isNull();
            assertThat(r.composition(d).styled(Subject.parse("Fix the pair")).ticket())
                    .as("the ticket still the diff's own").isEqualTo("CALCITE-7592");
        }
    }
}
