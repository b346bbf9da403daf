package io.commitflow.job;

import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.configuration.ConfigOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job's Kafka flags, shared by {@code commitflow job} and the cluster entry point: one per {@code
 * commitflow.kafka.*} option of {@link JobConfig} ({@link JobFlags}), besides {@code --bootstrap} and {@code -X},
 * which other commands take too.
 */
@Command // a mixin: its flags come from JobFlags.install
public class KafkaOptions extends JobFlags {
    @Mixin
    BootstrapOption bootstrap = new BootstrapOption();

    @Mixin
    KafkaPropertiesOption properties = new KafkaPropertiesOption();

    @Override
    boolean owns(ConfigOption<?> option) {
        return option.key().startsWith("commitflow.kafka.");
    }

    /** The environment; tests replace it. */
    java.util.function.Function<String, String> env = System::getenv;

    /** The configuration the flags override; the Kafka properties it sets are merged under the flags'. */
    org.apache.flink.configuration.ReadableConfig conf = new org.apache.flink.configuration.Configuration();

    public KafkaSettings toSettings() {
        // the configuration's commitflow.kafka.bootstrap is --bootstrap's default: missing only when neither is set
        String servers = bootstrap.required(spec);
        List<String> topics = List.of(get(JobConfig.KAFKA_EVENTS_TOPIC), get(JobConfig.KAFKA_SUGGESTIONS_TOPIC),
                get(JobConfig.KAFKA_DLQ_TOPIC), get(JobConfig.KAFKA_SLA_TOPIC), get(JobConfig.KAFKA_REPLIES_TOPIC),
                get(JobConfig.KAFKA_REQUESTS_TOPIC));
        String startFrom = get(JobConfig.KAFKA_START_FROM);
        boolean earliest = switch (startFrom) {
            case "earliest" -> true;
            case "latest" -> false;
            default -> throw usage("--start-from must be earliest or latest, got " + startFrom);
        };
        String delivery = get(JobConfig.KAFKA_DELIVERY);
        DeliveryGuarantee guarantee = switch (delivery) {
            case "exactly-once" -> DeliveryGuarantee.EXACTLY_ONCE;
            case "at-least-once" -> DeliveryGuarantee.AT_LEAST_ONCE;
            default -> throw usage("--delivery must be exactly-once or at-least-once, got " + delivery);
        };
        Duration transactionTimeout = get(JobConfig.KAFKA_TRANSACTION_TIMEOUT);
        if (transactionTimeout.isNegative() || transactionTimeout.isZero() || transactionTimeout.compareTo(Duration.ofHours(1)) > 0) {
            throw usage("--transaction-timeout must be between 1ms and 1h");
        }
        Map<String, String> all = new LinkedHashMap<>(conf.get(JobConfig.KAFKA_PROPERTIES));
        all.putAll(properties.properties());
        Map<String, String> fromVariables = new LinkedHashMap<>(conf.get(JobConfig.KAFKA_PROPERTIES_FROM_ENV));
        fromVariables.putAll(get(JobConfig.KAFKA_PROPERTIES_FROM_ENV));
        fromVariables.forEach((key, variable) -> {
            String value = env.apply(variable);
            if (value == null || value.isEmpty()) {
                throw usage("--kafka-property-from-env " + key + "=" + variable
                        + ": the environment variable " + variable + " is not set");
            }
            all.put(key, value);
        });
        String group = get(JobConfig.KAFKA_GROUP_ID);
        String prefix = get(JobConfig.KAFKA_TRANSACTIONAL_ID_PREFIX);
        try { // the settings check the topics' names and tenancy
            return new KafkaSettings(servers, topics.get(0), topics.get(1), topics.get(2), topics.get(3),
                    group, earliest, guarantee, prefix == null || prefix.isBlank() ? group : prefix,
                    transactionTimeout, Map.copyOf(KafkaPropertiesOption.withProviders(all)), topics.get(4),
                    topics.get(5));
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }
}
