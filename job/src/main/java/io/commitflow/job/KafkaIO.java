package io.commitflow.job;

import io.commitflow.event.DeadLetter;
import io.commitflow.event.Json;
import io.commitflow.event.Origin;
import io.commitflow.event.RawRecord;
import io.commitflow.event.Suggestion;
import io.commitflow.event.Tenants;
import io.commitflow.event.TraceContext;
import io.commitflow.sla.SlaRecord;
import io.commitflow.trace.Stages;
import io.commitflow.trace.Tracing;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.HeaderProvider;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;

/** The job's Kafka source and sinks, built from {@link KafkaSettings}. */
public final class KafkaIO {
    /** How often the requests source looks for the requests topic's partitions (and the topic itself). */
    public static final long REQUESTS_DISCOVERY_MS = 10_000;

    private KafkaIO() {}

    /** The events source, unbounded; tests add {@code setBounded(...)} to the builder. */
    public static KafkaSourceBuilder<RawRecord> sourceBuilder(KafkaSettings k) {
        KafkaSourceBuilder<RawRecord> b = KafkaSource.<RawRecord>builder().setBootstrapServers(k.bootstrap());
        if (Tenants.perTenant(k.eventsTopic())) {
            // every tenant's topic, and a new tenant's within the discovery interval
            b.setTopicPattern(new Tenants.Source(k.eventsTopic()).pattern())
                    .setProperty("partition.discovery.interval.ms", Long.toString(REQUESTS_DISCOVERY_MS));
        } else {
            b.setTopics(k.eventsTopic());
        }
        return b
                .setGroupId(k.groupId())
                .setStartingOffsets(OffsetsInitializer.committedOffsets(
                        k.fromEarliest() ? OffsetResetStrategy.EARLIEST : OffsetResetStrategy.LATEST))
                .setDeserializer(new RawRecords(withBootstrap(k), k.groupId(), k.eventsTopic()))
                .setProperties(clientProperties(k))
                // events written in transactions count only once committed
                .setProperty("isolation.level", "read_committed")
                .setProperty("client.id.prefix", k.groupId() + "-events");
    }

