package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.replay.kafka.LocalKafka;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A broker that takes clients only over TLS with SCRAM-SHA-512 (a listener of its own; a certificate made for the
 * test with the JDK's keytool, the user made at the storage format), and the job against it: its settings from a
 * {@code --kafka-secret-file}, its source and its three exactly-once sinks over that listener, every commit's
 * suggestion committed. A client with the wrong password is refused, so the settings really are in use.
 */
class TlsScramKafkaITCase {
    private static final String STORE_PASSWORD = "store-secret-3";
    private static final String USER_PASSWORD = "alice-secret-7";

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    @TempDir
    Path dir;

    @Test
    void theJobReadsAndCommitsOverTlsWithScram() throws Exception {
        Path keystore = dir.resolve("broker.p12");
        Path truststore = dir.resolve("trust.p12");
        certificates(keystore, truststore);
        Map<String, String> broker = new HashMap<>();
        broker.put("listener.name.secured.ssl.keystore.location", keystore.toString());
        broker.put("listener.name.secured.ssl.keystore.password", STORE_PASSWORD);
        broker.put("listener.name.secured.ssl.keystore.type", "PKCS12");
        broker.put("listener.name.secured.ssl.key.password", STORE_PASSWORD);
        broker.put("sasl.enabled.mechanisms", "SCRAM-SHA-512");
        broker.put("listener.name.secured.sasl.enabled.mechanisms", "SCRAM-SHA-512");
        broker.put("listener.name.secured.scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        String brokerClasspath = io.commitflow.cli.TestLauncher.classpath(); // the broker runs in a JVM of its own
        try (LocalKafka kafka = LocalKafka.format(dir.resolve("kafka"), brokerClasspath, "SASL_SSL", broker,
                List.of("--add-scram", "SCRAM-SHA-512=[name=alice,password=" + USER_PASSWORD + "]"))) {
            kafka.serve();
            Path secrets = dir.resolve("kafka.properties");
            Properties client = client(truststore, USER_PASSWORD);
            try (var out = Files.newBufferedWriter(secrets)) {
                client.store(out, null);
            }
            KafkaSettings k = JobOptions.parseForCluster("--bootstrap", kafka.securedBootstrap(),
                    "--kafka-secret-file", secrets.toString(), "--transaction-timeout", "1m").kafka();
            LocalKafka.createTopics(kafka.bootstrap(), Map.of(k.eventsTopic(), 1, k.suggestionsTopic(), 1,
                    k.deadLetterTopic(), 1, k.slaTopic(), 1));
            List<RevCommit> history = GitHistory.create(dir.resolve("mirrors"), "app.git", 12);
            try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", kafka.bootstrap()),
                    new ByteArraySerializer(), new ByteArraySerializer())) {
                for (byte[] e : GitHistory.commitEvents("app", history)) {
                    p.send(new ProducerRecord<>(k.eventsTopic(), "app".getBytes(StandardCharsets.UTF_8), e)).get(30, TimeUnit.SECONDS);
                }
            }

            run(k, dir.resolve("mirrors"));

            Set<String> shas = new HashSet<>();
            for (var r : KafkaBroker.readCommitted(Map.<String, Object>of("bootstrap.servers", kafka.bootstrap()), k.suggestionsTopic())) {
                JsonNode n = Json.mapper().readTree(r.value());
                shas.add(n.path("sha").asText());
            }
            assertThat(shas).as("every commit's suggestion, committed over TLS and SCRAM")
                    .containsExactlyInAnyOrderElementsOf(history.stream().map(RevCommit::name).toList());

            Properties wrong = client(truststore, "not-the-password");
            wrong.put("bootstrap.servers", kafka.securedBootstrap());
            wrong.put("default.api.timeout.ms", "15000");
            wrong.put("request.timeout.ms", "10000");
            try (Admin admin = Admin.create(wrong)) {
                assertThatThrownBy(() -> admin.listTopics().names().get(30, TimeUnit.SECONDS))
                        .hasRootCauseInstanceOf(org.apache.kafka.common.errors.SaslAuthenticationException.class);
            }
        }
    }

    private static Properties client(Path truststore, String password) {
        Properties p = new Properties();
        p.put("security.protocol", "SASL_SSL");
        p.put("sasl.mechanism", "SCRAM-SHA-512");
        p.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"alice\" "
                + "password=\"" + password + "\";");
        p.put("ssl.truststore.location", truststore.toString());
        p.put("ssl.truststore.password", STORE_PASSWORD);
        p.put("ssl.truststore.type", "PKCS12");
        return p;
    }

    private static void run(KafkaSettings k, Path mirrors) throws Exception {
        Configuration conf = MiniClusters.job(Duration.ofMillis(500), null);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).setBounded(OffsetsInitializer.latest()).build(),
                KafkaIO.suggestionSink(k), KafkaIO.deadLetterSink(k), KafkaIO.slaSink(k),
                PipelineSettings.defaults(mirrors.toString()));
        env.execute("commitflow over TLS and SCRAM");
    }

    /** A key pair and self-signed certificate for localhost, and a truststore with the certificate, by keytool. */
    private static void certificates(Path keystore, Path truststore) throws Exception {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Path cert = keystore.resolveSibling("broker.crt");
        keytool(keytool, "-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD);
        keytool(keytool, "-exportcert", "-alias", "broker", "-keystore", keystore.toString(), "-storepass",
                STORE_PASSWORD, "-file", cert.toString());
        keytool(keytool, "-importcert", "-noprompt", "-alias", "broker", "-file", cert.toString(), "-storetype",
                "PKCS12", "-keystore", truststore.toString(), "-storepass", STORE_PASSWORD);
    }

    private static void keytool(Path keytool, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(keytool.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("keytool %s: %s", args[0], out).isZero();
    }
}
