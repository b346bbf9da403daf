package io.commitflow.job;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacetProvider;
import org.apache.flink.connector.kafka.lineage.TypeDatasetFacet;
import org.apache.flink.connector.kafka.lineage.TypeDatasetFacetProvider;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A Kafka sink's record serializer that keeps a copy of what it serializes since the last {@link #drain}: the records
 * of the open transaction, for {@link FreshTransactionSink}'s committer to write again. Each record is made once, by
 * Kafka's writer (its header provider, which exports the sink's span, runs once). {@link FreshTransactionSink} holds
 * the same instance as its {@code KafkaSink}: Java serialization keeps the two references one object in each task.
 * Lineage passes through to the wrapped serializer.
 */
final class CapturingSerializer<T> implements KafkaRecordSerializationSchema<T>, KafkaDatasetFacetProvider,
        TypeDatasetFacetProvider {
    private static final long serialVersionUID = 1L;

    private final KafkaRecordSerializationSchema<T> serializer;
    private transient List<CommittableWithRecords.Record> captured;

    CapturingSerializer(KafkaRecordSerializationSchema<T> serializer) {
        this.serializer = serializer;
    }

    @Override
    public void open(SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) throws Exception {
        serializer.open(context, sinkContext);
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(T element, KafkaSinkContext context, Long timestamp) {
        ProducerRecord<byte[], byte[]> r = serializer.serialize(element, context, timestamp);
        if (r != null) {
            records().add(CommittableWithRecords.Record.of(r));
        }
        return r;
    }

    /** The records serialized since the last drain, in order; a fresh start. Called on the task's thread, as serialize. */
    List<CommittableWithRecords.Record> drain() {
        List<CommittableWithRecords.Record> out = records();
        captured = new ArrayList<>();
        return out;
    }

    private List<CommittableWithRecords.Record> records() {
        if (captured == null) {
            captured = new ArrayList<>();
        }
        return captured;
    }

    @Override
    public Optional<KafkaDatasetFacet> getKafkaDatasetFacet() {
        return serializer instanceof KafkaDatasetFacetProvider p ? p.getKafkaDatasetFacet() : Optional.empty();
    }

    @Override
    public Optional<TypeDatasetFacet> getTypeDatasetFacet() {
        return serializer instanceof TypeDatasetFacetProvider p ? p.getTypeDatasetFacet() : Optional.empty();
    }
}
