package io.commitflow.testing;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real Kafka broker (KRaft, one combined broker and controller node, in this JVM) shared by the tests of one
 * class: {@code @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();}.
 */
public final class KafkaBroker implements BeforeAllCallback, AfterAllCallback {
    private KafkaClusterTestKit cluster;
    private final boolean sasl;

    public KafkaBroker() {
        this(false);
    }

    private KafkaBroker(boolean sasl) {
        this.sasl = sasl;
    }

    /**
     * A broker whose clients must authenticate: SASL_PLAINTEXT with the PLAIN mechanism (the test kit's users);
     * {@link #clientProperties()} are what a client needs. The test kit's own admin and these helpers use them.
     */
    public static KafkaBroker withSasl() {
        return new KafkaBroker(true);
    }

    /** The security settings a client of this broker needs (none without SASL). */
    public Map<String, String> clientProperties() {
        if (!sasl) {
            return Map.of();
        }
        return Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN",
                "sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
                        + org.apache.kafka.common.test.JaasUtils.KAFKA_PLAIN_ADMIN + "\" password=\""
                        + org.apache.kafka.common.test.JaasUtils.KAFKA_PLAIN_ADMIN_PASSWORD + "\";");
    }

    private Map<String, Object> with(Map<String, Object> p) {
        Map<String, Object> out = new java.util.HashMap<>(p);
        out.putAll(clientProperties());
        return out;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        // a SASL broker runs beside its controller (combined with it, the test kit's broker never catches up)
        TestKitNodes.Builder nodes = new TestKitNodes.Builder().setCombined(!sasl).setNumBrokerNodes(1).setNumControllerNodes(1);
        if (sasl) {
            nodes.setBrokerSecurityProtocol(org.apache.kafka.common.security.auth.SecurityProtocol.SASL_PLAINTEXT);
        }
        cluster = new KafkaClusterTestKit.Builder(nodes.build())
                // one node: internal topics need one replica and one partition, or consumers wait forever
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("offsets.topic.num.partitions", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("transaction.state.log.num.partitions", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    public String bootstrap() {
        return cluster.bootstrapServers();
    }

    public void createTopic(String name, int partitions) throws Exception {
        try (Admin admin = Admin.create(with(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap())))) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
    }

    /** Sends each value (with {@code key}) and returns the metadata (partition, offset) of each, in order. */
    public List<RecordMetadata> produce(String topic, byte[] key, List<byte[]> values) throws Exception {
        Map<String, Object> p = with(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(), ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 8 * 1024 * 1024));
        List<RecordMetadata> out = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (byte[] v : values) {
                out.add(producer.send(new ProducerRecord<>(topic, key, v)).get(30, TimeUnit.SECONDS));
            }
        }
        return out;
    }

    /** Sends one value with a {@code traceparent} header, as an OpenTelemetry-instrumented producer does. */
    public RecordMetadata produceTraced(String topic, byte[] key, byte[] value, String traceparent) throws Exception {
        return produceTraced(topic, key, value, traceparent, null);
    }

    /** Sends one value with {@code traceparent} and, unless null, {@code tracestate} headers. */
    public RecordMetadata produceTraced(String topic, byte[] key, byte[] value, String traceparent, String tracestate)
            throws Exception {
        return produceTraced(topic, key, value, traceparent, tracestate, null);
    }

    /**
     * Sends one value with {@code traceparent} and, unless null, {@code tracestate} headers, stamped
     * {@code timestampMs} (the producer's clock when null): an event that waited before it was sent.
     */
    public RecordMetadata produceTraced(String topic, byte[] key, byte[] value, String traceparent, String tracestate,
                                        Long timestampMs) throws Exception {
        Map<String, Object> p = with(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(), ProducerConfig.ACKS_CONFIG, "all"));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, null, timestampMs, key, value);
            r.headers().add("traceparent", traceparent.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            if (tracestate != null) {
                r.headers().add("tracestate", tracestate.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            }
            return producer.send(r).get(30, TimeUnit.SECONDS);
        }
    }

    /** Every committed record of {@code topic}, read with {@code read_committed} up to the end offsets. */
    public List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic) {
        return readCommitted(with(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap())), topic);
    }

    /**
     * Every committed record of {@code topic} on any broker ({@code client}: its bootstrap and security
     * settings), read with {@code read_committed} up to the end offsets.
     */
    public static List<ConsumerRecord<byte[], byte[]>> readCommitted(Map<String, Object> client, String topic) {
        Map<String, Object> p = new java.util.HashMap<>(client);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            // with read_committed, the end offsets are the last stable offsets: everything committed so far
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " to its end offsets " + end);
                }
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }
}
