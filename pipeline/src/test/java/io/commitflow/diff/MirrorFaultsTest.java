package io.commitflow.diff;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.PushEvent;
import io.commitflow.event.Reason;
import io.commitflow.event.TestEvents;
import io.commitflow.git.CGit;
import io.commitflow.git.CommitDiffer;
import io.commitflow.git.DiffBudget;
import io.commitflow.git.DiffedCommit;
import io.commitflow.git.GitFixture;
import io.commitflow.git.MirrorRoot;
import io.commitflow.git.Mirrors;
import io.commitflow.ingest.DeadLetters;
import io.commitflow.push.PushExpander;
import io.commitflow.push.RetryPolicy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.eclipse.jgit.junit.TestRepository;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Damaged and rewritten mirrors: a truncated pack, a SHA-256 id, and a gc under an open repository. */
@EnabledIf("io.commitflow.git.CGit#available")
class MirrorFaultsTest {
    private static final RetryPolicy WAIT_30S = new RetryPolicy(Duration.ofSeconds(1), Duration.ofSeconds(8), Duration.ofSeconds(30));

    @TempDir
    Path root;

    @Test
    void aCommitInATruncatedPackIsAGitErrorAtOnceNotAWaitForTheMirror() throws Exception {
        List<RevCommit> h = packedHistory("broken.git", 4);
        truncatePacks("broken.git");
        try (var harness = harness()) {
            harness.open();
            harness.processElement(TestEvents.commit("broken", h.get(2).name(), 0), 0);

            assertThat(harness.extractOutputValues()).isEmpty();
            assertThat(harness.numProcessingTimeTimers()).as("nothing waits for a fetch that cannot repair it").isZero();
            List<DeadLetter> dead = deadLetters(harness);
            assertThat(dead).extracting(DeadLetter::reason).containsExactly("GIT_ERROR");
            assertThat(dead.get(0).detail()).contains("corrupt pack", ".pack", "does not match their index");
        }
    }

    @Test
    void aPushIntoATruncatedPackIsAGitError() throws Exception {
        List<RevCommit> h = packedHistory("broken.git", 4);
        truncatePacks("broken.git");
        try (Mirrors mirrors = new Mirrors(new MirrorRoot(root), 4)) {
            PushEvent push = TestEvents.push("broken", "refs/heads/main", h.get(0).name(), h.get(3).name());
            assertThatThrownBy(() -> new PushExpander().expand(mirrors.open("broken"), push, c -> { }))
                    .isInstanceOfSatisfying(InvalidEventException.class, e -> {
                        assertThat(e.reason()).isEqualTo(Reason.GIT_ERROR);
                        assertThat(e.getMessage()).contains("corrupt pack");
                    });
        }
    }

    @Test
    void aCommitThatIsReallyMissingStillWaitsForTheMirror() throws Exception {
        packedHistory("fine.git", 2);
        try (var harness = harness()) {
            harness.open();
            harness.processElement(TestEvents.commit("fine", "1".repeat(40), 0), 0);

            assertThat(deadLetters(harness)).isEmpty();
            assertThat(harness.numProcessingTimeTimers()).isEqualTo(1);
        }
    }

    @Test
    void aSha256IdIsAnInvalidFieldNotAGitError() throws Exception {
        List<RevCommit> h = packedHistory("fine.git", 2);
        try (var harness = harness()) {
            harness.open();
            harness.processElement(TestEvents.commit("fine", "a".repeat(64), 0), 0);
            assertThat(deadLetters(harness)).extracting(DeadLetter::reason).containsExactly("INVALID_FIELD");
        }
        try (Mirrors mirrors = new Mirrors(new MirrorRoot(root), 4)) {
            PushEvent push = TestEvents.push("fine", "refs/heads/main", h.get(0).name(), "b".repeat(64));
            assertThatThrownBy(() -> new PushExpander().expand(mirrors.open("fine"), push, c -> { }))
                    .isInstanceOfSatisfying(InvalidEventException.class,
                            e -> assertThat(e.reason()).isEqualTo(Reason.INVALID_FIELD));
        }
    }

