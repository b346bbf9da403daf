package io.commitflow.diff;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.TestEvents;
import io.commitflow.git.DiffBudget;
import io.commitflow.git.DiffedCommit;
import io.commitflow.git.GitFixture;
import io.commitflow.ingest.DeadLetters;
import io.commitflow.push.RetryPolicy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link DedupAndDiff} on real mirrors made with JGit: what it diffs, what it rejects, and what waits for the mirror. */
class DedupAndDiffTest {
    @TempDir
    Path root;

    private static final RetryPolicy NO_WAIT = new RetryPolicy(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ZERO);
    private static final RetryPolicy WAIT_30S = new RetryPolicy(Duration.ofSeconds(1), Duration.ofSeconds(8), Duration.ofSeconds(30));

    private static final String PATCH = """
            diff --git a/x.txt b/x.txt
            --- a/x.txt
            +++ b/x.txt
            @@ -1 +1 @@
            -a
            +b
            """;

    private static KeyedOneInputStreamOperatorTestHarness<String, CommitEvent, DiffedCommit> harness(String mirrorRoot,
                                                                                                  RetryPolicy wait)
            throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(
                new DedupAndDiff(mirrorRoot, DiffBudget.DEFAULT, DedupAndDiff.DEFAULT_TTL, wait)), DedupAndDiff.KEY, Types.STRING);
        h.setStateBackend(new EmbeddedRocksDBStateBackend());
        return h;
    }

    private static List<DeadLetter> deadLetters(KeyedOneInputStreamOperatorTestHarness<?, ?, ?> h) {
        ConcurrentLinkedQueue<StreamRecord<DeadLetter>> q = h.getSideOutput(DeadLetters.TAG);
        return q == null ? List.of() : q.stream().map(StreamRecord::getValue).toList();
    }

    @Test
    void diffsFromMirrorAndInlinePatchAndRejectsTheRest() throws Exception {
        RevCommit c;
        try (GitFixture fx = new GitFixture(root, "app.git")) {
            c = fx.git.commit().add("README.md", "hi\n").create();
        }
        try (var h = harness(root.toString(), NO_WAIT)) {
            h.open();
            h.processElement(TestEvents.commit("app", c.name(), 0), 0);
            h.processElement(TestEvents.withPatch(TestEvents.commit("elsewhere", "1".repeat(40), 1), PATCH), 0);
            h.processElement(TestEvents.commit("app", "2".repeat(40), 2), 0);
            h.processElement(TestEvents.commit("nope", c.name(), 3), 0);
            h.processElement(TestEvents.commit("../etc", c.name(), 4), 0);
            h.processElement(TestEvents.commit("app", c.getTree().name(), 5), 0);

            assertThat(h.extractOutputValues()).extracting(DiffedCommit::source).containsExactly("mirror", "inline");
            List<DeadLetter> dead = deadLetters(h);
            assertThat(dead).extracting(DeadLetter::reason)
                    .containsExactly("UNKNOWN_COMMIT", "NO_MIRROR", "BAD_REPO_NAME", "INVALID_FIELD");
            assertThat(dead).extracting(DeadLetter::stage).containsOnly("diff");
            assertThat(dead).extracting(d -> d.origin().offset()).containsExactly(2L, 3L, 4L, 5L);
        }
    }

    @Test
    void aCommitThatArrivesBeforeItsMirrorHasItIsDiffedOnceTheMirrorFetchedIt() throws Exception {
        RevCommit c;
        try (GitFixture fx = new GitFixture(root, "app.git")) {
            RevCommit base = fx.git.commit().add("a.txt", "1\n").create();
            c = fx.git.commit().parent(base).add("a.txt", "2\n").message("second").create();
        }
        Path hidden = hide(c);
        try (var h = harness(root.toString(), WAIT_30S)) {
            h.open();
            h.setProcessingTime(0);
            h.processElement(TestEvents.commit("app", c.name(), 0), 0);
            h.setProcessingTime(3_000); // tries at 1 s and 3 s
            h.processElement(TestEvents.commit("app", c.name(), 1), 0); // redelivered while it waits

            assertThat(h.extractOutputValues()).isEmpty();
            assertThat(deadLetters(h)).isEmpty();

            Files.move(hidden, object(c)); // the mirror fetched it
            h.setProcessingTime(7_000);

            assertThat(h.extractOutputValues()).extracting(d -> d.commit().origin().offset()).as("answered once")
                    .containsExactly(0L);
            assertThat(h.numProcessingTimeTimers()).isZero();
            h.processElement(TestEvents.commit("app", c.name(), 2), 0);
            assertThat(h.extractOutputValues()).as("a later redelivery is a duplicate").hasSize(1);
            assertThat(deadLetters(h)).isEmpty();
        }
    }

    @Test
    void aCommitTheMirrorNeverGetsIsGivenUpAfterTheMaximumWait() throws Exception {
        try (GitFixture fx = new GitFixture(root, "app.git")) {
            fx.git.commit().add("a.txt", "1\n").create();
        }
        String never = "f".repeat(40);
        try (var h = harness(root.toString(), WAIT_30S)) {
            h.open();
            h.setProcessingTime(0);
            h.processElement(TestEvents.commit("app", never, 0), 0);
            h.setProcessingTime(29_000);
            assertThat(deadLetters(h)).isEmpty();
            h.setProcessingTime(40_000);

            assertThat(deadLetters(h)).singleElement().satisfies(d -> {
                assertThat(d.reason()).isEqualTo("UNKNOWN_COMMIT");
                assertThat(d.detail()).containsPattern("after \\d+ attempts over \\d+ s");
            });
            assertThat(h.numProcessingTimeTimers()).isZero();
        }
    }

    @Test
    void keepsWaitingCommitsAcrossRestore() throws Exception {
        RevCommit c;
        try (GitFixture fx = new GitFixture(root, "app.git")) {
            c = fx.git.commit().add("a.txt", "1\n").create();
        }
        Path hidden = hide(c);
        OperatorSubtaskState snapshot;
        try (var h = harness(root.toString(), WAIT_30S)) {
            h.open();
            h.processElement(TestEvents.commit("app", c.name(), 0), 0);
            snapshot = h.snapshot(1, 1);
        }
        Files.move(hidden, object(c));
        try (var h = harness(root.toString(), WAIT_30S)) {
            h.initializeState(snapshot);
            h.open();
            h.setProcessingTime(31_000);

            assertThat(h.extractOutputValues()).extracting(d -> d.commit().sha()).containsExactly(c.name());
        }
    }

    @Test
    void aRedeliveryAfterAGitErrorIsDescribed() throws Exception {
        RevCommit c;
        try (GitFixture fx = new GitFixture(root, "app.git")) {
            c = fx.git.commit().add("a.txt", "1\n").create();
        }
        Path tree = object(c.getTree());
        Path away = Files.move(tree, root.resolve("tree"));
        try (var h = harness(root.toString(), WAIT_30S)) {
            h.open();
            h.processElement(TestEvents.commit("app", c.name(), 0), 0);
            assertThat(deadLetters(h)).extracting(DeadLetter::reason).containsExactly("GIT_ERROR");
            assertThat(h.numProcessingTimeTimers()).as("a read error does not wait").isZero();

            Files.move(away, tree); // repaired
            h.processElement(TestEvents.commit("app", c.name(), 1), 0);

            assertThat(h.extractOutputValues()).extracting(d -> d.commit().origin().offset()).containsExactly(1L);
        }
    }

    @Test
    void deadLettersEveryNameThatLeavesTheMirrorRoot() throws Exception {
        Path mirrors = Files.createDirectory(root.resolve("mirrors"));
        try (GitFixture outside = new GitFixture(root, "outside.git")) {
            outside.git.commit().add("secret", "s\n").create();
        }
        Files.createSymbolicLink(mirrors.resolve("escape.git"), root.resolve("outside.git"));
        Files.createDirectories(mirrors.resolve("plain-folder"));
        String sha = "1".repeat(40);
        try (var h = harness(mirrors.toString(), WAIT_30S)) {
            h.open();
            for (String repo : List.of("../outside", "a/../../outside", "/etc", "escape", "plain-folder", "missing")) {
                h.processElement(TestEvents.commit(repo, sha), 0);
            }

            assertThat(h.extractOutputValues()).isEmpty();
            assertThat(deadLetters(h)).extracting(DeadLetter::reason).as("refused at once")
                    .containsExactly("BAD_REPO_NAME", "BAD_REPO_NAME", "BAD_REPO_NAME", "BAD_REPO_NAME");
            assertThat(deadLetters(h)).extracting(DeadLetter::detail).anySatisfy(d -> assertThat(d).contains("symbolic link"));

            // no repository there yet: the mirror service may be cloning it, so they wait, then give up
            for (long t = 1_000; t <= 40_000; t += 1_000) {
                h.setProcessingTime(t);
            }
            assertThat(deadLetters(h)).extracting(DeadLetter::reason)
                    .containsExactly("BAD_REPO_NAME", "BAD_REPO_NAME", "BAD_REPO_NAME", "BAD_REPO_NAME", "NO_MIRROR", "NO_MIRROR");
            assertThat(deadLetters(h).get(5).detail()).contains("attempts over");
        }
    }

    @Test
    void withoutMirrorRootAcceptsOnlyInlinePatches() throws Exception {
        try (var h = harness(null, WAIT_30S)) {
            h.open();
            h.processElement(TestEvents.withPatch(TestEvents.commit("r", "1".repeat(40), 0), PATCH), 0);
            h.processElement(TestEvents.commit("r", "2".repeat(40), 1), 0);

            assertThat(h.extractOutputValues()).hasSize(1);
            assertThat(deadLetters(h)).extracting(DeadLetter::reason).containsExactly("NO_DIFF_SOURCE");
        }
    }

    private Path object(ObjectId id) {
        return root.resolve("app.git/objects").resolve(id.name().substring(0, 2)).resolve(id.name().substring(2));
    }

    private Path hide(ObjectId id) throws Exception {
        return Files.move(object(id), root.resolve(id.name()));
    }
}
