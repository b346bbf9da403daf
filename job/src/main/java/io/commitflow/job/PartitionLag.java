package io.commitflow.job;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The job's consumer lag per partition, as metrics of the source that reads it (group {@code consumerLag}, with
 * {@code topic} and {@code partition} labels in Prometheus):
 * <ul>
 * <li>{@code recordsBehind} (records): the partition's last stable offset (the end a {@code read_committed} reader
 * can reach) less the job's position — the next offset after the last event this source read, or the group's
 * committed offset where that is further (a transaction's commit marker is no event, so only the committed
 * offset passes it); NaN until the end offset was first read;</li>
 * <li>{@code unreadAgeMs} (ms): while behind, now less the Kafka timestamp of the last event read, which bounds the
 * age of the oldest unread one from above; 0 when caught up.</li>
 * </ul>
 * End and committed offsets come from an admin client every {@value #REFRESH_MS} ms, on a thread of its own, so the
 * source's fetch thread never waits on them. The thread ends (closing its client) on {@link #stop()}, which the
 * source calls when the task's class loader is released (a deserializer has no close hook), and in any case once
 * the source that used it is gone: it holds this object weakly.
 */
final class PartitionLag {
    static final String GROUP = "consumerLag";
    static final long REFRESH_MS = 5_000;
    private static final Logger LOG = LoggerFactory.getLogger(PartitionLag.class);

    /** Where this source is in one partition; written by the fetch thread, read by the metrics reporter. */
    private static final class Position {
        volatile long next;
        volatile long lastTs;
        volatile long end = -1;
        volatile long committed = -1;
    }

    private final MetricGroup metrics;
    private final Map<TopicPartition, Position> positions = new ConcurrentHashMap<>();
    private volatile Thread refresher;

    private PartitionLag(MetricGroup metrics) {
        this.metrics = metrics.addGroup(GROUP);
    }

    /** Starts tracking for a source whose clients use {@code client} (bootstrap, security) and group {@code groupId}. */
    static PartitionLag start(MetricGroup metrics, Properties client, String groupId) {
        PartitionLag lag = new PartitionLag(metrics);
        Properties admin = new Properties();
        for (String key : client.stringPropertyNames()) {
            if (AdminClientConfig.configNames().contains(key)) {
                admin.setProperty(key, client.getProperty(key));
            }
        }
        admin.setProperty(AdminClientConfig.CLIENT_ID_CONFIG, groupId + "-lag");
        Thread t = new Thread(new Refresher(new WeakReference<>(lag), admin, groupId), "commitflow-consumer-lag");
        t.setDaemon(true);
        lag.refresher = t;
        t.start();
        return lag;
    }

    /**
     * Stops the refresher and waits up to a second for it to close its admin client: after the task's class loader
     * is released, a Kafka class it had not loaded yet can no longer be loaded.
     */
    void stop() {
        Thread t = refresher;
        if (t == null) {
            return;
        }
        refresher = null;
        t.interrupt();
        try {
            t.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the refresher thread still runs. */
    boolean refreshing() {
        Thread t = refresher;
        return t != null && t.isAlive();
    }

    /** The fetch thread read {@code offset} of a partition, written at {@code ts}. */
    void read(String topic, int partition, long offset, long ts) {
        TopicPartition tp = new TopicPartition(topic, partition);
        Position p = positions.get(tp);
        if (p == null) {
            p = new Position();
            positions.put(tp, p);
            register(tp, p);
        }
        p.next = offset + 1;
        p.lastTs = ts;
    }

    private void register(TopicPartition tp, Position p) {
        MetricGroup g = metrics.addGroup("topic", tp.topic()).addGroup("partition", Integer.toString(tp.partition()));
        g.gauge("recordsBehind", (Gauge<Double>) () -> behind(p));
        g.gauge("unreadAgeMs", (Gauge<Long>) () -> behind(p) > 0 ? Math.max(0, System.currentTimeMillis() - p.lastTs) : 0L);
    }

    static double behind(long end, long next, long committed) {
        return end < 0 ? Double.NaN : Math.max(0, end - Math.max(next, committed));
    }

    private static double behind(Position p) {
        return behind(p.end, p.next, p.committed);
    }

    private static final class Refresher implements Runnable {
        private final WeakReference<PartitionLag> lag;
        private final Properties admin;
        private final String groupId;

        Refresher(WeakReference<PartitionLag> lag, Properties admin, String groupId) {
            this.lag = lag;
            this.admin = admin;
            this.groupId = groupId;
        }

        @Override
        public void run() {
            try (Admin client = Admin.create(admin)) {
                while (refresh(client)) {
                    Thread.sleep(REFRESH_MS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                LOG.warn("consumer lag metrics stopped: {}", e.toString());
            }
        }

        /** One round; false once the source is gone. */
        private boolean refresh(Admin client) throws InterruptedException {
            PartitionLag l = lag.get();
            if (l == null || l.refresher == null || Thread.currentThread().isInterrupted()) {
                return false;
            }
            Map<TopicPartition, Position> positions = Map.copyOf(l.positions);
            l = null; // not held across the wait: the source may go meanwhile
            if (positions.isEmpty()) {
                return true;
            }
            try {
                Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                positions.keySet().forEach(tp -> latest.put(tp, OffsetSpec.latest()));
                var ends = client.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                        .all().get(REFRESH_MS, TimeUnit.MILLISECONDS);
                Map<TopicPartition, OffsetAndMetadata> committed = client.listConsumerGroupOffsets(groupId)
                        .partitionsToOffsetAndMetadata().get(REFRESH_MS, TimeUnit.MILLISECONDS);
                positions.forEach((tp, p) -> {
                    var end = ends.get(tp);
                    if (end != null) {
                        p.end = end.offset();
                    }
                    OffsetAndMetadata c = committed.get(tp);
                    if (c != null) {
                        p.committed = c.offset();
                    }
                });
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                LOG.debug("reading end offsets for the consumer lag failed: {}", e.toString());
            }
            return true;
        }
    }
}
