package io.commitflow.job;

import org.apache.flink.connector.base.DeliveryGuarantee;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** The job's Kafka options, shared by {@code commitflow job} and the cluster entry point. */
public class KafkaOptions {
    private static final KafkaSettings DEFAULTS = KafkaSettings.defaults("");

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--bootstrap", required = true, paramLabel = "HOST:PORT[,…]",
            description = "Kafka bootstrap servers.")
    String bootstrap;

    @Option(names = "--events-topic", paramLabel = "TOPIC",
            description = "Topic with push and commit events (default: ${DEFAULT-VALUE}).")
    String eventsTopic = DEFAULTS.eventsTopic();

    @Option(names = "--suggestions-topic", paramLabel = "TOPIC",
            description = "Topic the suggestions go to (default: ${DEFAULT-VALUE}).")
    String suggestionsTopic = DEFAULTS.suggestionsTopic();

    @Option(names = "--dlq-topic", paramLabel = "TOPIC",
            description = "Dead-letter topic for rejected records, with reasons (default: ${DEFAULT-VALUE}).")
    String dlqTopic = DEFAULTS.deadLetterTopic();

    @Option(names = "--sla-topic", paramLabel = "TOPIC",
            description = "Topic the SLA windows, spikes and late samples go to, JSON with a kind field "
                    + "(default: ${DEFAULT-VALUE}).")
    String slaTopic = DEFAULTS.slaTopic();

    @Option(names = "--requests-topic", paramLabel = "TOPIC",
            description = "Topic 'commitflow suggest' sends drafts to, read by a source of its own so that a draft does "
                    + "not wait behind the events topic's traffic; a group without offsets starts at its end (no one "
                    + "waits for an old draft) (default: ${DEFAULT-VALUE}).")
    String requestsTopic = DEFAULTS.requestsTopic();

    @Option(names = "--replies-topic", paramLabel = "TOPIC",
            description = "Topic the suggestions for drafts go to (what 'commitflow suggest' and the prepare-commit-msg "
                    + "hook wait for), written at once, at-least-once (default: ${DEFAULT-VALUE}).")
    String repliesTopic = DEFAULTS.repliesTopic();

    @Option(names = "--group-id", paramLabel = "ID",
            description = "Kafka consumer group of the source (default: ${DEFAULT-VALUE}).")
    String groupId = DEFAULTS.groupId();

    @Option(names = "--start-from", paramLabel = "earliest|latest",
            description = "Where a group without committed offsets starts (default: ${DEFAULT-VALUE}).")
    String startFrom = OptionDefaults.all().get("--start-from");

    @Option(names = "--delivery", paramLabel = "exactly-once|at-least-once",
            description = "Delivery guarantee of the output topics (default: ${DEFAULT-VALUE}). Readers of an "
                    + "exactly-once topic must use isolation.level=read_committed.")
    String delivery = OptionDefaults.all().get("--delivery");

    @Option(names = "--transactional-id-prefix", paramLabel = "PREFIX",
            description = "Prefix of the sinks' Kafka transactional ids; unique per job on a cluster (default: ${DEFAULT-VALUE}).")
    String transactionalIdPrefix = DEFAULTS.transactionalIdPrefix();

    @Option(names = "--transaction-timeout", paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "Kafka transaction timeout of the sinks: above the checkpoint interval, at most the broker's "
                    + "transaction.max.timeout.ms (15m by default) (default: ${DEFAULT-VALUE}).")
    Duration transactionTimeout = DEFAULTS.transactionTimeout();

    @Option(names = {"-X", "--kafka-property"}, paramLabel = "KEY=VALUE",
            description = "Extra Kafka client property for source and sinks, e.g. security.protocol=SASL_SSL. Repeatable.")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(names = "--kafka-property-from-env", paramLabel = "KEY=ENV_VAR",
            description = "A Kafka client property whose value is read from an environment variable, so that secrets "
                    + "stay out of command lines and manifests, e.g. sasl.jaas.config=KAFKA_SASL_JAAS_CONFIG. Repeatable.")
    Map<String, String> fromEnv = new LinkedHashMap<>();

    /** The environment; tests replace it. */
    java.util.function.Function<String, String> env = System::getenv;

    public KafkaSettings toSettings() {
        if (bootstrap.isBlank()) {
            throw new ParameterException(spec.commandLine(), "--bootstrap must name at least one HOST:PORT");
        }
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
        Map<String, String> all = new LinkedHashMap<>(properties);
        fromEnv.forEach((key, variable) -> {
            String value = env.apply(variable);
            if (value == null || value.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--kafka-property-from-env " + key + "=" + variable
                        + ": the environment variable " + variable + " is not set");
            }
            all.put(key, value);
        });
        return new KafkaSettings(bootstrap, eventsTopic, suggestionsTopic, dlqTopic, slaTopic, groupId, earliest, guarantee,
                transactionalIdPrefix, transactionTimeout, Map.copyOf(all), repliesTopic, requestsTopic);
    }
}
