package io.commitflow.suggest;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.Suggestion;
import io.commitflow.event.TestEvents;
import io.commitflow.generate.RetrievalGenerator;
import io.commitflow.git.DiffedCommit;
import io.commitflow.gpu.EngineMode;
import io.commitflow.gpu.Tier;
import io.commitflow.git.FileChange;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The suggest stage's two halves on RocksDB — {@link IndexOperator} in Flink's keyed harness, its requests answered
 * by the same {@link Answerer} that {@link SuggestAsync} runs: result cache, retrieval from what it learned, restore,
 * bounded memory, and the same answer however late a request is answered.
 */
public class SuggestStageTest {
    private static final Duration TTL = Duration.ofHours(24);

    private static final AsyncSettings CPU = AsyncSettings.DEFAULT.withEngine(EngineMode.CPU);

    private KeyedOneInputStreamOperatorTestHarness<String, DiffedCommit, SuggestRequest> harness;
    private IndexCommits index;

    private KeyedOneInputStreamOperatorTestHarness<String, DiffedCommit, SuggestRequest> newHarness(int maxRows)
            throws Exception {
        index = new IndexCommits("suggest", TTL, maxRows, CPU);
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new IndexOperator(index), IndexCommits.KEY, Types.STRING);
        h.setStateBackend(new EmbeddedRocksDBStateBackend());
        return h;
    }

    private Answerer answerer() {
        return new Answerer(index.index(), new RetrievalGenerator(), 0);
    }

    /** Requests made so far, in order. */
    private List<SuggestRequest> requests() {
        return harness.extractOutputValues();
    }

    @BeforeEach
    void open() throws Exception {
        harness = newHarness(100);
        harness.open();
        harness.setStateTtlProcessingTime(0);
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    /** A one-file change of {@code cls} in a Java source tree, with its real message. */
    public static DiffedCommit change(String repo, String sha, String cls, String method, String message, String patchId) {
        CommitEvent c = TestEvents.withMessage(TestEvents.commit(repo, sha), message);
        String path = "src/main/java/org/example/" + cls + ".java";
        String patch = "diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path + "\n@@ -1,3 +1,3 @@\n"
                + " class " + cls + " {\n-    void " + method + "() { return; }\n+    void " + method + "(int retries) { retry(retries); }\n }\n";
        return DiffedCommit.of(c, List.of(new FileChange("MODIFY", path, path, false, 1, 1, 0, "100644", "100644")), 1, patch,
                "", "mirror", patchId);
    }

    /** The commit's suggestion: a cache hit, or its request answered at once by a batch of one. */
    private Suggestion suggest(DiffedCommit d) throws Exception {
        int requests = requests().size();
        int hits = hits().size();
        harness.processElement(d, 0);
        if (hits() .size() > hits) {
            assertThat(requests()).hasSize(requests);
            return hits().get(hits().size() - 1);
        }
        assertThat(requests()).hasSize(requests + 1);
        return answer(requests().get(requests));
    }

    private Suggestion answer(SuggestRequest r) {
        Object out = answerer().answer(Tier.SILVER, List.of(r)).results().get(0);
        assertThat(out).isInstanceOf(Suggestion.class);
        return (Suggestion) out;
    }

    private List<Suggestion> hits() {
        var q = harness.getSideOutput(IndexCommits.CACHE_HITS);
        List<Suggestion> out = new ArrayList<>();
        if (q != null) {
            q.forEach(r -> out.add(r.getValue()));
        }
        return out;
    }

    @Test
    void learnsTheRepositorysStyleAndReusesItsNearestSubject() throws Exception {
        suggest(change("app", "a".repeat(40), "PackWriter", "writePack", "PackWriter: Retry writing the pack\n", "1".repeat(40)));
        suggest(change("app", "b".repeat(40), "RefUpdate", "update", "RefUpdate: Retry locking the ref\n", "2".repeat(40)));
        suggest(change("app", "c".repeat(40), "DirCache", "lock", "DirCache: Retry taking the lock\n", "3".repeat(40)));

        Suggestion s = suggest(change("app", "d".repeat(40), "PackWriter", "writeIndex", null, "4".repeat(40)));

        assertThat(s.backend()).isEqualTo("retrieval");
        assertThat(s.subject()).startsWith("PackWriter: Retry");
        assertThat(s.similarity()).isGreaterThan(0.3);
        assertThat(s.exemplars()).first().isEqualTo("a".repeat(40));
        assertThat(s.cache()).isEqualTo("miss");
    }

    @Test
    void givesACherryPickTheOriginalsMessage() throws Exception {
        suggest(change("app", "a".repeat(40), "Widget", "run", "Widget: Handle retries\n\nRetry twice.\n", "9".repeat(40)));
        Suggestion pick = suggest(change("app", "b".repeat(40), "Widget", "run", null, "9".repeat(40)));

        assertThat(pick.cache()).isEqualTo("hit");
        assertThat(pick.subject()).isEqualTo("Widget: Handle retries");
        assertThat(pick.body()).isEqualTo("Retry twice.");
        assertThat(pick.exemplars()).containsExactly("a".repeat(40));
        assertThat(suggest(change("fork", "c".repeat(40), "Widget", "run", null, "9".repeat(40))).cache())
                .as("another repository's cache is its own").isEqualTo("miss");
    }

    @Test
    void forgetsCachedSuggestionsAfterTheTtl() throws Exception {
        suggest(change("app", "a".repeat(40), "Widget", "run", "x\n", "9".repeat(40)));
        harness.setStateTtlProcessingTime(TTL.toMillis() + 1);

        assertThat(suggest(change("app", "b".repeat(40), "Widget", "run", null, "9".repeat(40))).cache()).isEqualTo("miss");
    }

    @Test
    void answersTheSameAfterRestoringFromACheckpoint() throws Exception {
        suggest(change("app", "a".repeat(40), "PackWriter", "writePack", "PackWriter: Retry writing the pack\n", null));
        suggest(change("app", "b".repeat(40), "RefUpdate", "update", "RefUpdate: Retry locking the ref\n", null));
        OperatorSubtaskState snapshot = harness.snapshot(1, 1);
        DiffedCommit query = change("app", "c".repeat(40), "PackWriter", "writeIndex", null, null);
        Suggestion live = suggest(query);
        harness.close();

        harness = newHarness(100);
        harness.initializeState(snapshot);
        harness.open();
        Suggestion restored = suggest(query);

        assertThat(restored.subject()).isEqualTo(live.subject());
        assertThat(restored.exemplars()).isEqualTo(live.exemplars());
        assertThat(restored.similarity()).isEqualTo(live.similarity());
    }

    @Test
    void keepsAtMostMaxRowsForgettingTheOldestFirst() throws Exception {
        harness.close();
        harness = newHarness(2);
        harness.open();
        suggest(change("app", "a".repeat(40), "Alpha", "one", "Alpha: First\n", null));
        suggest(change("app", "b".repeat(40), "Beta", "two", "Beta: Second\n", null));
        suggest(change("app", "c".repeat(40), "Gamma", "three", "Gamma: Third\n", null));

        Suggestion s = suggest(change("app", "d".repeat(40), "Alpha", "one", null, null));

        assertThat(s.exemplars()).doesNotContain("a".repeat(40)).contains("b".repeat(40), "c".repeat(40));
    }

    @Test
    void aRequestAnsweredLateSeesOnlyTheRowsOfItsWindow() throws Exception {
        suggest(change("app", "a".repeat(40), "PackWriter", "writePack", "PackWriter: Retry writing the pack\n", null));
        suggest(change("app", "b".repeat(40), "RefUpdate", "update", "RefUpdate: Retry locking the ref\n", null));
        harness.processElement(change("app", "c".repeat(40), "PackWriter", "writeIndex", null, null), 0);
        SuggestRequest early = requests().get(requests().size() - 1);
        Suggestion atOnce = answer(early);
        // a later commit, nearer to the request than anything before it, joins the index while the request waits
        suggest(change("app", "d".repeat(40), "PackWriter", "writeIndex", "PackWriter: Speed up writing the index\n", null));

        Suggestion late = answer(early);

        assertThat(late).usingRecursiveComparison().ignoringFields("latencyMs").isEqualTo(atOnce);
        assertThat(late.exemplars()).doesNotContain("d".repeat(40));
        assertThat(suggest(change("app", "e".repeat(40), "PackWriter", "writeIndex", null, null)).exemplars())
                .as("a request made now sees it").first().isEqualTo("d".repeat(40));
    }

    @Test
    void theCpuScanAnswersAsTheEngineDoes() throws Exception {
        String[][] history = {
            {"PackWriter", "writePack", "PackWriter: Retry writing the pack"},
            {"RefUpdate", "update", "RefUpdate: Retry locking the ref"},
            {"DirCache", "lock", "DirCache: Retry taking the lock"},
            {"PackWriter", "writeIndex", "PackWriter: Write the index in one pass"},
            {"Config", "load", "Config: Load included files once"},
        };
        for (int i = 0; i < history.length; i++) {
            suggest(change("app", String.valueOf((char) ('a' + i)).repeat(40), history[i][0], history[i][1],
                    history[i][2] + "\n", null));
        }
        for (String[] h : history) {
            harness.processElement(change("app", "f".repeat(40), h[0], h[1] + "Again", null, null), 0);
            SuggestRequest r = requests().get(requests().size() - 1);
            Suggestion byEngine = answer(r);
            Suggestion byScan = answerer().scanLocked(r);
            assertThat(byScan).usingRecursiveComparison().ignoringFields("latencyMs").isEqualTo(byEngine);
        }
    }

    @Test
    void requestsInFlightAtACheckpointGetTheirAnswersAfterRestore() throws Exception {
        suggest(change("app", "a".repeat(40), "PackWriter", "writePack", "PackWriter: Retry writing the pack\n", null));
        suggest(change("lib", "b".repeat(40), "RefUpdate", "update", "RefUpdate: Retry locking the ref\n", null));
        harness.processElement(change("app", "c".repeat(40), "PackWriter", "writeIndex", "PackWriter: Write the index\n", null), 0);
        SuggestRequest inFlight = requests().get(requests().size() - 1);
        OperatorSubtaskState snapshot = harness.snapshot(1, 1);
        Suggestion before = answer(inFlight);
        harness.close();

        harness = newHarness(100);
        harness.initializeState(snapshot);
        harness.open();

        assertThat(index.index().ready()).as("rebuilt before the first record").isTrue();
        assertThat(index.index().repositories()).isEqualTo(2);
        assertThat(answer(inFlight)).usingRecursiveComparison().ignoringFields("latencyMs").isEqualTo(before);
    }

    @Test
    void aFailingEngineIsRetriedThenTheCpuScanAnswersTheSame() throws Exception {
        suggest(change("app", "a".repeat(40), "PackWriter", "writePack", "PackWriter: Retry writing the pack\n", null));
        suggest(change("app", "b".repeat(40), "RefUpdate", "update", "RefUpdate: Retry locking the ref\n", null));
        harness.processElement(change("app", "c".repeat(40), "PackWriter", "writeIndex", null, null), 0);
        SuggestRequest r = requests().get(requests().size() - 1);
        Suggestion expected = answer(r);
        TaskIndex shared = index.index();
        int[] failures = {0};
        // the same index, behind an engine whose searches fail a given number of times
        var flaky = new io.commitflow.gpu.RetrievalEngine() {
            int failLeft;

            public String name() { return "flaky"; }
            public int dimension() { return shared.engine().dimension(); }
            public int size() { return shared.engine().size(); }
            public int add(int g, long stamp, float[] v) { throw new UnsupportedOperationException(); }
            public void remove(int slot) { throw new UnsupportedOperationException(); }
            public io.commitflow.gpu.Neighbors[] search(Tier t, int[] g, long[] f, long[] to, float[][] q, int k) {
                if (failLeft-- > 0) {
                    failures[0]++;
                    throw new IllegalStateException("CUDA_ERROR_LAUNCH_FAILED (injected)");
                }
                return shared.engine().search(t, g, f, to, q, k);
            }
            public void close() {}
        };
        TaskIndex view = TaskIndex.standalone(flaky);
        view.lock().writeLock().lock();
        try {
            view.add("app", g -> shared.repo("app"));
        } finally {
            view.lock().writeLock().unlock();
        }
        Answerer answerer = new Answerer(view, new RetrievalGenerator(), 2);

        flaky.failLeft = 2;
        Answerer.Outcome retried = answerer.answer(Tier.GOLD, List.of(r));
        assertThat(retried.retries()).isEqualTo(2);
        assertThat(retried.scanned()).isFalse();
        assertThat(retried.results().get(0)).usingRecursiveComparison().ignoringFields("latencyMs").isEqualTo(expected);

        flaky.failLeft = 3;
        Answerer.Outcome scanned = answerer.answer(Tier.GOLD, List.of(r));
        assertThat(scanned.scanned()).as("three failures: the CPU scan answers").isTrue();
        assertThat(scanned.results().get(0)).usingRecursiveComparison().ignoringFields("latencyMs").isEqualTo(expected);
        assertThat(failures[0]).isEqualTo(5);
    }

    @Test
    void anLlmTenantsRequestsCarryTheRepositorysCachedPromptPrefix() throws Exception {
        harness.close();
        index = new IndexCommits("suggest", TTL, 100, CPU.withLlm(java.util.Map.of("default",
                new io.commitflow.llm.LlmSettings("openai", "m", "http://127.0.0.1:1", "NO_KEY", 300, 6000, 2))));
        harness = new KeyedOneInputStreamOperatorTestHarness<>(new IndexOperator(index), IndexCommits.KEY, Types.STRING);
        harness.setStateBackend(new EmbeddedRocksDBStateBackend());
        harness.open();
        List<SuggestRequest> made = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            harness.processElement(change("app", String.format("%040x", i + 1), "PackWriter", "write" + i,
                    "PackWriter: Retry write " + i + "\n", null), 0);
            made.add(requests().get(requests().size() - 1));
        }

        assertThat(made.get(0).prefix()).contains("Earlier commits of this repository:", "No earlier commits yet.");
        assertThat(made.subList(0, 13)).as("it grows with a young repository").allSatisfy(r -> assertThat(r.prefixReused()).isFalse());
        assertThat(made.get(12).prefix()).contains("PackWriter: Retry write 0", "PackWriter: Retry write 11", "Conventions:");
        assertThat(made.subList(13, 76)).allSatisfy(r -> {
            assertThat(r.prefix()).as("byte-identical until the rebuild").isEqualTo(made.get(12).prefix());
            assertThat(r.prefixReused()).isTrue();
        });
        assertThat(made.get(76).prefixReused()).as("rebuilt after 64 learned commits").isFalse();
        assertThat(made.get(76).prefix()).contains("PackWriter: Retry write 75").doesNotContain("Retry write 11 ");
        assertThat(made.get(77).prefixReused()).isTrue();
    }
}