    /**
     * The drafts' source: the requests topic, its own consumer, starting at the end where the group has no offsets
     * (a draft nobody waits for any more is not worth answering). Subscribed by pattern, so that a deployment
     * without the topic runs (nothing to read) and picks the topic up within {@value #REQUESTS_DISCOVERY_MS} ms of
     * its creation, instead of failing at start as a named topic that does not exist would.
     */
    public static KafkaSource<RawRecord> requestsSource(KafkaSettings k) {
        return KafkaSource.<RawRecord>builder()
                .setBootstrapServers(k.bootstrap())
                .setTopicPattern(Tenants.perTenant(k.requestsTopic()) ? new Tenants.Source(k.requestsTopic()).pattern()
                        : java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(k.requestsTopic())))
                .setProperty("partition.discovery.interval.ms", Long.toString(REQUESTS_DISCOVERY_MS))
                .setGroupId(k.groupId())
                .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.LATEST))
                .setDeserializer(new RawRecords(withBootstrap(k), k.groupId(), k.requestsTopic()))
                .setProperties(clientProperties(k))
                .setProperty("client.id.prefix", k.groupId() + "-requests")
                .build();
    }

    /** Suggestions keyed by repository, so that one repository's suggestions stay in order. */
    public static Sink<Suggestion> suggestionSink(KafkaSettings k) {
        return sink(k, new TenantTopic<>(k.suggestionsTopic(), Suggestion::tenant), "suggestions", new SuggestionKey(),
                new JsonValue<>(),
                new SuggestionTrace(k.suggestionsTopic()));
    }

    /**
     * The drafts' suggestions, keyed by trace id: at-least-once whatever the job's delivery, so that they are
     * readable the moment they are made (someone waits at {@code git commit}); a duplicate after a failover is
     * harmless, the waiting client takes the first with its trace id.
     */
    public static Sink<Suggestion> replySink(KafkaSettings k) {
        return KafkaSink.<Suggestion>builder()
                .setBootstrapServers(k.bootstrap())
                .setKafkaProducerConfig(clientProperties(k))
                .setProperty("linger.ms", "0")
                .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .setRecordSerializer(KafkaRecordSerializationSchema.<Suggestion>builder()
                        .setTopicSelector(new TenantTopic<>(k.repliesTopic(), Suggestion::tenant))
                        .setKeySerializationSchema(new TraceIdKey())
                        .setValueSerializationSchema(new JsonValue<>())
                        .setHeaderProvider(new SuggestionTrace(k.repliesTopic()))
                        .build())
                .build();
    }

    /** Dead letters keyed by their origin ({@code topic-partition@offset}). */
    public static Sink<DeadLetter> deadLetterSink(KafkaSettings k) {
        return sink(k, new TenantTopic<>(k.deadLetterTopic(), DeadLetter::tenant), "dlq", new DeadLetterKey(),
                new JsonValue<>(),
                new DeadLetterTrace(k.deadLetterTopic()));
    }

    /**
     * Refuses delivery settings that cannot work with the job's checkpointing: exactly-once sinks commit on
     * checkpoints, so they need checkpointing on and a transaction timeout longer than the checkpoint interval (a
     * transaction open longer than its timeout is aborted by the broker: its records would be lost).
     */
    public static void checkDelivery(KafkaSettings k, long checkpointIntervalMillis) {
        if (k.delivery() != DeliveryGuarantee.EXACTLY_ONCE) {
            return;
        }
        if (checkpointIntervalMillis <= 0) {
            throw new IllegalArgumentException("exactly-once delivery commits on checkpoints, but checkpointing is off: "
                    + "set execution.checkpointing.interval (flink-conf/config.yaml has 5s) or use --delivery at-least-once");
        }
        if (k.transactionTimeout().toMillis() <= 2 * checkpointIntervalMillis) {
            throw new IllegalArgumentException("--transaction-timeout " + k.transactionTimeout() + " must be well above "
                    + "the checkpoint interval (" + checkpointIntervalMillis + " ms): at least twice it, better minutes");
        }
    }

    /**
     * {@link #checkDelivery(KafkaSettings, long)} with the job's configuration, and one more rule: the transaction
     * timeout exceeds the checkpoint timeout plus the restart strategy's longest delay, so that the transaction a
     * slow checkpoint covers, or one the job restarts to commit, is not aborted by the broker first.
     */
    public static void checkDelivery(KafkaSettings k, org.apache.flink.configuration.ReadableConfig conf) {
        checkDelivery(k, conf.getOptional(org.apache.flink.configuration.CheckpointingOptions.CHECKPOINTING_INTERVAL)
                .map(Duration::toMillis).orElse(-1L));
        if (k.delivery() != DeliveryGuarantee.EXACTLY_ONCE) {
            return;
        }
        Duration checkpoint = conf.get(org.apache.flink.configuration.CheckpointingOptions.CHECKPOINTING_TIMEOUT);
        Duration restart = longestRestartDelay(conf);
        if (k.transactionTimeout().compareTo(checkpoint.plus(restart)) <= 0) {
            throw new IllegalArgumentException("--transaction-timeout " + JobConfig.duration(k.transactionTimeout())
                    + " must exceed execution.checkpointing.timeout (" + JobConfig.duration(checkpoint)
                    + ") plus the restart strategy's longest delay (" + JobConfig.duration(restart) + "): a checkpoint "
                    + "that takes its whole time, or a restart, would outlive its transactions. Raise the transaction "
                    + "timeout (at most the broker's transaction.max.timeout.ms, 15m by default) or lower the others");
        }
    }

    /** The longest pause the configured restart strategy makes before a restart. */
    static Duration longestRestartDelay(org.apache.flink.configuration.ReadableConfig conf) {
        String type = conf.getOptional(org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY)
                .orElse("exponential-delay"); // Flink's default with checkpointing on
        return switch (type.toLowerCase(java.util.Locale.ROOT)) {
            case "none", "off", "disable" -> Duration.ZERO;
            case "fixed-delay", "fixeddelay" ->
                    conf.get(org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY);
            case "failure-rate", "failurerate" ->
                    conf.get(org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_DELAY);
            default -> conf.get(
                    org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF);
        };
    }

    /** SLA records keyed by tenant. */
    public static Sink<SlaRecord> slaSink(KafkaSettings k) {
        return sink(k, new TenantTopic<>(k.slaTopic(), SlaRecord::tenant), "sla", new SlaKey(), new SlaValue(),
                new SpikeTrace());
    }

    /**
     * A Kafka sink of {@code topic}; exactly-once ones commit on checkpoints and never commit a transaction that
     * may have outlived the transaction timeout ({@link FreshTransactionSink}).
     */
    private static <T> Sink<T> sink(KafkaSettings k, TenantTopic<T> topic, String name, SerializationSchema<T> key,
                                         SerializationSchema<T> json, HeaderProvider<T> headers) {
        Properties producer = clientProperties(k);
        producer.setProperty("bootstrap.servers", k.bootstrap());
        producer.setProperty("transaction.timeout.ms", Long.toString(k.transactionTimeout().toMillis()));
        producer.setProperty("compression.type", "lz4");
        KafkaRecordSerializationSchema<T> serializer = KafkaRecordSerializationSchema.<T>builder()
                .setTopicSelector(topic)
                .setKeySerializationSchema(key)
                .setValueSerializationSchema(json)
                .setHeaderProvider(headers)
                .build();
        CapturingSerializer<T> records = new CapturingSerializer<>(serializer);
        var builder = KafkaSink.<T>builder()
                .setKafkaProducerConfig(producer) // bootstrap.servers included
                .setDeliveryGuarantee(k.delivery());
        if (k.delivery() != DeliveryGuarantee.EXACTLY_ONCE) {
            return builder.setRecordSerializer(serializer).build();
        }
        builder.setRecordSerializer(records);
        String prefix = k.transactionalIdPrefix() + "-" + name;
        builder.setTransactionalIdPrefix(prefix);
        return new FreshTransactionSink<>(builder.build(), records, producer, prefix, k.transactionTimeout(), name);
    }

    private static Properties clientProperties(KafkaSettings k) {
        Properties p = new Properties();
        p.putAll(k.properties());
        return p;
    }

    private static Properties withBootstrap(KafkaSettings k) {
        Properties p = clientProperties(k);
        p.setProperty("bootstrap.servers", k.bootstrap());
        return p;
    }

    // Named classes, not lambdas: the sink's lineage reporting reads their type parameters.

    static final class JsonValue<T> implements SerializationSchema<T> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(T element) {
            return Json.bytes(element);
        }
    }

    static final class SlaKey implements SerializationSchema<SlaRecord> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(SlaRecord r) {
            return r.tenant().getBytes(StandardCharsets.UTF_8);
        }
    }

    static final class SlaValue implements SerializationSchema<SlaRecord> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(SlaRecord r) {
            return r.json().getBytes(StandardCharsets.UTF_8);
        }
    }

    static final class SuggestionKey implements SerializationSchema<Suggestion> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(Suggestion s) {
            return s.repo().getBytes(StandardCharsets.UTF_8);
        }
    }

    /**
     * {@code traceparent} on every suggestion: the event's trace, continued by whoever reads it; the span it names is
     * the sink's, exported here when the trace is sampled.
     */
    static final class SuggestionTrace implements HeaderProvider<Suggestion> {
        private static final long serialVersionUID = 1L;
        private final String topic;

        SuggestionTrace(String topic) {
            this.topic = topic;
        }

        @Override
        public Headers getHeaders(Suggestion s) {
            Tracing tracing = Tracing.current();
            if (tracing.enabled()) {
                Stages.sentSuggestion(tracing, s, TenantTopic.of(topic, s.tenant()));
            }
            return traceHeaders(s.traceparent() != null ? s.traceparent()
                    : TraceContext.traceparent(s.traceId(), Stages.published(s.repo(), s.sha())), s.tracestate());
        }
    }

    /** {@code traceparent} on every dead letter: the trace of the record it rejects, and the sink's span in it. */
    static final class DeadLetterTrace implements HeaderProvider<DeadLetter> {
        private static final long serialVersionUID = 1L;
        private final String topic;

        DeadLetterTrace(String topic) {
            this.topic = topic;
        }

        @Override
        public Headers getHeaders(DeadLetter d) {
            Tracing tracing = Tracing.current();
            String key = Stages.deadLetter(d);
            String state = d.origin().tracestate();
            Tracing.Trace t = tracing.enabled() ? tracing.trace(d.traceId(), d.origin().traceparent(), state) : null;
            if (t != null) {
                Stages.sentDeadLetter(tracing, t, d, TenantTopic.of(topic, d.tenant()));
            }
            return traceHeaders(tracing.traceparentFor(t, d.traceId(), key), state);
        }
    }

    /** {@code traceparent} on every spike record: the trace of its slowest request, which the spike names first. */
    static final class SpikeTrace implements HeaderProvider<SlaRecord> {
        private static final long serialVersionUID = 1L;

        @Override
        public Headers getHeaders(SlaRecord r) {
            String slowest = r.traceId();
            return slowest == null ? new RecordHeaders()
                    : traceHeaders(TraceContext.traceparent(slowest, "sla-spike/" + r.tenant()), null);
        }
    }

    private static Headers traceHeaders(String traceparent, String tracestate) {
        RecordHeaders h = new RecordHeaders();
        addTraceHeaders(h, traceparent, tracestate);
        return h;
    }

    /** Adds W3C trace context to a record's headers: {@code traceparent}, and {@code tracestate} unless null. */
    public static void addTraceHeaders(Headers h, String traceparent, String tracestate) {
        h.add(TraceContext.HEADER, traceparent.getBytes(StandardCharsets.US_ASCII));
        if (tracestate != null) {
            h.add(TraceContext.STATE_HEADER, tracestate.getBytes(StandardCharsets.US_ASCII));
        }
    }

    static final class TraceIdKey implements SerializationSchema<Suggestion> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(Suggestion s) {
            return s.traceId().getBytes(StandardCharsets.UTF_8);
        }
    }

    static final class DeadLetterKey implements SerializationSchema<DeadLetter> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(DeadLetter d) {
            return d.origin().toString().getBytes(StandardCharsets.UTF_8);
        }
    }

    /** Hands each record on untouched; parsing happens in an operator so that bad records become dead letters. */
    static final class RawRecords implements KafkaRecordDeserializationSchema<RawRecord> {
        private static final long serialVersionUID = 1L;
        private final Properties client;
        private final String groupId;
        private final Tenants.Source tenants;
        private transient PartitionLag lag;

        /**
         * @param client  the source's client properties and group, for the consumer lag metrics ({@link PartitionLag})
         * @param topic   the topic name the source reads: with {@value Tenants#PLACEHOLDER}, each record is the
         *                tenant's whose topic it came from
         */
        RawRecords(Properties client, String groupId, String topic) {
            this.client = client;
            this.groupId = groupId;
            this.tenants = Tenants.perTenant(topic) ? new Tenants.Source(topic) : null;
        }

        @Override
        public void open(DeserializationSchema.InitializationContext context) {
            lag = PartitionLag.start(context.getMetricGroup(), client, groupId);
            // the task's classes go with its class loader: the refresher stops now, not at its next refresh
            PartitionLag started = lag;
            context.getUserCodeClassLoader().registerReleaseHookIfAbsent(
                    "commitflow-consumer-lag-" + System.identityHashCode(started), started::stop);
        }

        @Override
        public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawRecord> out) {
            if (lag != null) {
                lag.read(record.topic(), record.partition(), record.offset(), record.timestamp());
            }
            Origin origin = new Origin(record.topic(), record.partition(), record.offset(), record.timestamp());
            Header traceparent = record.headers().lastHeader(TraceContext.HEADER);
            if (traceparent != null && traceparent.value() != null) {
                Header state = record.headers().lastHeader(TraceContext.STATE_HEADER);
                origin = origin.withTraceContext(new String(traceparent.value(), StandardCharsets.US_ASCII),
                        state == null || state.value() == null ? null : new String(state.value(), StandardCharsets.US_ASCII));
            }
            String tenant = null;
            if (tenants != null) {
                tenant = tenants.tenantOf(record.topic());
                tenant = tenant == null ? "" : tenant;
            }
            out.collect(new RawRecord(origin, record.key(), record.value(), tenant));
        }

        @Override
        public TypeInformation<RawRecord> getProducedType() {
            return TypeInformation.of(RawRecord.class);
        }
    }
}
