package io.commitflow.job;

import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.kafka.clients.producer.RecordMetadata;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    /**
     * {@code context}, with this as its metadata consumer. Every other call, default methods included, goes to
     * {@code context} itself, so a method that a later Flink adds to the interface is forwarded too; a proxy costs a
     * reflective call, and the writer makes these calls once, when it starts.
     */
    WriterInitContext context(WriterInitContext context) {
        InvocationHandler forward = (proxy, method, args) -> {
            if (method.getName().equals("metadataConsumer") && method.getParameterCount() == 0) {
                return Optional.of(this);
            }
            try {
                return method.invoke(context, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (WriterInitContext) Proxy.newProxyInstance(WriterInitContext.class.getClassLoader(),
                new Class<?>[] {WriterInitContext.class}, forward);
    }
}
