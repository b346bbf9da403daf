package io.commitflow.suggest;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.Origin;
import io.commitflow.event.TestEvents;
import io.commitflow.generate.RepoKnowledge;
import io.commitflow.generate.RetrievalGenerator;
import io.commitflow.generate.TestDiffs;
import io.commitflow.git.DiffedCommit;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The fleet stage on RocksDB in Flink's keyed test harness: what a young repository's commit is given. */
class FleetMemoryTest {

    /** The fleet stage (100 rows) in Flink's keyed harness on RocksDB, not yet opened. */
    static KeyedOneInputStreamOperatorTestHarness<String, DiffedCommit, CommitWithFleet> harness() throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new FleetMemory(100)),
                FleetMemory.BY_TENANT, Types.STRING);
        h.setStateBackend(new EmbeddedRocksDBStateBackend());
        return h;
    }

    /** A change of {@code cls} in repository {@code repo} of {@code tenant}, at event time {@code ts}. */
    private static DiffedCommit change(String tenant, String repo, int n, String cls, String message, long ts) {
        return change(tenant, repo, n, cls, "run", message, ts);
    }

    private static DiffedCommit change(String tenant, String repo, int n, String cls, String method, String message,
                                       long ts) {
        DiffedCommit d = TestDiffs.change(repo, String.format("%040x", n), cls, method, message, null);
        CommitEvent c = d.commit();
        CommitEvent moved = new CommitEvent(tenant, repo, c.sha(), c.parents(), c.author(), ts, c.message(), c.patch(),
                c.traceId(), new Origin("commitflow.events", 0, n, ts));
        return new DiffedCommit(moved, d.files(), d.totalFiles(), d.linesAdded(), d.linesDeleted(), d.patch(),
                d.truncation(), d.source(), d.patchId());
    }

    private static CommitWithFleet send(KeyedOneInputStreamOperatorTestHarness<String, DiffedCommit, CommitWithFleet> h,
                                        DiffedCommit d) throws Exception {
        int before = h.extractOutputValues().size();
        h.processElement(d, d.commit().ts());
        List<CommitWithFleet> out = h.extractOutputValues();
        assertThat(out).hasSize(before + 1);
        return out.get(before);
    }

    private static List<String> shas(CommitWithFleet c) {
        return c.fleet().stream().map(n -> n.commit().sha()).toList();
    }

    /**
     * A change of {@code cls} in repository {@code repo} of {@code tenant} whose diff replaces {@code removed} by
     * {@code added}: for changes that share no words with the others.
     */
    private static DiffedCommit edit(String tenant, String repo, int n, String cls, String removed, String added,
                                     String message, long ts) {
        DiffedCommit d = change(tenant, repo, n, cls, message, ts);
        String path = d.files().get(0).path();
        String patch = "diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path
                + "\n@@ -1,3 +1,3 @@\n class " + cls + " {\n-    " + removed + "\n+    " + added + "\n }\n";
        return DiffedCommit.of(TestEvents.withPatch(d.commit(), patch), d.files(), d.totalFiles(), patch,
                d.truncation(), d.source(), d.patchId());
    }

    @Test
    void aYoungRepositoryIsGivenItsTenantsOtherRepositoriesCommitsOnFilesOfTheSameNameOrAlikeDiffs() throws Exception {
        try (var h = harness()) {
            h.open();
            for (int i = 0; i < 4; i++) {
                send(h, change("acme", "tools", i, "Widget", "Retry widget runs when busy " + i + "\n", 1_000));
            }
            send(h, edit("acme", "tools", 10, "Gadget", "String label = null;", "Locale locale = Locale.ROOT;",
                    "Format gadget labels in the root locale\n", 1_000));
            send(h, change("beta", "elsewhere", 20, "Widget", "Another tenant's widget\n", 1_000));

            CommitWithFleet web = send(h, change("acme", "web", 30, "Widget", null, 2_000));
            assertThat(web.fleet()).isNotEmpty();
            assertThat(shas(web)).as("the tenant's other repository's Widget commits only")
                    .allMatch(s -> List.of(0, 1, 2, 3).stream().anyMatch(i -> s.equals(String.format("%040x", i))));
            assertThat(web.features()).as("computed once, for the suggest stage too").isNotNull();

            assertThat(send(h, edit("acme", "web", 31, "Sprocket", "int teeth = 12;", "double pitch = radius * 2;",
                    null, 2_000)).fleet())
                    .as("no file of the same name, no alike diff: nothing carries over").isEmpty();
            assertThat(shas(send(h, change("acme", "web", 35, "Cog", null, 2_000))))
                    .as("the Widget commits' very change, in a file of another name, carries over")
                    .isNotEmpty()
                    .allMatch(s -> List.of(0, 1, 2, 3).stream().anyMatch(i -> s.equals(String.format("%040x", i))));
            assertThat(shas(send(h, change("beta", "other", 32, "Widget", null, 2_000))))
                    .as("another tenant's memory holds only its own repositories")
                    .containsExactly(String.format("%040x", 20));
            assertThat(send(h, change("acme", "tools", 33, "Widget", null, 2_000)).fleet())
                    .as("a repository is never its own fleet").isEmpty();
            assertThat(send(h, change("acme", "web", 34, "Widget", null, 500)).fleet())
                    .as("no fleet commit of an event later than the commit's own").isEmpty();
        }
    }

    /** Later events' rows do not crowd the earlier ones out of the nearest: the event-time rule is part of the scan. */
    @Test
    void findsAnEarlierFleetCommitBehindManyMoreSimilarLaterOnes() throws Exception {
        try (var h = harness()) {
            h.open();
            send(h, change("acme", "tools", 1, "Widget", "shutdown", "Stop widgets on shutdown\n", 1_000));
            for (int i = 0; i < 30; i++) {
                send(h, change("acme", "tools", 100 + i, "Widget", "Retry widget runs when busy " + i + "\n", 5_000));
            }
            CommitWithFleet web = send(h, change("acme", "web", 200, "Widget", null, 2_000));
            assertThat(shas(web)).containsExactly(String.format("%040x", 1));
        }
    }

    /** What an LLM tenant's prompt is shown: the repository's own neighbours and, for a young one, its fleet's. */
    @Test
    void theAnswerCarriesTheFleetsExemplarsForTheLlmPrompt() throws Exception {
        List<CommitWithFleet> passed;
        try (var h = harness()) {
            h.open();
            send(h, change("acme", "tools", 1, "Widget", "Retry widget runs when busy\n", 1_000));
            send(h, change("acme", "web", 2, "Widget", null, 2_000));
            passed = h.extractOutputValues();
        }
        CommitWithFleet ask = passed.get(1);
        assertThat(ask.fleet()).isNotEmpty();
        RetrievalIndex index = new RetrievalIndex(new io.commitflow.gpu.CpuEngine(
                io.commitflow.generate.FeatureSpace.DEFAULT_DIMENSION), 100, 10);
        try (index) {
            RepoKnowledge memory;
            index.writeLock().lock();
            try {
                memory = index.repoOrNew("web");
            } finally {
                index.writeLock().unlock();
            }
            var request = new SuggestRequest(ask.diff(), ask.features(), memory.vector(ask.features().terms()),
                    memory.window(), memory.model().style.conventions(), io.commitflow.gpu.Tier.SILVER, null,
                    ask.fleet(), 0);
            Answer a = new Answerer(index, new RetrievalGenerator(), 0,
                    io.commitflow.event.RepoKeys.GLOBAL).scan(request);

            assertThat(a).isInstanceOf(Answer.Written.class);
            Answer.Written w = (Answer.Written) a;
            assertThat(w.suggestion().exemplars()).first().isEqualTo(String.format("%040x", 1));
            assertThat(w.neighbours()).extracting(n -> n.commit().sha()).contains(String.format("%040x", 1));
        }
    }

    @Test
    void aRepositoryStopsBeingGivenAFleetAfterItsFiftiethCommitAndDraftsAreNotLearned() throws Exception {
        try (var h = harness()) {
            h.open();
            send(h, change("acme", "tools", 0, "Widget", "Retry widget runs when busy\n", 1_000));
            DiffedCommit draft = StageHarness.asDraft(change("acme", "web", 1, "Widget", "never learned\n", 1_000));
            for (int i = 0; i < 3; i++) {
                assertThat(send(h, draft).fleet()).hasSize(1); // a draft is looked up, never learned
            }
            for (int i = 0; i < RetrievalGenerator.YOUNG; i++) {
                CommitWithFleet c = send(h, change("acme", "web", 100 + i, "Widget", "Widget change " + i + "\n", 1_000));
                assertThat(c.fleet()).as("commit %d of web", i).isNotEmpty();
            }
            CommitWithFleet grown = send(h, change("acme", "web", 500, "Widget", null, 1_000));
            assertThat(grown.fleet()).isEmpty();
            assertThat(grown.features()).as("left to the suggest stage").isNull();
        }
    }

    @Test
    void theMemoryFollowsItsTenantThroughASnapshotAndRestore() throws Exception {
        OperatorSubtaskState snapshot;
        CommitWithFleet before;
        DiffedCommit ask = change("acme", "web", 30, "Widget", null, 2_000);
        try (var h = harness()) {
            h.open();
            for (int i = 0; i < 4; i++) {
                send(h, change("acme", "tools", i, "Widget", "Retry widget runs when busy " + i + "\n", 1_000));
            }
            send(h, change("acme", "web", 5, "Widget", "Web's own widget commit\n", 1_000));
            before = send(h, ask);
            snapshot = h.snapshot(1, 1);
        }
        try (var h = harness()) {
            h.initializeState(snapshot);
            h.open();
            CommitWithFleet after = send(h, ask);
            assertThat(shas(after)).isEqualTo(shas(before)).isNotEmpty();
            assertThat(after.fleet().stream().map(RepoKnowledge.Neighbor::score).toList())
                    .isEqualTo(before.fleet().stream().map(RepoKnowledge.Neighbor::score).toList());
            assertThat(shas(after)).as("web's own row stayed web's").doesNotContain(String.format("%040x", 5));
        }
    }
}
