package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A savepoint written by a released version of the job, kept under {@code src/test/resources/savepoints/}, restores
 * into this version: every piece of state finds its operator by uid and its state by name (nothing may be left
 * unrestored), the Kafka offsets continue where the old job stopped, dedup drops redeliveries of what the old job
 * described, and the first new suggestion is made from rows the old job learned.
 *
 * <p>The savepoint's history is the deterministic one of {@link GitHistory#create} (JGit's TestRepository fixes the
 * clock), so the commits are made again here with the same ids; {@code commits.txt} beside the savepoint lists them
 * and is checked first. To keep a savepoint of a new release beside the old ones:
 * {@code ./mvnw -pl job verify -Dit.test=SavepointCompatibilityITCase -Dcommitflow.savepoint.write=VERSION}.
 */
class SavepointCompatibilityITCase {
    /** Savepoints of released versions that this version must restore, one folder each. */
    private static final Path SAVEPOINTS = Path.of("src/test/resources/savepoints");
    private static final int BEFORE = 200;
    private static final int AFTER = 200;
    private static final int REDELIVERED = 50;
    /** Longer than any kept savepoint will be old. */
    private static final Duration KEPT_SAVEPOINT_TTL = Duration.ofDays(36_500);

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    @TempDir
    Path mirrors;
    @TempDir
    Path state;

    @Test
    void everyKeptSavepointRestoresWithItsStateInUse() throws Exception {
        List<Path> versions;
        try (Stream<Path> s = Files.list(SAVEPOINTS)) {
            versions = s.filter(Files::isDirectory).sorted().toList();
        }
        assertThat(versions).as("savepoints kept in %s", SAVEPOINTS.toAbsolutePath()).isNotEmpty();
        for (Path version : versions) {
            restores(version);
        }
    }

    private void restores(Path version) throws Exception {
        KafkaBroker kafka = new KafkaBroker(); // one broker per savepoint: its source state names the default topics
        kafka.beforeAll(null);
        try {
            restores(version, kafka);
        } finally {
            kafka.afterAll(null);
        }
    }

    private void restores(Path version, KafkaBroker kafka) throws Exception {
        Path root = mirrors.resolve(version.getFileName().toString());
        List<RevCommit> history = GitHistory.create(root, "app.git", BEFORE + AFTER);
        List<String> kept = Files.readAllLines(version.resolve("commits.txt"));
        assertThat(history.subList(0, BEFORE).stream().map(RevCommit::name).toList())
                .as("the savepoint's history made again with the same ids").isEqualTo(kept);
        RevCommit sentinel = GitHistory.create(root, "sentinel.git", 1).get(0);

        // the savepoint's offsets: the same first events, on a broker that has never seen this job
        KafkaSettings k = topics(kafka);
        produce(kafka, k, history.subList(0, BEFORE));
        produce(kafka, k, history.subList(BEFORE, BEFORE + AFTER));
        produce(kafka, k, history.subList(0, REDELIVERED)); // redeliveries of what the old job described
        kafka.produce(k.eventsTopic(), "app".getBytes(StandardCharsets.UTF_8),
                List.of(GitHistory.commitEvent("sentinel", sentinel))); // behind the redeliveries: read after them

        JobClient job = start(k, root, version.resolve("savepoint").toAbsolutePath().toUri().toString());
        try {
            waitFor(kafka, k, AFTER + 1);
            Thread.sleep(3000); // a few more checkpoints: duplicates, if any, would show now
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }

        Map<String, List<JsonNode>> bySha = committed(kafka, k).stream().collect(Collectors.groupingBy(
                SavepointCompatibilityITCase::key));
        List<String> expected = new ArrayList<>(history.subList(BEFORE, BEFORE + AFTER).stream()
                .map(c -> "app@" + c.name()).toList());
        expected.add("sentinel@" + sentinel.name());
        assertThat(bySha.keySet()).as("offsets restored: only what came after the savepoint, redeliveries dropped")
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(bySha.values()).allSatisfy(l -> assertThat(l).hasSize(1));
        Set<String> beforeSavepoint = Set.copyOf(kept);
        JsonNode first = bySha.get("app@" + history.get(BEFORE).name()).get(0);
        assertThat(first.path("exemplars")).as("the first suggestion after the restore learned from the old rows")
                .isNotEmpty();
        assertThat(first.path("exemplars").get(0).asText()).isIn(beforeSavepoint);
    }

