package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A broker that requires SASL: the job's Kafka security settings ({@code -X security.protocol=…}, and the secret
 * {@code sasl.jaas.config} from {@code --kafka-secret-file}) reach its source and all three sinks, and the job runs exactly as without them; a client without them is refused,
 * so the settings really are in use.
 */
class SaslKafkaITCase {
    @RegisterExtension
    static final KafkaBroker KAFKA = KafkaBroker.withSasl();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    @TempDir
    Path mirrors;
    @TempDir
    Path checkpoints;

    @Test
    void theJobAuthenticatesWithTheSecuritySettingsItIsGiven() throws Exception {
        List<RevCommit> history = GitHistory.create(mirrors, "app.git", 12);
        // the secret (sasl.jaas.config) in a file, the rest on the command line, as a deployment passes them
        Path secrets = checkpoints.resolve("kafka-secrets.properties");
        java.util.Properties file = new java.util.Properties();
        List<String> args = new ArrayList<>(List.of("--bootstrap", KAFKA.bootstrap(), "--mirror-root", mirrors.toString(),
                "--kafka-secret-file", secrets.toString()));
        KAFKA.clientProperties().forEach((key, v) -> {
            if (KafkaPropertiesOption.isSecret(key)) {
                file.setProperty(key, v);
            } else {
                args.addAll(List.of("-X", key + "=" + v));
            }
        });
        try (var out = java.nio.file.Files.newBufferedWriter(secrets)) {
            file.store(out, null);
        }
        assertThat(args).noneMatch(a -> a.contains("password"));
        JobParameters p = JobOptions.parseForCluster(args.toArray(String[]::new));
        KafkaSettings k = p.kafka();
        for (String t : List.of(k.eventsTopic(), k.suggestionsTopic(), k.deadLetterTopic(), k.slaTopic())) {
            KAFKA.createTopic(t, 1);
        }
        List<byte[]> events = new ArrayList<>(GitHistory.commitEvents("app", history));
        events.add("not json".getBytes(StandardCharsets.UTF_8));
        KAFKA.produce(k.eventsTopic(), null, events);

        Configuration conf = MiniClusters.job(Duration.ofMillis(500), checkpoints);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).setBounded(OffsetsInitializer.latest()).build(),
                KafkaIO.suggestionSink(k), KafkaIO.deadLetterSink(k), KafkaIO.slaSink(k), p.pipeline());
        env.execute("commitflow-sasl");

        List<String> described = new ArrayList<>();
        for (var r : KAFKA.readCommitted(k.suggestionsTopic())) {
            JsonNode n = Json.mapper().readTree(r.value());
            described.add(n.path("sha").asText());
        }
        assertThat(described).containsExactlyInAnyOrderElementsOf(history.stream().map(RevCommit::name).toList());
        assertThat(KAFKA.readCommitted(k.deadLetterTopic())).hasSize(1);
        assertThat(KAFKA.readCommitted(k.slaTopic())).isNotEmpty();

        // the same settings with a wrong password: the broker refuses them with an authentication failure
        Map<String, Object> wrong = new HashMap<>();
        KAFKA.clientProperties().forEach((key, v) -> wrong.put(key,
                key.equals("sasl.jaas.config") ? v.replaceFirst("password=\"[^\"]*\"", "password=\"wrong\"") : v));
        assertThat(wrong.get("sasl.jaas.config")).asString().contains("password=\"wrong\"");
        wrong.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrap());
        wrong.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        wrong.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        try (Admin impostor = Admin.create(wrong)) {
            assertThatThrownBy(() -> impostor.listTopics().names().get(20, TimeUnit.SECONDS))
                    .as("a wrong password").isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
        // without the SASL settings the client never gets past the handshake: it times out
        try (Admin anonymous = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000))) {
            assertThatThrownBy(() -> anonymous.listTopics().names().get(10, TimeUnit.SECONDS))
                    .as("a client without the SASL settings gets nowhere").isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
        }
    }
}
