package io.commitflow.ingest;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.PushEvent;
import io.commitflow.event.TestEvents;
import io.commitflow.git.GitFixture;
import io.commitflow.push.RetryPolicy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Pushes that arrive before their commits reach the mirror wait, in order, and give up after the policy's wait. */
class ExpandPushesTest {
    private static final RetryPolicy POLICY = new RetryPolicy(Duration.ofSeconds(1), Duration.ofSeconds(8), Duration.ofSeconds(30));

    @TempDir
    Path root;
    private GitFixture fx;
    private RevCommit c1;
    private KeyedOneInputStreamOperatorTestHarness<String, PushEvent, CommitEvent> harness;

    @BeforeEach
    void setUp() throws Exception {
        fx = new GitFixture(root, "app.git");
        c1 = fx.git.commit().add("a", "1").message("first").create();
        fx.git.update("refs/heads/main", c1);
        harness = newHarness();
        harness.open();
        harness.setProcessingTime(0);
    }

    private KeyedOneInputStreamOperatorTestHarness<String, PushEvent, CommitEvent> newHarness() throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new ExpandPushes(root.toString(), POLICY)), ExpandPushes.KEY, Types.STRING);
        h.setStateBackend(new EmbeddedRocksDBStateBackend());
        return h;
    }

    @AfterEach
    void tearDown() throws Exception {
        harness.close();
        fx.close();
    }

    @Test
    void expandsOnceTheMirrorCatchesUp() throws Exception {
        RevCommit c2 = fx.git.commit().parent(c1).add("a", "2").message("second").create();
        Path loose = hide(c2); // the server published the push before the mirror fetched c2
        harness.processElement(TestEvents.push("app", "refs/heads/main", c1.name(), c2.name()), 0);
        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(harness.numProcessingTimeTimers()).isEqualTo(1);

        harness.setProcessingTime(1_000); // first retry: still missing
        assertThat(harness.extractOutputValues()).isEmpty();

        java.nio.file.Files.move(loose, object(c2)); // the mirror fetches
        harness.setProcessingTime(3_000);

        assertThat(harness.extractOutputValues()).extracting(CommitEvent::sha).containsExactly(c2.name());
        assertThat(harness.getSideOutput(DeadLetters.TAG)).isNull();
        assertThat(harness.numProcessingTimeTimers()).isZero();
    }

    @Test
    void givesUpAfterMaxWaitWithoutHoldingUpOtherPushes() throws Exception {
        String future = "f".repeat(40);
        RevCommit c2 = fx.git.commit().parent(c1).add("a", "2").message("second").create();
        harness.processElement(TestEvents.push("app", "refs/heads/main", c1.name(), future), 0);
        harness.setProcessingTime(1_000);
        harness.processElement(TestEvents.push("app", "refs/heads/main", c1.name(), c2.name()), 0);

        assertThat(harness.extractOutputValues()).as("a later push is not held up by a waiting one")
                .extracting(CommitEvent::sha).containsExactly(c2.name());

        harness.setProcessingTime(29_000);
        assertThat(harness.getSideOutput(DeadLetters.TAG)).isNull();
        harness.setProcessingTime(31_000);
        harness.setProcessingTime(40_000);
        List<DeadLetter> dead = harness.getSideOutput(DeadLetters.TAG).stream().map(StreamRecord::getValue).toList();
        assertThat(dead).singleElement().satisfies(d -> {
            assertThat(d.reason()).isEqualTo("UNKNOWN_COMMIT");
            assertThat(d.detail()).containsPattern("after \\d+ attempts over \\d+ s");
            assertThat(d.sha()).isEqualTo(future);
        });
        assertThat(harness.numProcessingTimeTimers()).isZero();
    }

    @Test
    void givesUpAtOnceWithoutMaxWait() throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new ExpandPushes(root.toString(),
                new RetryPolicy(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ZERO))), ExpandPushes.KEY, Types.STRING);
        h.open();
        try {
            h.processElement(TestEvents.push("app", "refs/heads/main", c1.name(), "f".repeat(40)), 0);
            assertThat(h.getSideOutput(DeadLetters.TAG)).extracting(r -> r.getValue().reason()).containsExactly("UNKNOWN_COMMIT");
            assertThat(h.numProcessingTimeTimers()).isZero();
        } finally {
            h.close();
        }
    }

    private Path object(RevCommit c) {
        return root.resolve("app.git/objects").resolve(c.name().substring(0, 2)).resolve(c.name().substring(2));
    }

    private Path hide(RevCommit c) throws Exception {
        return java.nio.file.Files.move(object(c), root.resolve(c.name()));
    }

    @Test
    void keepsWaitingPushesAcrossRestore() throws Exception {
        String future = "f".repeat(40);
        harness.processElement(TestEvents.push("app", "refs/heads/main", c1.name(), future), 0);
        OperatorSubtaskState snapshot = harness.snapshot(1, 1);
        harness.close();

        harness = newHarness();
        harness.initializeState(snapshot);
        harness.open();
        harness.setProcessingTime(31_000);

        assertThat(harness.getSideOutput(DeadLetters.TAG)).extracting(r -> r.getValue().reason()).containsExactly("UNKNOWN_COMMIT");
    }

    @Test
    void skipsDeletionsAndMetadataRefs() throws Exception {
        harness.processElement(TestEvents.push("app", "refs/heads/main", c1.name(), PushEvent.ZERO_SHA1), 0);
        harness.processElement(TestEvents.push("app", "refs/changes/01/1/meta", PushEvent.ZERO_SHA1, c1.name()), 0);

        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(harness.getSideOutput(DeadLetters.TAG)).isNull();
        assertThat(harness.numProcessingTimeTimers()).isZero();
    }
}
