package io.commitflow.diff;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.TestEvents;
import io.commitflow.git.DiffBudget;
import io.commitflow.git.DiffedCommit;
import io.commitflow.ingest.DeadLetters;
import io.commitflow.push.RetryPolicy;
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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The dedup half of {@link DedupAndDiff} on the real RocksDB state backend, with the harness's control of TTL time.
 * The events carry inline patches, so no mirror is needed.
 */
class DedupTest {
    private static final Duration TTL = Duration.ofHours(1);
    private static final String SHA_A = "a".repeat(40);
    private static final String SHA_B = "b".repeat(40);

    private static final String PATCH = """
            diff --git a/x.txt b/x.txt
            --- a/x.txt
            +++ b/x.txt
            @@ -1 +1 @@
            -a
            +b
            """;

    private KeyedOneInputStreamOperatorTestHarness<String, CommitEvent, DiffedCommit> harness;

    @BeforeEach
    void open() throws Exception {
        harness = newHarness();
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, CommitEvent, DiffedCommit> newHarness() throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(
                new DedupAndDiff(null, DiffBudget.DEFAULT, TTL, RetryPolicy.DEFAULT)), DedupAndDiff.KEY, Types.STRING);
        h.setStateBackend(new EmbeddedRocksDBStateBackend());
        return h;
    }

    @Test
    void passesFirstDelivery() throws Exception {
        harness.processElement(commit("r", SHA_A, 0), 0);
        harness.processElement(commit("r", SHA_B, 1), 0);

        assertThat(committed()).extracting(CommitEvent::sha).containsExactly(SHA_A, SHA_B);
    }

    @Test
    void neitherDropsNorRemembersDrafts() throws Exception {
        harness.processElement(draft(commit("r", SHA_A, 0)), 0);
        harness.processElement(draft(commit("r", SHA_A, 1)), 0);
        harness.processElement(commit("r", SHA_A, 2), 0);
        harness.processElement(commit("r", SHA_A, 3), 0);

        assertThat(committed()).as("both drafts answered, then the commit once")
                .extracting(c -> c.origin().offset()).containsExactly(0L, 1L, 2L);
        assertThat(committed()).extracting(CommitEvent::draft).containsExactly(true, true, false);
    }

    private static CommitEvent draft(CommitEvent c) {
        return new CommitEvent(c.tenant(), c.repo(), c.sha(), c.parents(), c.author(), c.ts(), null, c.patch(), c.traceId(),
                c.origin(), true);
    }

    @Test
    void dropsRedeliveredCommit() throws Exception {
        harness.processElement(commit("r", SHA_A, 0), 0);
        harness.processElement(commit("r", SHA_A, 7), 0);

        assertThat(committed()).extracting(c -> c.origin().offset()).containsExactly(0L);
    }

    @Test
    void keepsSameShaOfDifferentRepositoriesApart() throws Exception {
        harness.processElement(commit("r1", SHA_A, 0), 0);
        harness.processElement(commit("r2", SHA_A, 1), 0);

        assertThat(committed()).extracting(CommitEvent::repo).containsExactly("r1", "r2");
    }

    @Test
    void passesRedeliveryAfterTtlExpired() throws Exception {
        harness.setStateTtlProcessingTime(0);
        harness.processElement(commit("r", SHA_A, 0), 0);
        harness.setStateTtlProcessingTime(TTL.toMillis() - 1);
        harness.processElement(commit("r", SHA_A, 1), 0);
        harness.setStateTtlProcessingTime(TTL.toMillis() + 1);
        harness.processElement(commit("r", SHA_A, 2), 0);

        assertThat(committed()).extracting(c -> c.origin().offset()).containsExactly(0L, 2L);
    }

    @Test
    void remembersDeliveriesAcrossRestore() throws Exception {
        harness.processElement(commit("r", SHA_A, 0), 0);
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();

        harness = newHarness();
        harness.initializeState(snapshot);
        harness.open();
        harness.processElement(commit("r", SHA_A, 1), 0);
        harness.processElement(commit("r", SHA_B, 2), 0);

        assertThat(committed()).extracting(CommitEvent::sha).containsExactly(SHA_B);
    }

    @Test
    void aCommitThatEndedInADeadLetterIsNotRememberedSoItsRedeliveryIsAnswered() throws Exception {
        harness.processElement(TestEvents.withPatch(TestEvents.commit("r", SHA_A, 0), "not a patch at all\n"), 0);
        harness.processElement(commit("r", SHA_A, 1), 0);
        harness.processElement(commit("r", SHA_A, 2), 0);

        assertThat(harness.getSideOutput(DeadLetters.TAG)).extracting(r -> r.getValue().reason()).containsExactly("BAD_PATCH");
        assertThat(committed()).as("the redelivery, once; the one after it is a duplicate")
                .extracting(c -> c.origin().offset()).containsExactly(1L);
    }

    private List<CommitEvent> committed() {
        return harness.extractOutputValues().stream().map(DiffedCommit::commit).toList();
    }

    private static CommitEvent commit(String repo, String sha, long offset) {
        return TestEvents.withPatch(TestEvents.commit(repo, sha, offset), PATCH);
    }

    @Test
    void rejectsNonPositiveTtl() {
        assertThatThrownBy(() -> new DedupAndDiff(null, DiffBudget.DEFAULT, Duration.ZERO, RetryPolicy.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
