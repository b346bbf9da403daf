package io.commitflow.job;

import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The init context that {@link AckedOffsets} hands Kafka's writer, over a context that records what reaches it. */
class AckedOffsetsTest {
    private final List<String> reached = new ArrayList<>();
    private final WriterInitContext task = (WriterInitContext) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {WriterInitContext.class}, (proxy, method, args) -> {
                reached.add(method.getName());
                return switch (method.getName()) {
                    case "isObjectReuseEnabled" -> true;
                    case "getRestoredCheckpointId" -> OptionalLong.of(7);
                    case "metadataConsumer" -> Optional.empty();
                    case "getTaskInfo" -> throw new IllegalStateException("no task here");
                    default -> null;
                };
            });
    private final AckedOffsets acks = new AckedOffsets();
    private final WriterInitContext context = acks.context(task);

    @Test
    void acknowledgementsComeHereAndTheFirstOffsetOfEachPartitionIsDrained() {
        Consumer<RecordMetadata> consumer = context.<RecordMetadata>metadataConsumer().orElseThrow();
        consumer.accept(new RecordMetadata(new TopicPartition("suggestions", 1), 40, 3, 0L, 0, 10));
        consumer.accept(new RecordMetadata(new TopicPartition("suggestions", 1), 40, 2, 0L, 0, 10));
        consumer.accept(new RecordMetadata(new TopicPartition("suggestions", 0), 9, 0, 0L, 0, 10));

        assertThat(acks.drain()).containsExactly(new CommittableWithRecords.Start("suggestions", 1, 42),
                new CommittableWithRecords.Start("suggestions", 0, 9));
        assertThat(acks.drain()).as("a drain starts afresh").isEmpty();
        assertThat(reached).as("the task's own consumer is not asked for").isEmpty();
    }

    @Test
    void everyOtherCallReachesTheTasksContextAndItsFailureComesBackUnwrapped() {
        assertThat(context.isObjectReuseEnabled()).isTrue();
        assertThat(context.getRestoredCheckpointId()).hasValue(7);
        assertThatThrownBy(context::getTaskInfo).isInstanceOf(IllegalStateException.class).hasMessage("no task here");
        assertThat(reached).containsExactly("isObjectReuseEnabled", "getRestoredCheckpointId", "getTaskInfo");
    }
}
