package io.commitflow.job;

import org.apache.flink.api.common.JobInfo;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.flink.util.UserCodeClassLoader;
import org.apache.kafka.clients.producer.RecordMetadata;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The first offset the broker acknowledged in each partition since the last {@link #drain}: Kafka's writer reports
 * every acknowledged record to its init context's metadata consumer (from the producer's I/O thread), and
 * {@link #context} hands it one. After the writer's flush, a drain gives where the open transaction's records begin.
 */
final class AckedOffsets implements Consumer<RecordMetadata> {
    private final Map<String, CommittableWithRecords.Start> first = new LinkedHashMap<>();

    @Override
    public synchronized void accept(RecordMetadata m) {
        if (m != null && m.hasOffset() && m.offset() >= 0) {
            first.merge(m.topic() + "-" + m.partition(), new CommittableWithRecords.Start(m.topic(), m.partition(),
                    m.offset()), (a, b) -> a.offset() <= b.offset() ? a : b);
        }
    }

    /** The first acknowledged offset per partition since the last drain, and a fresh start. */
    synchronized List<CommittableWithRecords.Start> drain() {
        List<CommittableWithRecords.Start> out = new ArrayList<>(first.values());
        first.clear();
        return out;
    }

    /** {@code context}, with this as its metadata consumer. */
    WriterInitContext context(WriterInitContext context) {
        AckedOffsets self = this;
        return new WriterInitContext() {
            @Override
            @SuppressWarnings("unchecked")
            public <MetaT> Optional<Consumer<MetaT>> metadataConsumer() {
                return Optional.of((Consumer<MetaT>) self);
            }

            @Override
            public UserCodeClassLoader getUserCodeClassLoader() {
                return context.getUserCodeClassLoader();
            }

            @Override
            public MailboxExecutor getMailboxExecutor() {
                return context.getMailboxExecutor();
            }

            @Override
            public ProcessingTimeService getProcessingTimeService() {
                return context.getProcessingTimeService();
            }

            @Override
            public SinkWriterMetricGroup metricGroup() {
                return context.metricGroup();
            }

            @Override
            public SerializationSchema.InitializationContext asSerializationSchemaInitializationContext() {
                return context.asSerializationSchemaInitializationContext();
            }

            @Override
            public boolean isObjectReuseEnabled() {
                return context.isObjectReuseEnabled();
            }

            @Override
            public <IN> TypeSerializer<IN> createInputSerializer() {
                return context.createInputSerializer();
            }

            @Override
            public OptionalLong getRestoredCheckpointId() {
                return context.getRestoredCheckpointId();
            }

            @Override
            public JobInfo getJobInfo() {
                return context.getJobInfo();
            }

            @Override
            public TaskInfo getTaskInfo() {
                return context.getTaskInfo();
            }
        };
    }
}
