package io.commitflow.cli;

import io.commitflow.testing.KafkaBroker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A broker that requires SASL, and the command line's own clients as separate processes, as users run them: the
 * secret comes from a file ({@code --kafka-secret-file}), from an environment variable ({@code --kafka-secret-env}),
 * from a value that names it ({@code ${env:VAR}}, Kafka's config provider), or through the hook's git config
 * ({@code commitflow.kafkaSecretFile}); each authenticates (its record arrives), and
 * the password shows neither in the process list while it runs ({@code ps}) nor in its output or log. A secret given
 * with {@code -X} is refused before anything connects.
 */
class KafkaSecretsITCase {
    private static final String SHA = "3f2a9c1e0b8d7f6a5e4d3c2b1a09f8e7d6c5b4a3";

    @RegisterExtension
    static final KafkaBroker KAFKA = KafkaBroker.withSasl();

    @TempDir
    Path dir;

    @Test
    void secretsFromAFileAVariableOrGitConfigAuthenticateAndNeverShow() throws Exception {
        Path launcher = TestLauncher.write(dir);
        KAFKA.createTopic("secrets.events", 1);
        Map<String, String> client = KAFKA.clientProperties();
        String password = password(client.get("sasl.jaas.config"));
        Properties secrets = new Properties();
        secrets.putAll(client);
        Path file = dir.resolve("kafka.properties");
        try (var out = Files.newBufferedWriter(file)) {
            secrets.store(out, "commitflow's Kafka client settings");
        }
        String text = Files.readString(file);

        Run fromFile = run(launcher, Map.of(), pushEvent("refs/heads/a", "--kafka-secret-file", file.toString()));
        Run fromVariable = run(launcher, Map.of("COMMITFLOW_KAFKA", text),
                pushEvent("refs/heads/b", "--kafka-secret-env", "COMMITFLOW_KAFKA"));
        // the value names its secret: Kafka's env config provider reads it inside the client
        List<String> named = pushEvent("refs/heads/n", "-X", "sasl.jaas.config="
                + client.get("sasl.jaas.config").replace(password, "${env:KAFKA_PASSWORD}"));
        client.forEach((k, v) -> {
            if (!k.equals("sasl.jaas.config")) {
                named.addAll(List.of("-X", k + "=" + v));
            }
        });
        Run fromReference = run(launcher, Map.of("KAFKA_PASSWORD", password), named);
        for (Run r : List.of(fromFile, fromVariable, fromReference)) {
            assertThat(r.exit()).as(r.output()).isZero();
            assertThat(r.processList()).as("ps while it ran").contains("push-event").doesNotContain(password);
            assertThat(r.output() + Files.readString(dir.resolve("cli.log"))).doesNotContain(password);
        }
        List<String> refs = new ArrayList<>();
        KAFKA.readCommitted("secrets.events").forEach(r -> refs.add(new String(r.value(), StandardCharsets.UTF_8)));
        assertThat(refs).as("all three authenticated").hasSize(3).anyMatch(v -> v.contains("refs/heads/a"))
                .anyMatch(v -> v.contains("refs/heads/b")).anyMatch(v -> v.contains("refs/heads/n"));

        Run refused = run(launcher, Map.of(), pushEvent("refs/heads/c", "-X", "sasl.jaas.config=" + client.get("sasl.jaas.config")));
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.output()).contains("carries a secret on the command line").doesNotContain(password);
        assertThat(KAFKA.readCommitted("secrets.events")).as("nothing sent").hasSize(3);
    }

    @Test
    void theHookReadsTheSecretFileGitConfigNames() throws Exception {
        Path launcher = TestLauncher.write(dir);
        for (String topic : List.of("commitflow.requests", "commitflow.replies", "commitflow.dlq")) {
            KAFKA.createTopic(topic, 1);
        }
        Properties secrets = new Properties();
        secrets.putAll(KAFKA.clientProperties());
        Path file = dir.resolve("kafka.properties");
        try (var out = Files.newBufferedWriter(file)) {
            secrets.store(out, null);
        }
        Path work = Files.createDirectories(dir.resolve("work"));
        GitCli.run(work, "init", "-q");
        Files.writeString(work.resolve("a.txt"), "a\n");
        GitCli.run(work, "add", "a.txt");
        for (String[] kv : new String[][] {{"commitflow.bootstrap", KAFKA.bootstrap()}, {"commitflow.tenant", "acme"},
                {"commitflow.repo", "team/app"}, {"commitflow.timeout", "3s"}, {"commitflow.kafkaSecretFile", file.toString()}}) {
            GitCli.run(work, "config", kv[0], kv[1]);
        }
        Process p = new ProcessBuilder(launcher.toString(), "suggest").directory(work.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        // no job answers here: what matters is that the draft got through the SASL broker
        assertThat(KAFKA.readCommitted("commitflow.requests")).as("the draft arrived; suggest said: %s", output)
                .singleElement().satisfies(r -> assertThat(new String(r.value(), StandardCharsets.UTF_8)).contains("team/app"));
        assertThat(output).doesNotContain(password(KAFKA.clientProperties().get("sasl.jaas.config")));
    }

    private List<String> pushEvent(String ref, String... more) {
        List<String> args = new ArrayList<>(List.of("push-event", "--bootstrap", KAFKA.bootstrap(), "--topic",
                "secrets.events", "--tenant", "acme", "--repo", "team/app", "--ref", ref, "--before",
                "0".repeat(40), "--after", SHA));
        args.addAll(List.of(more));
        return args;
    }

    private static String password(String jaas) {
        int at = jaas.indexOf("password=\"");
        return jaas.substring(at + 10, jaas.indexOf('"', at + 10));
    }

    /** One run, its exit, its output, and the process list seen while it ran. */
    private record Run(int exit, String output, String processList) {}

    private Run run(Path launcher, Map<String, String> env, List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(args);
        ProcessBuilder b = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        b.environment().putAll(env);
        Process p = b.start();
        StringBuilder ps = new StringBuilder();
        while (p.isAlive()) { // the JVM and its Kafka client take a second or two: look at ps meanwhile
            Process list = new ProcessBuilder("ps", "-eo", "args").redirectErrorStream(true).start();
            ps.append(new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            list.waitFor(10, TimeUnit.SECONDS);
            Thread.sleep(200);
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(p.waitFor(), output, ps.toString());
    }
}
