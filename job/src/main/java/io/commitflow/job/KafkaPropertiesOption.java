package io.commitflow.job;

import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code -X KEY=VALUE}, declared once for every command that talks to Kafka: extra client properties, such as a
 * secured broker's. Its description is {@link JobConfig#KAFKA_PROPERTIES}'s.
 */
public final class KafkaPropertiesOption {
    @Option(names = {"-X", "--kafka-property"}, paramLabel = "KEY=VALUE", descriptionKey = "commitflow.kafka.properties")
    Map<String, String> properties = new LinkedHashMap<>();

    /** The properties given, in order. */
    public Map<String, String> properties() {
        return properties;
    }
}
