package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OwnTicketTest {
    private static final String TEST = "diff --git a/core/src/test/java/RelOptRulesTest.java b/core/src/test/java/RelOptRulesTest.java\n"
            + "--- a/core/src/test/java/RelOptRulesTest.java\n+++ b/core/src/test/java/RelOptRulesTest.java\n"
            + "@@ -10,3 +10,8 @@ class RelOptRulesTest {\n"
            + "   /** Test case for <a href=\"https://issues.apache.org/jira/browse/CALCITE-5418\">[CALCITE-5418]</a>. */\n"
            + "   @Test void testOld() {\n";

    @Test
    void theOneTicketTheDiffAddsIsItsOwn() {
        String patch = TEST + "+  /** Test case for <a href=\"https://issues.apache.org/jira/browse/CALCITE-7592\">\n"
                + "+   * [CALCITE-7592] Add expression support for FETCH</a>. */\n+  @Test void testFetch() {\n";
        assertThat(OwnTicket.in(patch, "CALCITE-")).as("named twice on added lines, once new").isEqualTo("CALCITE-7592");
        assertThat(OwnTicket.in(patch, "FLINK-")).as("another project's key").isNull();
        assertThat(OwnTicket.in(TEST + "+  // see [CALCITE-5418]\n", "CALCITE-"))
                .as("a ticket the diff's kept lines already name is an old one").isNull();
        assertThat(OwnTicket.in(TEST + "+  // [CALCITE-7592] and [CALCITE-7593]\n", "CALCITE-"))
                .as("two new tickets: which one is the change's would be a guess").isNull();
        assertThat(OwnTicket.in(TEST + "+  // [XCALCITE-7592], CALCITE-7592a\n", "CALCITE-"))
                .as("a key inside a longer word, a number inside a longer one").isNull();
    }

    @Test
    void theTicketsTitleIsWhatFollowsItInItsComment() {
        assertThat(OwnTicket.title(TEST + "+  /**\n+   * Test case for\n"
                + "+   * <a href=\"https://issues.apache.org/jira/browse/CALCITE-7488\">[CALCITE-7488]\n"
                + "+   * ProjectJoinTransposeRule produces row-type mismatch when pushing\n"
                + "+   * a compound expression through an outer Join</a>. */\n+  @Test void testPush() {\n", "CALCITE-7488"))
                .as("continued on the comment's lines up to the link's end")
                .isEqualTo("ProjectJoinTransposeRule produces row-type mismatch when pushing a compound expression "
                        + "through an outer Join");
        assertThat(OwnTicket.title(TEST + "+  /** Test case for <a href=\"https://x/CALCITE-7698\">[CALCITE-7698]</a>;\n"
                + "+   * RelDecorrelator throws AssertionError when decorrelating. */\n", "CALCITE-7698"))
                .as("after the link that holds the ticket alone, to the sentence's end")
                .isEqualTo("RelDecorrelator throws AssertionError when decorrelating");
        assertThat(OwnTicket.title(TEST + "+# [CALCITE-7334] Compiling the generated Java code throws an exception when\n"
                + "+# a scalar sub-query is used in the SELECT list\n+!use scott\n", "CALCITE-7334"))
                .isEqualTo("Compiling the generated Java code throws an exception when a scalar sub-query is used in "
                        + "the SELECT list");
        assertThat(OwnTicket.title(TEST + "+    // Test case for [CALCITE-7704]\n+    f.checkScalar(\"x\", 1);\n",
                "CALCITE-7704")).as("no title: code follows").isNull();
        assertThat(OwnTicket.title(TEST + "+   * [CALCITE-7486]\n+   * https://issues.apache.org/jira/browse/CALCITE-7486\n",
                "CALCITE-7486")).as("an address is no title").isNull();
        assertThat(OwnTicket.title(TEST, "CALCITE-5418")).as("only on an added line").isNull();
    }

    @Test
    void theOpenNumberIsFilledOnlyWhereTheHistoryCarriesItsDiffsTickets() {
        String patch = TEST + "+  // Test case for [CALCITE-7592] Add expression support for FETCH\n";
        String placeholder = "CALCITE-" + StyleApplier.TICKET_PLACEHOLDER;
        Subject open = new Subject(List.of(placeholder), placeholder, false, "", "", false, "",
                "Add expression support for FETCH", false);
        RepoStyle style = new RepoStyle();
        for (int i = 0; i < RepoStyle.OWN_TICKETS; i++) {
            style.learnOwnTicket(Subject.parse("[CALCITE-" + (100 + i) + "] Fix " + i),
                    TEST + "+  // [CALCITE-" + (i < 2 ? 1 : 100 + i) + "]\n");
        }
        assertThat(style.conventions().ownTicketIsSubjects()).as("eight of ten").isTrue();
        assertThat(OwnTicket.fill(open, patch, style.conventions()).render())
                .isEqualTo("[CALCITE-7592] Add expression support for FETCH");
        style.learnOwnTicket(Subject.parse("[CALCITE-200] Fix a"), TEST + "+  // [CALCITE-1]\n");
        assertThat(style.conventions().ownTicketIsSubjects()).as("eight of eleven").isFalse();
        assertThat(OwnTicket.fill(open, patch, style.conventions())).isSameAs(open);
    }
}
