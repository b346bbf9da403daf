package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.event.PushEvent;
import io.commitflow.event.WireFormat;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.eclipse.jgit.junit.TestRepository;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole job on a MiniCluster (parallelism 2, RocksDB, exactly-once sinks) against a real Kafka broker: valid
 * commits, redeliveries, pushes and malformed records in; every valid commit exactly once in the suggestions
 * topic, every malformed record exactly once in the DLQ with its reason and origin.
 */
class CommitMessageJobITCase {
    private static final int PARALLELISM = 2;

    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(PARALLELISM);

    @TempDir
    Path mirrors;
    @TempDir
    Path checkpoints;

    @Test
    void describesEveryCommitOnceAndDeadLettersEveryBadRecordOnce() throws Exception {
        List<RevCommit> history = GitHistory.create(mirrors, "app.git", 40);
        List<RevCommit> feature = GitHistory.featureBranch(mirrors, "app.git", history.get(history.size() - 1), 3,
                "feature", "Document feature");
        RevCommit backport = backport(history.get(10)); // the same change as feature.get(0): a cherry-pick
        KafkaSettings k = KafkaSettings.defaults(KAFKA.bootstrap());
        KAFKA.createTopic(k.eventsTopic(), 2);
        KAFKA.createTopic(k.suggestionsTopic(), 2);
        KAFKA.createTopic(k.deadLetterTopic(), 1);
        KAFKA.createTopic(k.slaTopic(), 1);

        byte[] key = "app".getBytes(StandardCharsets.UTF_8);
        List<byte[]> valid = new ArrayList<>();
        history.forEach(c -> valid.add(commitEvent(c)));
        KAFKA.produce(k.eventsTopic(), key, valid);
        KAFKA.produce(k.eventsTopic(), key, valid.subList(0, 10)); // redeliveries
        String zero = PushEvent.ZERO_SHA1;
        KAFKA.produce(k.eventsTopic(), key, List.of(
                // a new branch: only its three new commits
                WireFormat.push("acme", "app", "refs/heads/feature", zero, feature.get(2).name(), "alice", 1L),
                // commits already delivered one by one: dedup drops them all
                WireFormat.push("acme", "app", "refs/heads/main", history.get(29).name(), history.get(39).name(), "bob", 2L),
                WireFormat.push("acme", "app", "refs/heads/backport", zero, backport.name(), "carol", 3L)));

        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("not json at all", "NOT_JSON");
        bad.put("{\"type\":\"commit\",\"repo\":\"app\"}", "MISSING_FIELD");
        bad.put("{\"type\":\"commit\",\"repo\":\"../etc\",\"sha\":\"" + "a".repeat(40) + "\"}", "BAD_REPO_NAME");
        bad.put("{\"type\":\"merge\"}", "UNKNOWN_TYPE");
        bad.put("{\"type\":\"commit\",\"repo\":\"app\",\"sha\":\"" + "b".repeat(40) + "\"}", "UNKNOWN_COMMIT");
        bad.put("{\"type\":\"commit\",\"repo\":\"ghost\",\"sha\":\"" + "c".repeat(40) + "\"}", "NO_MIRROR");
        bad.put("{\"type\":\"push\",\"repo\":\"app\",\"ref\":\"refs/heads/x\",\"before\":\"" + zero + "\",\"after\":\""
                + "d".repeat(40) + "\"}", "UNKNOWN_COMMIT");
        bad.put("", "EMPTY");
        List<byte[]> badValues = bad.keySet().stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toList();
        List<RecordMetadata> badMeta = KAFKA.produce(k.eventsTopic(), null, badValues);

        runBounded(k);

        List<JsonNode> suggestions = values(KAFKA.readCommitted(k.suggestionsTopic()));
        Map<String, Long> perSha = suggestions.stream().collect(Collectors.groupingBy(n -> n.path("sha").asText(), Collectors.counting()));
        List<String> expected = new ArrayList<>();
        history.forEach(c -> expected.add(c.name()));
        feature.forEach(c -> expected.add(c.name()));
        expected.add(backport.name());
        assertThat(perSha.keySet()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(perSha.values()).as("each commit exactly once").containsOnly(1L);
        assertThat(suggestions).allSatisfy(n -> {
            assertThat(n.path("subject").asText()).isNotBlank();
            assertThat(n.path("backend").asText()).isEqualTo(n.path("cache").asText().equals("hit") ? "cache" : "retrieval");
            assertThat(n.path("repo").asText()).isEqualTo("app");
            assertThat(n.path("traceId").asText()).isNotBlank();
            assertThat(n.path("latencyMs").asLong()).isNotNegative();
        });

        // the cherry-pick and its original share a patch-id: whichever came second got the first's real message
        Map<String, JsonNode> bySha = new HashMap<>();
        suggestions.forEach(n -> bySha.put(n.path("sha").asText(), n));
        JsonNode original = bySha.get(feature.get(0).name());
        JsonNode pick = bySha.get(backport.name());
        assertThat(List.of(original.path("cache").asText(), pick.path("cache").asText())).containsExactlyInAnyOrder("hit", "miss");
        JsonNode hit = original.path("cache").asText().equals("hit") ? original : pick;
        JsonNode miss = hit == original ? pick : original;
        var missCommit = hit == original ? backport : feature.get(0);
        // the real subject as its author wrote it, not padded to 20 ("Document feature 0" is 18): no floor is set
        assertThat(hit.path("subject").asText()).isEqualTo(missCommit.getShortMessage());
        assertThat(hit.path("exemplars").get(0).asText()).isEqualTo(miss.path("sha").asText());
        assertThat(suggestions.stream().filter(n -> n.path("cache").asText().equals("hit"))).hasSize(1);

        List<JsonNode> dead = values(KAFKA.readCommitted(k.deadLetterTopic()));
        assertThat(dead).hasSize(bad.size());
        Map<String, JsonNode> byOrigin = new HashMap<>();
        dead.forEach(d -> byOrigin.put(d.path("origin").path("partition").asInt() + "@" + d.path("origin").path("offset").asLong(), d));
        List<String> reasons = new ArrayList<>(bad.values());
        for (int i = 0; i < badMeta.size(); i++) {
            RecordMetadata m = badMeta.get(i);
            JsonNode d = byOrigin.get(m.partition() + "@" + m.offset());
            assertThat(d).as("dead letter for bad record %d (%s)", i, reasons.get(i)).isNotNull();
            assertThat(d.path("reason").asText()).isEqualTo(reasons.get(i));
            assertThat(d.path("detail").asText()).isNotBlank();
            assertThat(d.path("origin").path("topic").asText()).isEqualTo(k.eventsTopic());
        }

        // the SLA topic: every outcome within one minute, so some window of each tenant holds all of them
        List<JsonNode> sla = values(KAFKA.readCommitted(k.slaTopic()));
        Map<String, Long> suggestionsByTenant = suggestions.stream()
                .collect(Collectors.groupingBy(n -> n.path("tenant").asText(), Collectors.counting()));
        Map<String, Long> deadByTenant = dead.stream().collect(Collectors.groupingBy(
                n -> n.path("tenant").asText().isEmpty() ? "unknown" : n.path("tenant").asText(), Collectors.counting()));
        Map<String, Long> mostSuggestions = new HashMap<>();
        Map<String, Long> mostErrors = new HashMap<>();
        for (JsonNode w : sla) {
            assertThat(w.path("kind").asText()).as(w.toString()).isEqualTo("window");
            if (w.path("backend").asText().equals("all")) {
                mostSuggestions.merge(w.path("tenant").asText(), w.path("count").asLong(), Math::max);
                mostErrors.merge(w.path("tenant").asText(), w.path("errors").asLong(), Math::max);
            }
        }
        mostSuggestions.values().removeIf(n -> n == 0);
        mostErrors.values().removeIf(n -> n == 0);
        assertThat(mostSuggestions).isEqualTo(suggestionsByTenant);
        assertThat(mostErrors).isEqualTo(deadByTenant);
    }

    /**
     * A young repository learns from its tenant's other repository: the job's first suggestion for a new service's
     * build file change is written from the library's build file commits (its exemplars are theirs), while a
     * repository of another tenant is never given them. Parallelism 1 and one partition, so that the library's commits
     * reach the fleet memory before the service's.
     */
    @Test
    void aYoungRepositoryIsWrittenFromItsTenantsOtherRepositories() throws Exception {
        List<RevCommit> lib = buildHistory("lib.git", "lib", 6, "Upgrade the build to Maven plugin %d");
        List<RevCommit> svc = buildHistory("svc.git", "svc", 2, "Service build %d");
        List<RevCommit> other = buildHistory("other.git", "other", 2, "Other tenant's build %d");
        KafkaSettings d = KafkaSettings.defaults(KAFKA.bootstrap());
        KafkaSettings k = new KafkaSettings(d.bootstrap(), "fleet.events", "fleet.suggestions", "fleet.dlq", "fleet.sla",
                "fleet", true, d.delivery(), "fleet", d.transactionTimeout(), Map.of());
        for (String t : List.of(k.eventsTopic(), k.suggestionsTopic(), k.deadLetterTopic(), k.slaTopic())) {
            KAFKA.createTopic(t, 1);
        }
        List<byte[]> events = new ArrayList<>();
        lib.forEach(c -> events.add(GitHistory.commitEvent("acme", "lib", c)));
        events.add(GitHistory.commitEvent("acme", "svc", svc.get(0)));
        events.add(GitHistory.commitEvent("beta", "other", other.get(0)));
        events.add(GitHistory.commitEvent("acme", "svc", svc.get(1)));
        events.add(GitHistory.commitEvent("beta", "other", other.get(1)));
        KAFKA.produce(k.eventsTopic(), null, events);

        runBounded(k, 1);

        Map<String, JsonNode> bySha = new HashMap<>();
        values(KAFKA.readCommitted(k.suggestionsTopic())).forEach(n -> bySha.put(n.path("sha").asText(), n));
        assertThat(bySha).hasSize(events.size());
        List<String> libShas = lib.stream().map(RevCommit::name).toList();
        JsonNode young = bySha.get(svc.get(1).name());
        List<String> exemplars = new ArrayList<>();
        young.path("exemplars").forEach(e -> exemplars.add(e.asText()));
        assertThat(exemplars).as(young.toString()).isNotEmpty().first().isIn(libShas);
        assertThat(young.path("subject").asText()).as(young.toString()).startsWith("Upgrade the build to Maven plugin");
        JsonNode elsewhere = bySha.get(other.get(1).name());
        elsewhere.path("exemplars").forEach(e -> assertThat(e.asText()).as("another tenant's").isNotIn(libShas));
    }

    /** {@code n} commits of {@code name}, each changing {@code pom.xml}'s plugin version, subjects from {@code subject}. */
    private List<RevCommit> buildHistory(String name, String artifact, int n, String subject) throws Exception {
        try (Repository repo = new FileRepositoryBuilder().setGitDir(mirrors.resolve(name).toFile()).setBare().build()) {
            repo.create(true);
            try (TestRepository<Repository> git = new TestRepository<>(repo)) {
                List<RevCommit> out = new ArrayList<>();
                RevCommit parent = null;
                for (int i = 0; i < n; i++) {
                    var b = parent == null ? git.commit() : git.commit().parent(parent);
                    parent = b.add("pom.xml", "<project>\n  <artifactId>" + artifact + "</artifactId>\n  <plugin>\n"
                                    + "    <artifactId>maven-surefire-plugin</artifactId>\n    <version>3." + i
                                    + ".0</version>\n  </plugin>\n</project>\n")
                            .message(String.format(subject, i) + "\n").create();
                    out.add(parent);
                }
                git.update("refs/heads/main", parent);
                return out;
            }
        }
    }

    private void runBounded(KafkaSettings k) throws Exception {
        runBounded(k, PARALLELISM);
    }

    private void runBounded(KafkaSettings k, int parallelism) throws Exception {
        Configuration conf = MiniClusters.job(Duration.ofMillis(500), checkpoints);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        CommitMessageJob.build(env,
                KafkaIO.sourceBuilder(k).setBounded(OffsetsInitializer.latest()).build(),
                KafkaIO.suggestionSink(k), KafkaIO.deadLetterSink(k), KafkaIO.slaSink(k), withoutPushRetries(PipelineSettings.defaults(mirrors.toString())));
        env.execute("commitflow-itcase");
    }

    /** A bounded run ends without waiting for pushes whose commits never come: give them up at once. */
    private static PipelineSettings withoutPushRetries(PipelineSettings s) {
        return new PipelineSettings(s.mirrorRoot(), s.dedupTtl(), s.maxEventBytes(), s.budget(),
                new io.commitflow.push.RetryPolicy(Duration.ofMillis(100), Duration.ofMillis(100), Duration.ZERO), s.suggest(),
                s.sla());
    }

    private RevCommit backport(RevCommit base) throws Exception {
        try (Repository repo = new FileRepositoryBuilder().setGitDir(mirrors.resolve("app.git").toFile()).build();
             TestRepository<Repository> git = new TestRepository<>(repo)) {
            RevCommit c = git.commit().parent(base).add("docs/feature-0.md", "# Feature 0\n")
                    .message("Document feature 0 (cherry picked)").create();
            git.update("refs/heads/backport", c);
            return c;
        }
    }

    private static byte[] commitEvent(RevCommit c) {
        List<String> parents = new ArrayList<>();
        for (RevCommit p : c.getParents()) {
            parents.add(p.name());
        }
        return WireFormat.commit("acme", "app", c.name(), parents, "A U Thor <a@example.com>", 1_700_000_000_000L,
                c.getFullMessage(), null);
    }

    private static List<JsonNode> values(List<ConsumerRecord<byte[], byte[]>> records) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (var r : records) {
            out.add(Json.mapper().readTree(r.value()));
        }
        return out;
    }
}
