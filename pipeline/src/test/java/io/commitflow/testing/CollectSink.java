package io.commitflow.testing;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A sink for MiniCluster tests that keeps what reaches it — replays after a failover included — under a name, in
 * this JVM (the MiniCluster runs in the test's JVM).
 */
public final class CollectSink<T> implements Sink<T> {
    private static final Map<String, ConcurrentLinkedQueue<Object>> COLLECTED = new ConcurrentHashMap<>();
    private final String name;

    /** A sink collecting under {@code name}; what was collected under it before is dropped. */
    public CollectSink(String name) {
        this.name = name;
        COLLECTED.put(name, new ConcurrentLinkedQueue<>());
    }

    /** What reached the sink named {@code name}, in arrival order. */
    @SuppressWarnings("unchecked")
    public static <T> List<T> collected(String name) {
        return (List<T>) List.copyOf(COLLECTED.getOrDefault(name, new ConcurrentLinkedQueue<>()));
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        ConcurrentLinkedQueue<Object> into = COLLECTED.get(name);
        return new SinkWriter<>() {
            @Override
            public void write(T value, Context c) {
                into.add(value);
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }
}
