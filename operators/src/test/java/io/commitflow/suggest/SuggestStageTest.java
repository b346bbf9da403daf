package io.commitflow.generate;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.Suggestion;
import io.commitflow.event.TestEvents;
import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The suggest operator on RocksDB: result cache, retrieval from what it learned, restore, bounded memory. */
class SuggestCommitsTest {
    private static final Duration TTL = Duration.ofHours(24);

    private KeyedOneInputStreamOperatorTestHarness<String, DiffedCommit, Suggestion> harness;

    private static KeyedOneInputStreamOperatorTestHarness<String, DiffedCommit, Suggestion> newHarness(int maxRows)
            throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new SuggestCommits(TTL, maxRows)),
                SuggestCommits.KEY, Types.STRING);
        h.setStateBackend(new EmbeddedRocksDBStateBackend());
        return h;
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
    static DiffedCommit change(String repo, String sha, String cls, String method, String message, String patchId) {
        CommitEvent c = TestEvents.withMessage(TestEvents.commit(repo, sha), message);
        String path = "src/main/java/org/example/" + cls + ".java";
        String patch = "diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path + "\n@@ -1,3 +1,3 @@\n"
                + " class " + cls + " {\n-    void " + method + "() { return; }\n+    void " + method + "(int retries) { retry(retries); }\n }\n";
        return DiffedCommit.of(c, List.of(new FileChange("MODIFY", path, path, false, 1, 1, 0, "100644", "100644")), 1, patch,
                "", "mirror", patchId);
    }

    private Suggestion suggest(DiffedCommit d) throws Exception {
        int before = harness.extractOutputValues().size();
        harness.processElement(d, 0);
        List<Suggestion> out = harness.extractOutputValues();
        assertThat(out).hasSize(before + 1);
        return out.get(out.size() - 1);
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
    void reusesTheSuggestionForACherryPick() throws Exception {
        Suggestion first = suggest(change("app", "a".repeat(40), "Widget", "run", "Widget: Handle retries\n", "9".repeat(40)));
        Suggestion pick = suggest(change("app", "b".repeat(40), "Widget", "run", null, "9".repeat(40)));

        assertThat(pick.cache()).isEqualTo("hit");
        assertThat(pick.subject()).isEqualTo(first.subject());
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
}
