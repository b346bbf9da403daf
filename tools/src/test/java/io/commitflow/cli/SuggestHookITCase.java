package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.job.CommitMessageJob;
import io.commitflow.job.KafkaIO;
import io.commitflow.job.KafkaSettings;
import io.commitflow.job.PipelineSettings;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The prepare-commit-msg hook against the running job: {@code install-hook} in a real clone, a real
 * {@code git commit} whose hook runs {@code commitflow suggest} in its own JVM, the draft through Kafka and the job
 * (MiniCluster, RocksDB, exactly-once sinks) and back on the replies topic into the commit's message.
 */
class SuggestHookITCase {
    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(1);

    @TempDir
    static Path dir;

    private static KafkaSettings k;
    private static JobClient job;
    private static List<RevCommit> history;
    private static Path launcher;

    @BeforeAll
    static void startTheJob() throws Exception {
        Path mirrors = Files.createDirectories(dir.resolve("mirrors"));
        history = GitHistory.create(mirrors, "app.git", 30);
        k = KafkaSettings.defaults(KAFKA.bootstrap());
        KAFKA.createTopic(k.eventsTopic(), 2);
        KAFKA.createTopic(k.suggestionsTopic(), 1);
        KAFKA.createTopic(k.deadLetterTopic(), 1);
        KAFKA.createTopic(k.slaTopic(), 1);
        KAFKA.createTopic(k.repliesTopic(), 1);
        KAFKA.createTopic(k.requestsTopic(), 1);
        // learning traffic: the repository's history, with its real messages
        KAFKA.produce(k.eventsTopic(), "app.git".getBytes(StandardCharsets.UTF_8), GitHistory.commitEvents("app.git", history));

        Configuration conf = MiniClusters.job(Duration.ofSeconds(1), Files.createDirectories(dir.resolve("checkpoints")));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).build(), KafkaIO.suggestionSink(k), KafkaIO.deadLetterSink(k),
                KafkaIO.slaSink(k), CommitMessageJob.Interactive.of(k), PipelineSettings.defaults(mirrors.toString()));
        job = env.executeAsync("commitflow-suggest-itcase");
        launcher = TestLauncher.write(dir);
        // the history is learned before the first draft asks
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (KAFKA.readCommitted(k.suggestionsTopic()).size() < history.size()) {
            assertThat(System.nanoTime()).as("the job answered the history within 120 s").isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    @AfterAll
    static void stopTheJob() throws Exception {
        if (job != null) {
            job.cancel().get(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void aGitCommitGetsTheJobsSuggestionAndOnlyAPlainCommitAsks() throws Exception {
        Path work = clone("work");
        CliResult install = cli("install-hook", "-C", work.toString(), "--bootstrap", KAFKA.bootstrap(), "--tenant", "acme",
                "--repo", "app.git", "--timeout", "60s", "--launcher", launcher.toString());
        assertThat(install.exit()).as(install.err()).isZero();
        assertThat(work.resolve(".git/hooks/prepare-commit-msg")).isExecutable();
        assertThat(git(work, "config", "commitflow.repo").out().strip()).isEqualTo("app.git");

        Files.writeString(work.resolve("src/main/java/app/Widget3.java"),
                "package app;\n\nclass Widget3 {\n    int version = 31;\n}\n");
        git(work, "add", "-A");
        GitProcess commit = git(work, Map.of("GIT_EDITOR", "true"), "commit", "-q");
        assertThat(commit.exit()).as(commit.out() + commit.err()).isZero();
        String subject = git(work, "log", "-1", "--format=%s").out().strip();

        List<JsonNode> replies = values(KAFKA.readCommitted(k.repliesTopic()));
        assertThat(replies).as("one draft, one reply").hasSize(1);
        JsonNode reply = replies.get(0);
        assertThat(subject).as("the commit's subject is the job's suggestion").isEqualTo(reply.path("subject").asText());
        assertThat(subject).as("the load test's check").hasSizeBetween(io.commitflow.generate.SubjectLength.SHORT_FLOOR, 72);
        assertThat(reply.path("repo").asText()).as("without .git, as every stage names it").isEqualTo("app");
        assertThat(reply.path("backend").asText()).isEqualTo("retrieval");
        assertThat(reply.path("exemplars")).as("answered from the repository's history").isNotEmpty();
        assertThat(reply.path("traceId").asText()).matches("[0-9a-f]{32}");
        // a draft is not a commit: never on the suggestions topic
        assertThat(values(KAFKA.readCommitted(k.suggestionsTopic()))).noneMatch(
                n -> n.path("traceId").asText().equals(reply.path("traceId").asText()));

        // -m, amends and merges are left alone: no draft is sent
        Files.writeString(work.resolve("README"), "hello\n");
        git(work, "add", "README");
        assertThat(git(work, "commit", "-q", "-m", "Write the README by hand").exit()).isZero();
        assertThat(git(work, Map.of("GIT_EDITOR", "true"), "commit", "-q", "--amend").exit()).isZero();
        assertThat(git(work, "log", "-1", "--format=%B").out().strip()).isEqualTo("Write the README by hand");
        assertThat(KAFKA.readCommitted(k.repliesTopic())).hasSize(1);
    }

    @Test
    void withTheJobUnreachableTheCommitGoesThroughWithOneLineOnStderr() throws Exception {
        Path work = clone("down");
        int closedPort;
        try (var s = new java.net.ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        assertThat(cli("install-hook", "-C", work.toString(), "--bootstrap", "localhost:" + closedPort,
                "--launcher", launcher.toString(), "--kafka-secret-file", dir.resolve("missing.properties").toString()).err())
                .contains("--kafka-secret-file").contains("cannot be read");
        Path secrets = dir.resolve("kafka.properties");
        Files.writeString(secrets, "client.id=commitflow-hook\n");
        CliResult install = cli("install-hook", "-C", work.toString(), "--bootstrap", "localhost:" + closedPort,
                "--timeout", "2s", "--launcher", launcher.toString(), "--kafka-secret-file", secrets.toString());
        assertThat(install.exit()).as(install.err()).isZero();
        assertThat(git(work, "config", "commitflow.kafkaSecretFile").out().strip()).as("the path, not the contents")
                .isEqualTo(secrets.toAbsolutePath().toString());
        assertThat(cli("install-hook", "-C", work.toString(), "--kafka-secret-env", "NOT A NAME").err())
                .contains("--kafka-secret-env takes the name of an environment variable");

        Files.writeString(work.resolve("NOTES"), "notes\n");
        git(work, "add", "NOTES");
        Path editor = dir.resolve("editor.sh");
        Files.writeString(editor, "#!/bin/sh\nsed -i '1s/^$/Add notes by hand/' \"$1\"\n");
        Files.setPosixFilePermissions(editor, PosixFilePermissions.fromString("rwxr-xr-x"));
        long start = System.nanoTime();
        GitProcess commit = git(work, Map.of("GIT_EDITOR", editor.toString()), "commit", "-q");
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(commit.exit()).as(commit.err()).isZero();
        assertThat(git(work, "log", "-1", "--format=%s").out().strip()).isEqualTo("Add notes by hand");
        List<String> lines = commit.err().lines().filter(l -> !l.isBlank()).toList();
        assertThat(lines).as("git commit's stderr").hasSize(1);
        assertThat(lines.get(0)).startsWith("commitflow: no suggestion").contains("localhost:" + closedPort);
        assertThat(ms).as("bounded by the 2 s timeout plus the JVM's start").isLessThan(30_000);
    }

    @Test
    void aDraftOfAnUnknownRepositoryIsAnsweredAndTheCommandSaysNothingStagedWhenNothingIs() throws Exception {
        Path work = clone("fresh");
        Files.writeString(work.resolve("Main.java"), "class Main {}\n");
        git(work, "add", "Main.java");
        CliResult r = cli("suggest", "-C", work.toString(), "--bootstrap", KAFKA.bootstrap(), "--repo", "never/seen.git",
                "--timeout", "60s");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().lines().findFirst().orElse("")).as("the load test's check")
                .hasSizeBetween(io.commitflow.generate.SubjectLength.SHORT_FLOOR, 72);

        Files.writeString(work.resolve("src/main/java/app/Widget4.java"), "package app;\n\nclass Widget4 {\n    int version = 44;\n}\n");
        git(work, "add", "-A");
        CliResult choices = cli("suggest", "-C", work.toString(), "--bootstrap", KAFKA.bootstrap(), "--repo", "app.git",
                "--timeout", "60s", "--candidates", "3");
        assertThat(choices.exit()).as(choices.err()).isZero();
        List<String> numbered = choices.out().lines().toList();
        assertThat(numbered).as("the suggestion and the others it could be, numbered").hasSizeBetween(2, 3)
                .allSatisfy(l -> assertThat(l).matches("[1-3]\\. .{10,}")).doesNotHaveDuplicates();

        git(work, "commit", "-q", "-m", "Add Main");
        CliResult none = cli("suggest", "-C", work.toString(), "--bootstrap", KAFKA.bootstrap(), "--timeout", "5s");
        assertThat(none.exit()).isEqualTo(SuggestCommand.NOTHING_STAGED);
        assertThat(none.err()).contains("nothing staged");
    }

    @Test
    void theTraceOfAnEventsTraceparentContinuesOnItsSuggestionAndOnADeadLetter() throws Exception {
        String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
        String header = "00-" + trace + "-00f067aa0ba902b7-01";
        String sha = "ab".repeat(20);
        String patch = "diff --git a/src/main/java/app/Widget5.java b/src/main/java/app/Widget5.java\n"
                + "--- a/src/main/java/app/Widget5.java\n+++ b/src/main/java/app/Widget5.java\n@@ -1,4 +1,4 @@\n"
                + " package app;\n \n class Widget5 {\n-    int version = 5;\n+    int version = 32;\n";
        KAFKA.produceTraced(k.eventsTopic(), "app.git".getBytes(StandardCharsets.UTF_8), io.commitflow.event.WireFormat.commit(
                "acme", "app.git", sha, List.of(), "A <a@example.com>", 1L, null, patch), header);
        KAFKA.produceTraced(k.eventsTopic(), null, "{not json".getBytes(StandardCharsets.UTF_8), "00-" + "1".repeat(32)
                + "-" + "2".repeat(16) + "-01");

        ConsumerRecord<byte[], byte[]> suggestion = awaitRecord(k.suggestionsTopic(), r -> sha.equals(json(r).path("sha").asText()));
        ConsumerRecord<byte[], byte[]> dead = awaitRecord(k.deadLetterTopic(), r -> "NOT_JSON".equals(json(r).path("reason").asText()));

        assertThat(json(suggestion).path("traceId").asText()).isEqualTo(trace);
        assertThat(traceparent(suggestion)).matches("00-" + trace + "-[0-9a-f]{16}-01").isNotEqualTo(header);
        assertThat(traceparent(dead)).startsWith("00-" + "1".repeat(32) + "-");
        assertThat(json(dead).path("traceId").asText()).isEqualTo("1".repeat(32));
    }

    private static ConsumerRecord<byte[], byte[]> awaitRecord(String topic,
                                                             java.util.function.Predicate<ConsumerRecord<byte[], byte[]>> which)
            throws Exception {
        return KafkaRecords.await(KAFKA, topic, which, Duration.ofSeconds(60));
    }

    private static JsonNode json(ConsumerRecord<byte[], byte[]> r) {
        return KafkaRecords.json(r);
    }

    private static String traceparent(ConsumerRecord<byte[], byte[]> r) {
        var h = r.headers().lastHeader("traceparent");
        assertThat(h).as("traceparent header on " + r.topic()).isNotNull();
        return new String(h.value(), StandardCharsets.US_ASCII);
    }

    private static Path clone(String name) throws Exception {
        return GitProcess.cloneOf(dir.resolve("mirrors/app.git"), dir.resolve(name));
    }

    record CliResult(int exit, String out, String err) {}

    private static CliResult cli(String... args) {
        var out = new java.io.StringWriter();
        var err = new java.io.StringWriter();
        var cli = Commitflow.commandLine();
        cli.setOut(new java.io.PrintWriter(out, true));
        cli.setErr(new java.io.PrintWriter(err, true));
        int exit = cli.execute(args);
        return new CliResult(exit, out.toString(), err.toString());
    }

    private static GitProcess git(Path in, String... args) throws Exception {
        return GitProcess.run(in, args);
    }

    private static GitProcess git(Path in, Map<String, String> env, String... args) throws Exception {
        return GitProcess.run(in, env, args);
    }

    private static List<JsonNode> values(List<ConsumerRecord<byte[], byte[]>> records) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (var r : records) {
            out.add(Json.mapper().readTree(r.value()));
        }
        return out;
    }
}
