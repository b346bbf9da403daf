package io.commitflow.job;

import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;
import org.apache.flink.connector.kafka.sink.TwoPhaseCommittingStatefulSink;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
    private final CapturingSerializer<String> serializer = new CapturingSerializer<>(KafkaRecordSerializationSchema
            .<String>builder().setTopic("commitflow.suggestions").setValueSerializationSchema(new SimpleStringSchema()).build());
    private final Transactions kafka = new Transactions(serializer);
    private final FreshTransactionSink.Writer<String> writer = new FreshTransactionSink.Writer<>(kafka, new AckedOffsets(),
            serializer::drain, 6_000, "suggestions", now::get);
    private final SinkWriter.Context at = new SinkWriter.Context() {
        @Override
        public long currentWatermark() {
            return 0;
        }

        @Override
        public Long timestamp() {
            return 42L;
        }
    };

    @Test
    void theMarginIsAQuarterOfTheTimeoutAtMostAMinute() {
        assertThat(FreshTransactionSink.maxAge(Duration.ofSeconds(8))).isEqualTo(Duration.ofSeconds(6));
        assertThat(FreshTransactionSink.maxAge(Duration.ofMinutes(10))).isEqualTo(Duration.ofMinutes(9));
        assertThat(FreshTransactionSink.maxAge(Duration.ofMinutes(2))).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void aTransactionYoungerThanTheLimitIsOfferedForCommit() throws Exception {
        writer.write("a", at);
        now.addAndGet(6_000);
        assertThat(writer.prepareCommit()).hasSize(1);
        writer.snapshotState(1);
        writer.write("b", at);
        now.addAndGet(5_999);
        assertThat(writer.prepareCommit()).as("the age counts from the last checkpoint's state").hasSize(1);
    }

    @Test
    void aTransactionOlderThanTheLimitFailsTheCheckpoint() throws Exception {
        writer.snapshotState(1);
        writer.write("a", at);
        now.addAndGet(20_000); // the broker was away: the flush waited for it
        assertThatThrownBy(writer::prepareCommit).isInstanceOf(IOException.class)
                .hasMessageContaining("suggestions sink's Kafka transaction is 20000 ms old")
                .hasMessageContaining("not committed");
        assertThat(kafka.prepared).as("Kafka's writer prepared it; the checkpoint fails before the commit").isEqualTo(1);
    }

    @Test
    void eachTransactionGoesToTheCommitterWithTheRecordsWrittenInIt() throws Exception {
        writer.write("a", at);
        writer.write("b", at);
        CommittableWithRecords first = writer.prepareCommit().iterator().next();
        writer.snapshotState(1);
        writer.write("c", at);
        CommittableWithRecords second = writer.prepareCommit().iterator().next();

        assertThat(first.records()).extracting(r -> new String(r.value(), StandardCharsets.UTF_8)).containsExactly("a", "b");
        assertThat(first.records()).extracting(CommittableWithRecords.Record::topic).containsOnly("commitflow.suggestions");
        assertThat(second.records()).extracting(r -> new String(r.value(), StandardCharsets.UTF_8)).containsExactly("c");
        assertThat(second.committable().getTransactionalId()).isEqualTo("commitflow-suggestions-0-2");
    }

    @Test
    void theCommittableKeepsItsRecordsThroughACheckpointAndOldOnesRestoreWithout() throws Exception {
        var kafkaSerializer = org.apache.flink.connector.kafka.sink.KafkaSink.<String>builder()
                .setBootstrapServers("localhost:9092").setTransactionalIdPrefix("commitflow-dlq")
                .setDeliveryGuarantee(org.apache.flink.connector.base.DeliveryGuarantee.EXACTLY_ONCE)
                .setRecordSerializer(KafkaRecordSerializationSchema.<String>builder().setTopic("commitflow.dlq")
                        .setValueSerializationSchema(new SimpleStringSchema()).build())
                .build().getCommittableSerializer();
        var serializer = new CommittableWithRecords.Serializer(kafkaSerializer);
        var header = new org.apache.kafka.common.header.internals.RecordHeader("traceparent", "00-ab".getBytes(StandardCharsets.UTF_8));
        var c = new CommittableWithRecords(new KafkaCommittable(7, (short) 3, "commitflow-dlq-1-9", null),
                List.of(new CommittableWithRecords.Record("commitflow.dlq", null, "{}".getBytes(StandardCharsets.UTF_8),
                        List.of(header)), new CommittableWithRecords.Record("commitflow.dlq", new byte[] {1}, null, List.of())));

        CommittableWithRecords back = serializer.deserialize(serializer.getVersion(), serializer.serialize(c));
        assertThat(back.committable()).isEqualTo(c.committable());
        assertThat(back.records()).hasSize(2);
        assertThat(back.records().get(0).value()).isEqualTo("{}".getBytes(StandardCharsets.UTF_8));
        assertThat(back.records().get(0).headers()).singleElement().satisfies(h -> {
            assertThat(h.key()).isEqualTo("traceparent");
            assertThat(h.value()).isEqualTo(header.value());
        });
        assertThat(back.records().get(1).key()).containsExactly(1);
        assertThat(back.records().get(1).value()).isNull();
        // as a savepoint of the job before the records were kept holds it: Kafka's own bytes and version
        CommittableWithRecords old = serializer.deserialize(kafkaSerializer.getVersion(), kafkaSerializer.serialize(c.committable()));
        assertThat(old.committable()).isEqualTo(c.committable());
        assertThat(old.records()).isEmpty();
    }

    @Test
    void anOldTransactionWithoutRecordsHasNothingToLose() throws Exception {
        now.addAndGet(60_000);
        assertThat(writer.prepareCommit()).isEmpty();
    }

    @Test
    void theSinkAndItsKafkaSinkShareOneSerializerInEachTaskSoTheRecordsItKeepsAreKafkasOwn() throws Exception {
        Object sink = org.apache.flink.util.InstantiationUtil.clone(
                (java.io.Serializable) KafkaIO.suggestionSink(KafkaSettings.defaults("localhost:9092")));
        assertThat(sink).isInstanceOf(FreshTransactionSink.class);
        Object kafkaSink = field(sink, FreshTransactionSink.class, "kafka");
        assertThat(field(kafkaSink, org.apache.flink.connector.kafka.sink.KafkaSink.class, "recordSerializer"))
                .as("one instance after the sink travelled to its task").isSameAs(field(sink, FreshTransactionSink.class, "records"));
    }

    private static Object field(Object o, Class<?> c, String name) throws Exception {
        java.lang.reflect.Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }

    /**
     * Kafka's writer as far as the check sees it: records make a transaction (each serialized once, as Kafka's writer
     * does), prepareCommit hands it over.
     */
    private static final class Transactions
            implements TwoPhaseCommittingStatefulSink.PrecommittingStatefulSinkWriter<String, KafkaWriterState, KafkaCommittable> {
        final List<String> open = new ArrayList<>();
        final CapturingSerializer<String> serializer;
        int prepared;

        Transactions(CapturingSerializer<String> serializer) {
            this.serializer = serializer;
        }

        @Override
        public void write(String element, SinkWriter.Context context) {
            serializer.serialize(element, null, context.timestamp());
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