    /** Writes a savepoint of this version's job into {@code savepoints/<VERSION>}, with the ids of its commits. */
    @Test
    @EnabledIfSystemProperty(named = "commitflow.savepoint.write", matches = ".+")
    void writeASavepointOfThisVersion() throws Exception {
        Path out = SAVEPOINTS.resolve(System.getProperty("commitflow.savepoint.write"));
        assertThat(out).doesNotExist();
        Path root = mirrors.resolve("write");
        List<RevCommit> history = GitHistory.create(root, "app.git", BEFORE);
        KafkaBroker kafka = new KafkaBroker();
        kafka.beforeAll(null);
        String savepoint;
        try {
            KafkaSettings k = topics(kafka);
            produce(kafka, k, history);
            JobClient job = start(k, root, null);
            waitFor(kafka, k, BEFORE);
            savepoint = job.stopWithSavepoint(false, state.resolve("savepoints").toUri().toString(),
                    SavepointFormatType.CANONICAL).get(2, TimeUnit.MINUTES);
        } finally {
            kafka.afterAll(null);
        }
        copy(Path.of(java.net.URI.create(savepoint)), out.resolve("savepoint"));
        Files.write(out.resolve("commits.txt"), history.stream().map(RevCommit::name).toList());
    }

    private static KafkaSettings topics(KafkaBroker kafka) throws Exception {
        KafkaSettings k = KafkaSettings.defaults(kafka.bootstrap());
        kafka.createTopic(k.eventsTopic(), 2);
        kafka.createTopic(k.suggestionsTopic(), 2);
        kafka.createTopic(k.deadLetterTopic(), 1);
        kafka.createTopic(k.slaTopic(), 1);
        return k;
    }

    private JobClient start(KafkaSettings k, Path root, String savepoint) throws Exception {
        Configuration conf = MiniClusters.job(Duration.ofMillis(500), state.resolve("checkpoints"));
        if (savepoint != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
            conf.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, false); // all of it must be restored
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        // a kept savepoint ages: its dedup entries outlive the default day only under a TTL longer than its age, as a
        // user restoring an old savepoint would set (a TTL's length is not part of the state; turning it on or off is)
        PipelineSettings d = PipelineSettings.defaults(root.toString());
        PipelineSettings settings = new PipelineSettings(d.mirrorRoot(), KEPT_SAVEPOINT_TTL, d.maxEventBytes(),
                d.budget(), d.mirrorWait(), d.suggest(), d.sla(), d.maxPushCommits(), d.keys());
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).build(), KafkaIO.suggestionSink(k),
                KafkaIO.deadLetterSink(k), KafkaIO.slaSink(k), settings);
        return env.executeAsync("commitflow");
    }

    private static void produce(KafkaBroker kafka, KafkaSettings k, List<RevCommit> commits) throws Exception {
        kafka.produce(k.eventsTopic(), "app".getBytes(StandardCharsets.UTF_8), GitHistory.commitEvents("app", commits));
    }

    private static List<JsonNode> committed(KafkaBroker kafka, KafkaSettings k) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (var r : kafka.readCommitted(k.suggestionsTopic())) {
            out.add(Json.mapper().readTree(r.value()));
        }
        return out;
    }

    private static String key(JsonNode suggestion) {
        return suggestion.path("repo").asText() + "@" + suggestion.path("sha").asText();
    }

    private static void waitFor(KafkaBroker kafka, KafkaSettings k, int n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (committed(kafka, k).stream().map(SavepointCompatibilityITCase::key).distinct().count() < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + n + " suggestions");
            }
            Thread.sleep(250);
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
    }
}
