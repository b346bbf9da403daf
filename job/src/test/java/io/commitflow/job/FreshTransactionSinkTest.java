package io.commitflow.job;

import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;
import org.apache.flink.connector.kafka.sink.TwoPhaseCommittingStatefulSink;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The age check of {@link FreshTransactionSink}'s writer, on a clock the test moves: the end-to-end case (a broker
 * away longer than the timeout) is {@code KafkaFaultsITCase}.
 */
class FreshTransactionSinkTest {
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final Transactions kafka = new Transactions();
    private final FreshTransactionSink.Writer<String> writer = new FreshTransactionSink.Writer<>(kafka, 6_000, "suggestions", now::get);

    @Test
    void theMarginIsAQuarterOfTheTimeoutAtMostAMinute() {
        assertThat(FreshTransactionSink.maxAge(Duration.ofSeconds(8))).isEqualTo(Duration.ofSeconds(6));
        assertThat(FreshTransactionSink.maxAge(Duration.ofMinutes(10))).isEqualTo(Duration.ofMinutes(9));
        assertThat(FreshTransactionSink.maxAge(Duration.ofMinutes(2))).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void aTransactionYoungerThanTheLimitIsOfferedForCommit() throws Exception {
        writer.write("a", null);
        now.addAndGet(6_000);
        assertThat(writer.prepareCommit()).hasSize(1);
        writer.snapshotState(1);
        writer.write("b", null);
        now.addAndGet(5_999);
        assertThat(writer.prepareCommit()).as("the age counts from the last checkpoint's state").hasSize(1);
    }

    @Test
    void aTransactionOlderThanTheLimitFailsTheCheckpoint() throws Exception {
        writer.snapshotState(1);
        writer.write("a", null);
        now.addAndGet(20_000); // the broker was away: the flush waited for it
        assertThatThrownBy(writer::prepareCommit).isInstanceOf(IOException.class)
                .hasMessageContaining("suggestions sink's Kafka transaction is 20000 ms old")
                .hasMessageContaining("not committed");
        assertThat(kafka.prepared).as("Kafka's writer prepared it; the checkpoint fails before the commit").isEqualTo(1);
    }

    @Test
    void anOldTransactionWithoutRecordsHasNothingToLose() throws Exception {
        now.addAndGet(60_000);
        assertThat(writer.prepareCommit()).isEmpty();
    }

    /** Kafka's writer as far as the check sees it: records make a transaction, prepareCommit hands it over. */
    private static final class Transactions
            implements TwoPhaseCommittingStatefulSink.PrecommittingStatefulSinkWriter<String, KafkaWriterState, KafkaCommittable> {
        final List<String> open = new ArrayList<>();
        int prepared;

        @Override
        public void write(String element, SinkWriter.Context context) {
            open.add(element);
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public Collection<KafkaCommittable> prepareCommit() {
            if (open.isEmpty()) {
                return List.of();
            }
            open.clear();
            prepared++;
            return List.of(new KafkaCommittable(7, (short) 0, "commitflow-suggestions-0-" + prepared, null));
        }

        @Override
        public List<KafkaWriterState> snapshotState(long checkpointId) {
            return List.of();
        }

        @Override
        public void close() {}
    }
}
