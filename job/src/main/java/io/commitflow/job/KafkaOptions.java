package io.commitflow.job;

import org.apache.flink.connector.base.DeliveryGuarantee;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The job's Kafka flags, shared by {@code commitflow job} and the cluster entry point: each names its
 * {@link JobConfig} option, which holds its default and description ({@link JobConfigDefaults}).
 */
public class KafkaOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Mixin
    BootstrapOption bootstrap = new BootstrapOption();

    @Option(names = "--events-topic", paramLabel = "TOPIC",
            descriptionKey = "commitflow.kafka.events-topic")
    String eventsTopic;

    @Option(names = "--suggestions-topic", paramLabel = "TOPIC",
            descriptionKey = "commitflow.kafka.suggestions-topic")
    String suggestionsTopic;

    @Option(names = "--dlq-topic", paramLabel = "TOPIC",
            descriptionKey = "commitflow.kafka.dlq-topic")
    String dlqTopic;

    @Option(names = "--sla-topic", paramLabel = "TOPIC",
            descriptionKey = "commitflow.kafka.sla-topic")
    String slaTopic;

    @Option(names = "--requests-topic", paramLabel = "TOPIC",
            descriptionKey = "commitflow.kafka.requests-topic")
    String requestsTopic;

    @Option(names = "--replies-topic", paramLabel = "TOPIC",
            descriptionKey = "commitflow.kafka.replies-topic")
    String repliesTopic;

    @Option(names = "--group-id", paramLabel = "ID",
            descriptionKey = "commitflow.kafka.group-id")
    String groupId;

    @Option(names = "--start-from", paramLabel = "earliest|latest",
            descriptionKey = "commitflow.kafka.start-from")
    String startFrom;

    @Option(names = "--delivery", paramLabel = "exactly-once|at-least-once",
            descriptionKey = "commitflow.kafka.delivery")
    String delivery;

    @Option(names = "--transactional-id-prefix", paramLabel = "PREFIX",
            descriptionKey = "commitflow.kafka.transactional-id-prefix")
    String transactionalIdPrefix;

    @Option(names = "--transaction-timeout", paramLabel = "DURATION",
            converter = DurationConverter.class,
            descriptionKey = "commitflow.kafka.transaction-timeout")
    Duration transactionTimeout;

    @Mixin
    KafkaPropertiesOption properties = new KafkaPropertiesOption();

    @Option(names = "--kafka-property-from-env", paramLabel = "KEY=ENV_VAR",
            descriptionKey = "commitflow.kafka.properties-from-env")
    Map<String, String> fromEnv = new LinkedHashMap<>();

    /** The environment; tests replace it. */
    java.util.function.Function<String, String> env = System::getenv;

    /** The configuration the flags override; the Kafka properties it sets are merged under the flags'. */
    org.apache.flink.configuration.ReadableConfig conf = new org.apache.flink.configuration.Configuration();

    public KafkaSettings toSettings() {
        // the configuration's commitflow.kafka.bootstrap is --bootstrap's default: missing only when neither is set
        String servers = bootstrap.required(spec);
        for (String t : new String[] {eventsTopic, suggestionsTopic, dlqTopic, slaTopic, repliesTopic, requestsTopic}) {
            if (!t.matches("[A-Za-z0-9._-]{1,249}")) {
                throw new ParameterException(spec.commandLine(), "'" + t + "' is not a valid Kafka topic name");
            }
        }
        boolean earliest = switch (startFrom) {
            case "earliest" -> true;
            case "latest" -> false;
            default -> throw new ParameterException(spec.commandLine(), "--start-from must be earliest or latest, got " + startFrom);
        };
        DeliveryGuarantee guarantee = switch (delivery) {
            case "exactly-once" -> DeliveryGuarantee.EXACTLY_ONCE;
            case "at-least-once" -> DeliveryGuarantee.AT_LEAST_ONCE;
            default -> throw new ParameterException(spec.commandLine(),
                    "--delivery must be exactly-once or at-least-once, got " + delivery);
        };
        if (transactionTimeout.isNegative() || transactionTimeout.isZero() || transactionTimeout.compareTo(Duration.ofHours(1)) > 0) {
            throw new ParameterException(spec.commandLine(), "--transaction-timeout must be between 1ms and 1h");
        }
        Map<String, String> all = new LinkedHashMap<>(conf.get(JobConfig.KAFKA_PROPERTIES));
        all.putAll(properties.properties());
        Map<String, String> fromVariables = new LinkedHashMap<>(conf.get(JobConfig.KAFKA_PROPERTIES_FROM_ENV));
        fromVariables.putAll(fromEnv);
        fromVariables.forEach((key, variable) -> {
            String value = env.apply(variable);
            if (value == null || value.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--kafka-property-from-env " + key + "=" + variable
                        + ": the environment variable " + variable + " is not set");
            }
            all.put(key, value);
        });
        return new KafkaSettings(servers, eventsTopic, suggestionsTopic, dlqTopic, slaTopic, groupId, earliest, guarantee,
                transactionalIdPrefix, transactionTimeout, Map.copyOf(all), repliesTopic, requestsTopic);
    }
}
