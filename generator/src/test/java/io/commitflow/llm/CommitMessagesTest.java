package io.commitflow.llm;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What any backend's reply becomes: subject 20–72, no trailing period, imperative, body wrapped at 72. */
class CommitMessagesTest {
    @Test
    void stripsFencesPreamblesLabelsAndTrailingPeriods() {
        var m = CommitMessages.clean("Here is a commit message:\n```\nCommit message: Added retries to PackWriter.\n\n"
                + "The pack writer now retries a failed write three times before it gives up on the pack.\n```\n").orElseThrow();
        assertThat(m.subject()).isEqualTo("Add retries to PackWriter");
        assertThat(m.body()).isEqualTo("The pack writer now retries a failed write three times before it gives\nup on the pack.");
    }

    @Test
    void takesTheFirstOfSeveralOptions() {
        assertThat(CommitMessages.clean("1. Fixes the lock leak in RefUpdate\n2. Fix lock handling\n3. Other").orElseThrow()
                .subject()).isEqualTo("Fix the lock leak in RefUpdate");
        assertThat(CommitMessages.clean("Option 1: Use a bounded queue for fetches\nOption 2: …").orElseThrow().subject())
                .isEqualTo("Use a bounded queue for fetches");
    }

    @Test
    void keepsSubjectsBetween20And72Characters() {
        String longSubject = "Update the pack writer so that it retries failed writes and reports every failure to the caller";
        String s = CommitMessages.clean(longSubject).orElseThrow().subject();
        assertThat(s.length()).isLessThanOrEqualTo(72).isGreaterThanOrEqualTo(20);
        assertThat(longSubject).startsWith(s);
        assertThat(CommitMessages.clean("Fix")).as("too short to describe anything").isEmpty();
        assertThat(CommitMessages.clean("  \n ")).isEmpty();
        assertThat(CommitMessages.clean("```\n```")).isEmpty();
    }

    @Test
    void wrapsTheBodyAt72ButLeavesListsAndCode() {
        String body = CommitMessages.clean("Add a bounded queue to the fetch connection\n\n"
                + "word ".repeat(40) + "\n\n- keep this list item exactly as it is even if it is long enough to wrap\n"
                + "    code stays too").orElseThrow().body();
        for (String line : body.split("\n")) {
            if (!line.startsWith("- ") && !line.startsWith("    ")) {
                assertThat(line.length()).isLessThanOrEqualTo(72);
            }
        }
        assertThat(body).contains("- keep this list item exactly as it is even if it is long enough to wrap", "    code stays too");
    }

    @Test
    void imperativeMoodForCommonVerbs() {
        assertThat(CommitMessages.imperative("Added x")).isEqualTo("Add x");
        assertThat(CommitMessages.imperative("fixes y")).isEqualTo("fix y");
        assertThat(CommitMessages.imperative("Removing z")).isEqualTo("Remove z");
        assertThat(CommitMessages.imperative("Updated w")).isEqualTo("Update w");
        assertThat(CommitMessages.imperative("Bump v")).isEqualTo("Bump v");
        assertThat(CommitMessages.imperative("Refactored u")).isEqualTo("Refactor u");
    }
}
