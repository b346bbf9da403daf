package io.commitflow.job;

import io.commitflow.testing.KafkaBroker;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-partition lag against a real broker: records behind are the partition's end less the position the source
 * read to, or less the group's committed offset where that is further; unknown (NaN) until the end was read; the
 * unread age is 0 once caught up.
 */
class PartitionLagITCase {
    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    /** A metric group that keeps its gauges by their full name ({@code consumerLag.topic.T.partition.P.name}). */
    private static final class Captured extends UnregisteredMetricsGroup {
        final Map<String, Metric> metrics;
        final String prefix;

        Captured(Map<String, Metric> metrics, String prefix) {
            this.metrics = metrics;
            this.prefix = prefix;
        }

        @Override
        public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
            metrics.put(prefix + name, gauge);
            return gauge;
        }

        @Override
        public MetricGroup addGroup(String name) {
            return new Captured(metrics, prefix + name + ".");
        }

        @Override
        public MetricGroup addGroup(String key, String value) {
            return new Captured(metrics, prefix + key + "." + value + ".");
        }
    }

    @Test
    void recordsBehindAreTheEndLessTheFurtherOfTheReadAndCommittedPositions() throws Exception {
        String topic = "lag-events";
        String group = "lag-group";
        KAFKA.createTopic(topic, 2);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            values.add(("e" + i).getBytes(StandardCharsets.UTF_8));
        }
        List<RecordMetadata> p0 = new ArrayList<>();
        for (RecordMetadata m : KAFKA.produce(topic, "k0".getBytes(StandardCharsets.UTF_8), values)) {
            p0.add(m);
        }
        int partition = p0.get(0).partition();
        Map<String, Metric> metrics = new ConcurrentHashMap<>();
        Properties client = new Properties();
        client.setProperty("bootstrap.servers", KAFKA.bootstrap());
        PartitionLag lag = PartitionLag.start(new Captured(metrics, ""), client, group);
        String gauges = "consumerLag.topic." + topic + ".partition." + partition + ".";

        RecordMetadata read = p0.get(29);
        lag.read(topic, partition, read.offset(), read.timestamp());
        assertThat(value(metrics, gauges + "recordsBehind")).as("before the end offset was read").isNaN();
        awaitValue(metrics, gauges + "recordsBehind", 70.0);
        assertThat(value(metrics, gauges + "unreadAgeMs")).as("behind: the last read event's age").isPositive();

        // the group committed further than this source read (another subtask's checkpoint, or a marker passed)
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", KAFKA.bootstrap()))) {
            admin.alterConsumerGroupOffsets(group, Map.of(new TopicPartition(topic, partition),
                    new OffsetAndMetadata(p0.get(89).offset() + 1))).all().get(30, TimeUnit.SECONDS);
        }
        awaitValue(metrics, gauges + "recordsBehind", 10.0);

        RecordMetadata last = p0.get(99);
        lag.read(topic, partition, last.offset(), last.timestamp());
        assertThat(value(metrics, gauges + "recordsBehind")).isZero();
        assertThat(value(metrics, gauges + "unreadAgeMs")).as("caught up").isZero();
        assertThat(PartitionLag.behind(-1, 5, 3)).isNaN();

        // the source's task ends: its class loader's release hook stops the refresher at once
        assertThat(lag.refreshing()).isTrue();
        lag.stop();
        assertThat(lag.refreshing()).as("the refresher after stop()").isFalse();
    }

    private static double value(Map<String, Metric> metrics, String name) {
        Metric m = metrics.get(name);
        assertThat(m).as("gauge %s among %s", name, metrics.keySet()).isNotNull();
        return ((Number) ((Gauge<?>) m).getValue()).doubleValue();
    }

    private static void awaitValue(Map<String, Metric> metrics, String name, double expected) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < until && value(metrics, name) != expected) {
            Thread.sleep(100);
        }
        assertThat(value(metrics, name)).as(name).isEqualTo(expected);
    }
}
