package io.commitflow.dedup;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.TestEvents;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Dedup on the real RocksDB state backend, with the harness's control of TTL time. */
class DedupCommitsTest {
    private static final Duration TTL = Duration.ofHours(1);
    private static final String SHA_A = "a".repeat(40);
    private static final String SHA_B = "b".repeat(40);

    private KeyedOneInputStreamOperatorTestHarness<String, CommitEvent, CommitEvent> harness;

    @BeforeEach
    void open() throws Exception {
        harness = newHarness();
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, CommitEvent, CommitEvent> newHarness() throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new DedupCommits(TTL)), DedupCommits.KEY, Types.STRING);
        h.setStateBackend(new EmbeddedRocksDBStateBackend());
        return h;
    }

    @Test
    void passesFirstDelivery() throws Exception {
        harness.processElement(TestEvents.commit("r", SHA_A, 0), 0);
        harness.processElement(TestEvents.commit("r", SHA_B, 1), 0);

        assertThat(harness.extractOutputValues()).extracting(CommitEvent::sha).containsExactly(SHA_A, SHA_B);
    }

    @Test
    void dropsRedeliveredCommit() throws Exception {
        harness.processElement(TestEvents.commit("r", SHA_A, 0), 0);
        harness.processElement(TestEvents.commit("r", SHA_A, 7), 0);

        assertThat(harness.extractOutputValues()).extracting(c -> c.origin().offset()).containsExactly(0L);
    }

    @Test
    void keepsSameShaOfDifferentRepositoriesApart() throws Exception {
        harness.processElement(TestEvents.commit("r1", SHA_A, 0), 0);
        harness.processElement(TestEvents.commit("r2", SHA_A, 1), 0);

        assertThat(harness.extractOutputValues()).extracting(CommitEvent::repo).containsExactly("r1", "r2");
    }

    @Test
    void passesRedeliveryAfterTtlExpired() throws Exception {
        harness.setStateTtlProcessingTime(0);
        harness.processElement(TestEvents.commit("r", SHA_A, 0), 0);
        harness.setStateTtlProcessingTime(TTL.toMillis() - 1);
        harness.processElement(TestEvents.commit("r", SHA_A, 1), 0);
        harness.setStateTtlProcessingTime(TTL.toMillis() + 1);
        harness.processElement(TestEvents.commit("r", SHA_A, 2), 0);

        assertThat(harness.extractOutputValues()).extracting(c -> c.origin().offset()).containsExactly(0L, 2L);
    }

    @Test
    void remembersDeliveriesAcrossRestore() throws Exception {
        harness.processElement(TestEvents.commit("r", SHA_A, 0), 0);
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();

        harness = newHarness();
        harness.initializeState(snapshot);
        harness.open();
        harness.processElement(TestEvents.commit("r", SHA_A, 1), 0);
        harness.processElement(TestEvents.commit("r", SHA_B, 2), 0);

        assertThat(harness.extractOutputValues()).extracting(CommitEvent::sha).containsExactly(SHA_B);
    }

    @Test
    void rejectsNonPositiveTtl() {
        assertThatThrownBy(() -> new DedupCommits(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