    @Test
    void anOpenMirrorReadsOnAfterGcPrunesLooseObjectsAndAnotherGcReplacesThePack() throws Exception {
        List<RevCommit> h = new ArrayList<>();
        try (GitFixture fx = new GitFixture(root, "busy.git")) {
            h.addAll(history(fx.git, null, 6));
        }
        try (Mirrors mirrors = new Mirrors(new MirrorRoot(root), 4)) {
            CommitDiffer differ = new CommitDiffer(DiffBudget.DEFAULT, 0); // no object cache: every read hits the mirror
            for (RevCommit c : h) {
                differ.diff(mirrors.open("busy"), TestEvents.commit("busy", c.name()));
            }
            gc("busy.git"); // loose objects packed and pruned under the open repository
            List<Path> firstPacks = packs("busy.git");
            try (Repository repo = new FileRepositoryBuilder().setGitDir(root.resolve("busy.git").toFile()).build();
                 TestRepository<Repository> git = new TestRepository<>(repo)) { // the mirror fetches more
                h.addAll(history(git, h.get(h.size() - 1), 6));
            }
            gc("busy.git"); // the pack the repository has open is replaced
            assertThat(packs("busy.git")).doesNotContainAnyElementsOf(firstPacks);

            for (RevCommit c : h) {
                DiffedCommit d = differ.diff(mirrors.open("busy"), TestEvents.commit("busy", c.name()));
                assertThat(d.files()).isNotEmpty();
                assertThat(d.truncation()).isEmpty();
            }
        }
    }

    private List<RevCommit> packedHistory(String name, int n) throws Exception {
        List<RevCommit> h;
        try (GitFixture fx = new GitFixture(root, name)) {
            h = history(fx.git, null, n);
        }
        gc(name);
        return h;
    }

    private static List<RevCommit> history(TestRepository<Repository> git, RevCommit from, int n) throws Exception {
        List<RevCommit> out = new ArrayList<>();
        RevCommit parent = from;
        for (int i = 0; i < n; i++) {
            var b = parent == null ? git.commit() : git.commit().parent(parent);
            parent = b.add("f" + (i % 3) + ".txt", GitFixture.lines(5 + i, "v" + i + (from == null ? "" : "b")))
                    .message("change " + i).create();
            out.add(parent);
        }
        git.update("refs/heads/main", parent);
        return out;
    }

    /** C git's gc, as a mirror's maintenance runs it: packs everything, deletes the old packs and loose objects. */
    private void gc(String name) throws Exception {
        CGit.run(root.resolve(name), null, "gc", "--prune=now", "--quiet");
        try (var loose = Files.list(root.resolve(name).resolve("objects"))) {
            assertThat(loose.map(p -> p.getFileName().toString()).filter(f -> f.length() == 2))
                    .as("no loose objects left").isEmpty();
        }
    }

    private List<Path> packs(String name) throws Exception {
        try (var s = Files.list(root.resolve(name).resolve("objects/pack"))) {
            return s.filter(p -> p.toString().endsWith(".pack")).toList();
        }
    }

    private void truncatePacks(String name) throws Exception {
        for (Path pack : packs(name)) {
            try (RandomAccessFile f = new RandomAccessFile(pack.toFile(), "rw")) {
                f.setLength(f.length() / 2);
            }
        }
    }

    private KeyedOneInputStreamOperatorTestHarness<String, CommitEvent, DiffedCommit> harness() throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(
                new DedupAndDiff(root.toString(), DiffBudget.DEFAULT, DedupAndDiff.DEFAULT_TTL, WAIT_30S)),
                DedupAndDiff.KEY, Types.STRING);
        h.setStateBackend(new EmbeddedRocksDBStateBackend());
        return h;
    }

    private static List<DeadLetter> deadLetters(KeyedOneInputStreamOperatorTestHarness<?, ?, ?> h) {
        ConcurrentLinkedQueue<StreamRecord<DeadLetter>> q = h.getSideOutput(DeadLetters.TAG);
        return q == null ? List.of() : q.stream().map(StreamRecord::getValue).toList();
    }
}
