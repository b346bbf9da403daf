package io.commitflow.generate;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.TestEvents;
import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The recurring-form rule: a tool's subject, the same each time but for a commit id, written with the id left open. */
class RecurringFormRuleTest {
    /** A commit by {@code author} that rewrites the sponsors line of README.md, its message {@code message}. */
    private static DiffedCommit sponsors(int i, String author, String message) {
        CommitEvent c = TestEvents.commit("r", String.format("%040x", 0xabc000 + i));
        c = new CommitEvent(c.tenant(), c.repo(), c.sha(), c.parents(), author, c.ts() + i, message, c.patch(),
                c.traceId(), c.origin());
        String patch = "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -40,3 +40,3 @@\n"
                + " Thanks to our sponsors:\n-<!-- sponsors --><a href=\"https://example.org/u" + i + "\">u" + i
                + "</a><!-- sponsors -->\n+<!-- sponsors --><a href=\"https://example.org/u" + (i + 1) + "\">u" + (i + 1)
                + "</a><!-- sponsors -->\n";
        return DiffedCommit.of(c, List.of(new FileChange("MODIFY", "README.md", "README.md", false, 1, 1, 0, "100644",
                "100644")), 1, patch, "", "mirror", null);
    }

    private static String deploy(int i) {
        return "Deploying to main from @ acme/widget@" + String.format("%040x", 0x5eed00 + 7919L * i) + " \uD83D\uDE80\n";
    }

    @Test
    void aToolsFormIsWrittenWithTheCommitIdLeftOpen() {
        try (Rules r = new Rules()) {
            for (int i = 1; i <= 4; i++) {
                r.learn(sponsors(i, "site-bot", deploy(i)));
                r.learn(TestDiffs.change("r", String.format("%040d", 100 + i), "Widget" + i, "run",
                        "Retry widget " + i + " when busy\n", null));
            }
            DiffedCommit next = sponsors(9, "site-bot", null);
            String expected = "Deploying to main from @ acme/widget@" + RecurringFormRule.ID_PLACEHOLDER + " \uD83D\uDE80";
            SubjectRule.Written w = new RecurringFormRule().write(r.composition(next));
            assertThat(w).isNotNull();
            assertThat(w.whole().subject()).isEqualTo(expected);
            assertThat(w.whole().exemplars()).hasSize(3);
            DiffFeatures f = DiffFeatures.of(next);
            assertThat(r.generator.generate(next, f, r.memory, r.memory.vector(f.terms())).subject())
                    .as("ahead of the exemplars, whose old ids the checks turn down").isEqualTo(expected);

            assertThat(new RecurringFormRule().write(r.composition(sponsors(9, "Ada Lovelace", null))))
                    .as("another author's change of the same line").isNull();
        }
    }

    @Test
    void twoInstancesAreNoFormYet() {
        try (Rules r = new Rules()) {
            for (int i = 1; i <= 2; i++) {
                r.learn(sponsors(i, "site-bot", deploy(i)));
            }
            assertThat(new RecurringFormRule().write(r.composition(sponsors(9, "site-bot", null)))).isNull();
        }
    }

    @Test
    void aFormWithAnotherNumberOrOneTheNearestLeftIsLeftToTheOtherRules() {
        List<RepoKnowledge.Neighbor> counted = List.of(
                neighbour("Deploy 12 pages from 1a2b3c4d", "bot"), neighbour("Deploy 13 pages from 5e6f7a8b", "bot"),
                neighbour("Deploy 14 pages from 9c0d1e2f", "bot"));
        assertThat(RecurringFormRule.form(counted, "bot", List.of("README"))).as("the page count changes").isNull();
        List<RepoKnowledge.Neighbor> plain = List.of(neighbour("deps: update example dependencies", "bot"),
                neighbour("deps: update example dependencies", "bot"),
                neighbour("deps: update example dependencies", "bot"));
        assertThat(RecurringFormRule.form(plain, "bot", List.of("README"))).as("no id: the same words each time")
                .isEqualTo("deps: update example dependencies");
        List<RepoKnowledge.Neighbor> left = List.of(neighbour("pkg/brew: update tap", "bot"),
                neighbour("update brew tap", "bot"), neighbour("update brew tap", "bot"),
                neighbour("update brew tap", "bot"));
        assertThat(RecurringFormRule.form(left, "bot", List.of("README")))
                .as("a form the nearest neighbour no longer writes").isNull();
        List<RepoKnowledge.Neighbor> ids = List.of(neighbour("Deploy from 1a2b3c4d", "bot"),
                neighbour("Deploy from 5e6f7a8b", "bot"), neighbour("Deploy from 9c0d1e2f", "bot"),
                neighbour("Deploy from deadbeef", "bot"));
        assertThat(RecurringFormRule.masked("Deploy from deadbeef")).as("a word of hex letters is no id")
                .isEqualTo("Deploy from deadbeef");
        assertThat(RecurringFormRule.form(ids, "bot", List.of("README"))).isEqualTo("Deploy from \u0000");
        assertThat(RecurringFormRule.form(ids, "bot", List.of("README", "index"))).as("other files").isNull();
        assertThat(RecurringFormRule.form(ids, "", List.of("README"))).as("no author named").isNull();
    }

    @Test
    void aMaintainersUpdateIsOneFormWhateverItsPullRequestAndAFewFilesBesides() {
        List<String> files = List.of("pnpm-lock", "pnpm-workspace", "release", "ci", "codecov");
        List<RepoKnowledge.Neighbor> updates = List.of(
                neighbour("chore: update dependencies, Node.js, and GitHub Actions (#14006)", "ada", files),
                neighbour("chore: update dependencies, Node.js, and GitHub Actions (#13978)", "ada",
                        List.of("pnpm-lock", "pnpm-workspace", "release", "ci", "triage")),
                neighbour("chore: update dependencies, Node.js, and GitHub Actions (#13871)", "ada",
                        List.of("pnpm-lock", "pnpm-workspace", "release", "benchmark")));
        assertThat(RecurringFormRule.form(updates, "ada", files)).as("the number GitHub appends is no part of the form")
                .isEqualTo("chore: update dependencies, Node.js, and GitHub Actions");
        assertThat(RecurringFormRule.form(updates, "ada", List.of("pnpm-lock", "README", "index", "cli", "main")))
                .as("one file in common of nine").isNull();
        assertThat(RecurringFormRule.alike(List.of("README"), java.util.Set.of("README", "index")))
                .as("one file in common is no likeness").isFalse();
        assertThat(RecurringFormRule.alike(List.of("a", "b", "c"), java.util.Set.of("a", "b", "d"))).isTrue();
    }

    private static RepoKnowledge.Neighbor neighbour(String subject, String author, List<String> files) {
        return new RepoKnowledge.Neighbor(new IndexedCommit(0, "a".repeat(40), subject, files, new int[0],
                new float[0], new int[0], 0, 0, 0, null, false, author), 0.9f);
    }

    private static RepoKnowledge.Neighbor neighbour(String subject, String author) {
        return neighbour(subject, author, List.of("README"));
    }
}
