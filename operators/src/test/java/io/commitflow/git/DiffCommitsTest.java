package io.commitflow.git;

import io.commitflow.event.DeadLetter;
import io.commitflow.event.DeadLetters;
import io.commitflow.event.TestEvents;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DiffCommitsTest {
    @TempDir
    Path root;

    private static final String PATCH = """
            diff --git a/x.txt b/x.txt
            --- a/x.txt
            +++ b/x.txt
            @@ -1 +1 @@
            -a
            +b
            """;

    @Test
    void diffsFromMirrorAndInlinePatchAndRejectsTheRest() throws Exception {
        RevCommit c;
        try (GitFixture fx = new GitFixture(root, "app.git")) {
            c = fx.git.commit().add("README.md", "hi\n").create();
        }
        try (OneInputStreamOperatorTestHarness<io.commitflow.event.CommitEvent, DiffedCommit> h =
                     ProcessFunctionTestHarnesses.forProcessFunction(new DiffCommits(root.toString(), DiffBudget.DEFAULT))) {
            h.processElement(TestEvents.commit("app", c.name(), 0), 0);
            h.processElement(TestEvents.withPatch(TestEvents.commit("elsewhere", "1".repeat(40), 1), PATCH), 0);
            h.processElement(TestEvents.commit("app", "2".repeat(40), 2), 0);
            h.processElement(TestEvents.commit("nope", c.name(), 3), 0);
            h.processElement(TestEvents.commit("../etc", c.name(), 4), 0);

            assertThat(h.extractOutputValues()).extracting(DiffedCommit::source).containsExactly("mirror", "inline");
            List<DeadLetter> dead = h.getSideOutput(DeadLetters.TAG).stream().map(StreamRecord::getValue).toList();
            assertThat(dead).extracting(DeadLetter::reason).containsExactly("UNKNOWN_COMMIT", "NO_MIRROR", "BAD_REPO_NAME");
            assertThat(dead).extracting(DeadLetter::stage).containsOnly("diff");
            assertThat(dead).extracting(d -> d.origin().offset()).containsExactly(2L, 3L, 4L);
        }
    }

    @Test
    void deadLettersEveryNameThatLeavesTheMirrorRoot() throws Exception {
        java.nio.file.Path mirrors = java.nio.file.Files.createDirectory(root.resolve("mirrors"));
        try (GitFixture outside = new GitFixture(root, "outside.git")) {
            outside.git.commit().add("secret", "s\n").create();
        }
        java.nio.file.Files.createSymbolicLink(mirrors.resolve("escape.git"), root.resolve("outside.git"));
        java.nio.file.Files.createDirectories(mirrors.resolve("plain-folder"));
        String sha = "1".repeat(40);
        try (var h = ProcessFunctionTestHarnesses.forProcessFunction(new DiffCommits(mirrors.toString(), DiffBudget.DEFAULT))) {
            for (String repo : List.of("../outside", "a/../../outside", "/etc", "escape", "plain-folder", "missing")) {
                h.processElement(TestEvents.commit(repo, sha), 0);
            }

            assertThat(h.extractOutputValues()).isEmpty();
            assertThat(h.getSideOutput(DeadLetters.TAG)).extracting(r -> r.getValue().reason())
                    .containsExactly("BAD_REPO_NAME", "BAD_REPO_NAME", "BAD_REPO_NAME", "BAD_REPO_NAME", "NO_MIRROR", "NO_MIRROR");
            assertThat(h.getSideOutput(DeadLetters.TAG)).extracting(r -> r.getValue().detail())
                    .anySatisfy(d -> assertThat(d).contains("symbolic link"));
        }
    }

    @Test
    void withoutMirrorRootAcceptsOnlyInlinePatches() throws Exception {
        try (var h = ProcessFunctionTestHarnesses.forProcessFunction(new DiffCommits(null, DiffBudget.DEFAULT))) {
            h.processElement(TestEvents.withPatch(TestEvents.commit("r", "1".repeat(40), 0), PATCH), 0);
            h.processElement(TestEvents.commit("r", "2".repeat(40), 1), 0);

            assertThat(h.extractOutputValues()).hasSize(1);
            assertThat(h.getSideOutput(DeadLetters.TAG)).extracting(r -> r.getValue().reason())
                    .containsExactly("NO_DIFF_SOURCE");
        }
    }
}
