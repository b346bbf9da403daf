package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.event.WireFormat;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.RecordMetadata;
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
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile input against the running job (real broker, MiniCluster, RocksDB, no restarts allowed): thousands of
 * malformed, oversized, wrongly typed, unicode-tricky and hostile events — path traversal, deep nesting, huge and
 * broken inline patches, and Gerrit, Gitea and GitLab push payloads broken at every level ({@link ServerPayloadKinds}) —
 * among valid ones, three of them server pushes whose commits come from the mirror. The job must stay up (a single exception fails it: restarts are off),
 * every hostile event must land in the DLQ exactly once with a reason of its kind, and every valid event must still
 * get its suggestion. Three events that would cost the job without bound come first, once each, and end as one dead
 * letter each: a push bringing more commits than the job's bound, a commit whose diff would take a minute (stopped
 * at the job's diff time), and 1 MiB of control bytes. Pushes the job skips by design (NoteDb and other metadata refs, ref deletions) must leave
 * neither a dead letter nor a suggestion.
 *
 * <p>CI sends {@value #DEFAULT_EVENTS} hostile events; a longer soak on request:
 * {@code ./mvnw -B verify -pl job -am -Dit.test=HostileInputITCase -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * -Dcommitflow.fuzz.events=100000}.
 */
class HostileInputITCase {
    static final int DEFAULT_EVENTS = 2000;
    private static final int MAX_EVENT_BYTES = 256 * 1024;
    /** Above the three valid server pushes' 10 commits each. */
    private static final int MAX_PUSH_COMMITS = 20;
    /** Far above what a commit of these small histories takes on a loaded two-core machine, far below the slow one's. */
    private static final Duration MAX_DIFF_TIME = Duration.ofSeconds(3);

    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    @TempDir
    Path mirrors;
    @TempDir
    Path checkpoints;

    /** A hostile event and the reasons the job may give for it. */
    record Hostile(String kind, byte[] value, Set<String> reasons) {}

    @Test
    void theJobStaysUpDeadLettersEveryHostileEventAndKeepsDescribingValidOnes() throws Exception {
        int count = Integer.getInteger("commitflow.fuzz.events", DEFAULT_EVENTS);
        List<RevCommit> history = GitHistory.create(mirrors, "app.git", 30);
        // pushed by Git servers: web's commits come only from the three valid server pushes; meta's only from pushes
        // the job skips by design (metadata refs, deletions), so none of meta's may be described
        List<RevCommit> web = GitHistory.create(mirrors, "acme/web.git", 30);
        List<RevCommit> metaRepo = GitHistory.create(mirrors, "acme/meta.git", 5);
        Random r = new Random(42);
        List<Hostile> hostile = new ArrayList<>();
        List<Function<Random, Hostile>> kinds = kinds(history);
        kinds.addAll(ServerPayloadKinds.all(web));
        for (int i = 0; i < count; i++) {
            hostile.add(kinds.get(i % kinds.size()).apply(r));
        }
        KafkaSettings k = KafkaSettings.defaults(KAFKA.bootstrap());
        KAFKA.createTopic(k.eventsTopic(), 2);
        KAFKA.createTopic(k.suggestionsTopic(), 2);
        KAFKA.createTopic(k.deadLetterTopic(), 1);
        Map<String, Hostile> byOrigin = new HashMap<>();

        // three that cost the job without bounds, each once, before every valid event: a push that brings a whole
        // imported history, a commit whose diff would take a minute, and 1 MiB of control bytes
        List<RevCommit> imported = GitHistory.create(mirrors, "acme/import.git", MAX_PUSH_COMMITS + 10);
        RevCommit slow;
        try (var fx = new io.commitflow.git.GitFixture(mirrors, "acme/slow.git")) {
            slow = io.commitflow.git.CostlyDiffs.commit(fx.git, null, 300, 3_000);
        }
        byte[] control = new byte[1_040_000];
        java.util.Arrays.fill(control, (byte) 1);
        List<Hostile> costly = List.of(
                new Hostile("push of a whole history", WireFormat.push("acme", "acme/import", "refs/heads/main",
                        io.commitflow.event.PushEvent.ZERO_SHA1, imported.get(imported.size() - 1).name(), "A", 1L),
                        Set.of("TOO_MANY_COMMITS")),
                new Hostile("slow diff", GitHistory.commitEvent("acme/slow", slow), Set.of("DIFF_TIMEOUT")),
                new Hostile("1 MiB of control bytes", control, Set.of("TOO_LARGE")));
        List<RecordMetadata> costlyMeta = KAFKA.produce(k.eventsTopic(), null, costly.stream().map(Hostile::value).toList());
        for (int i = 0; i < costly.size(); i++) {
            byOrigin.put(costlyMeta.get(i).partition() + "@" + costlyMeta.get(i).offset(), costly.get(i));
        }

        // valid commits, a valid huge inline patch, then the hostile ones with valid ones between them
        List<byte[]> valid = new ArrayList<>(GitHistory.commitEvents("app", history));
        String bigSha = "e".repeat(40);
        valid.add(WireFormat.commit("acme", "inline/big", bigSha, List.of(), "A <a@example.com>", 1L, "Big", hugePatch(200_000)));
        valid.addAll(ServerPayloadKinds.validPushes("acme/web", web));
        int batch = 0;
        for (int from = 0; from < hostile.size(); from += 500) {
            List<Hostile> part = hostile.subList(from, Math.min(hostile.size(), from + 500));
            List<RecordMetadata> meta = KAFKA.produce(k.eventsTopic(), null, part.stream().map(Hostile::value).toList());
            for (int i = 0; i < part.size(); i++) {
                byOrigin.put(meta.get(i).partition() + "@" + meta.get(i).offset(), part.get(i));
            }
            int v = Math.min(valid.size(), (batch + 1) * 8);
            if (batch * 8 < v) {
                KAFKA.produce(k.eventsTopic(), "app".getBytes(StandardCharsets.UTF_8), valid.subList(batch * 8, v));
            }
            batch++;
        }
        if (batch * 8 < valid.size()) {
            KAFKA.produce(k.eventsTopic(), "app".getBytes(StandardCharsets.UTF_8), valid.subList(batch * 8, valid.size()));
        }

        List<RecordMetadata> skippedMeta = KAFKA.produce(k.eventsTopic(), null, ServerPayloadKinds.skippedByDesign(metaRepo, r));
        Set<String> skipped = new java.util.HashSet<>();
        skippedMeta.forEach(m -> skipped.add(m.partition() + "@" + m.offset()));

        run(k);

        Map<String, Integer> suggested = new HashMap<>();
        for (var rec : KAFKA.readCommitted(k.suggestionsTopic())) {
            JsonNode n = Json.mapper().readTree(rec.value());
            suggested.merge(n.path("repo").asText() + "@" + n.path("sha").asText(), 1, Integer::sum); // histories share shas
            if (n.path("sha").asText().equals(bigSha)) {
                assertThat(n.path("truncation").asText()).as("the huge inline patch was cut to the budget").isNotEmpty();
            }
        }
        List<String> expectedShas = new ArrayList<>(history.stream().map(c -> "app@" + c.name()).toList());
        expectedShas.add("inline/big@" + bigSha);
        web.forEach(c -> expectedShas.add("acme/web@" + c.name()));
        metaRepo.forEach(c -> assertThat(suggested).as("a skipped push was expanded").doesNotContainKey("acme/meta@" + c.name()));
        assertThat(suggested.keySet()).containsExactlyInAnyOrderElementsOf(expectedShas);
        assertThat(suggested.values()).as("each valid commit once").containsOnly(1);

        Map<String, Integer> seen = new HashMap<>();
        Map<String, Integer> byReason = new java.util.TreeMap<>();
        Map<String, Map<String, Integer>> byFamily = new java.util.TreeMap<>();
        for (var rec : KAFKA.readCommitted(k.deadLetterTopic())) {
            JsonNode d = Json.mapper().readTree(rec.value());
            String origin = d.path("origin").path("partition").asInt() + "@" + d.path("origin").path("offset").asLong();
            assertThat(skipped).as("a dead letter for a push the job skips by design: %s", d).doesNotContain(origin);
            Hostile h = byOrigin.get(origin);
            assertThat(h).as("a dead letter for a record we did not send as hostile: %s", d).isNotNull();
            assertThat(d.path("reason").asText()).as("%s: %s", h.kind(), d.path("detail").asText()).isIn(h.reasons());
            assertThat(d.path("detail").asText()).isNotBlank();
            seen.merge(origin, 1, Integer::sum);
            byReason.merge(d.path("reason").asText(), 1, Integer::sum);
            byFamily.computeIfAbsent(family(h.kind()), x -> new java.util.TreeMap<>())
                    .merge(d.path("reason").asText(), 1, Integer::sum);
        }
        Map<String, Long> missing = byOrigin.entrySet().stream().filter(e -> !seen.containsKey(e.getKey()))
                .collect(java.util.stream.Collectors.groupingBy(e -> e.getValue().kind(), java.util.stream.Collectors.counting()));
        assertThat(missing).as("hostile events without a dead letter, by kind").isEmpty();
        assertThat(seen.values()).as("each once").containsOnly(1);
        System.out.println("hostile events by reason: " + byReason);
        Map<String, Long> sentByFamily = new java.util.TreeMap<>(byOrigin.values().stream().collect(
                java.util.stream.Collectors.groupingBy(h -> family(h.kind()), java.util.stream.Collectors.counting())));
        System.out.println("hostile events sent by family: " + sentByFamily + "; dead letters by family and reason: "
                + byFamily + "; skipped by design: " + skipped.size() + " sent, 0 dead letters; suggestions: "
                + suggested.size() + " (" + web.size() + " from the three valid server pushes)");
    }

    private static String family(String kind) {
        int colon = kind.indexOf(':');
        return colon < 0 ? "native" : kind.substring(0, colon);
    }

    private void run(KafkaSettings k) throws Exception {
        Configuration conf = MiniClusters.job(Duration.ofMillis(500), checkpoints);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none"); // any exception fails the test
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        PipelineSettings d = PipelineSettings.defaults(mirrors.toString());
        PipelineSettings s = new PipelineSettings(d.mirrorRoot(), d.dedupTtl(), MAX_EVENT_BYTES,
                d.budget().withMaxTime(MAX_DIFF_TIME),
                new io.commitflow.push.RetryPolicy(Duration.ofMillis(100), Duration.ofMillis(100), Duration.ZERO),
                d.suggest(), d.sla(), MAX_PUSH_COMMITS);
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).setBounded(OffsetsInitializer.latest()).build(),
                KafkaIO.suggestionSink(k), KafkaIO.deadLetterSink(k), KafkaIO.slaSink(k), s);
        env.execute("commitflow-hostile-input");
    }

    /** The kinds of hostile event, each with the reasons the job may give. */
    private static List<Function<Random, Hostile>> kinds(List<RevCommit> history) {
        String sha = history.get(5).name();
        List<Function<Random, Hostile>> k = new ArrayList<>();
        k.add(r -> new Hostile("empty", new byte[0], Set.of("EMPTY")));
        k.add(r -> {
            byte[] b = new byte[1 + r.nextInt(300)];
            r.nextBytes(b);
            b[0] = (byte) ('#' + r.nextInt(3)); // never a JSON start
            return new Hostile("random bytes", b, Set.of("NOT_JSON"));
        });
        k.add(r -> {
            byte[] v = commit("app", sha).getBytes(StandardCharsets.UTF_8);
            return new Hostile("truncated", java.util.Arrays.copyOf(v, 1 + r.nextInt(v.length - 2)), Set.of("NOT_JSON"));
        });
        k.add(r -> {
            // 175,000 control bytes: six bytes each in the dead letter's JSON, over the producer's 1 MiB if the raw value
            // were cut by characters; the dead letter must still go out, once, and the job go on
            byte[] b = new byte[175_000];
            java.util.Arrays.fill(b, (byte) 1);
            return new Hostile("control bytes", b, Set.of("NOT_JSON"));
        });
        k.add(r -> new Hostile("not an object", utf8(List.of("[1,2]", "42", "\"commit\"", "null", "true").get(r.nextInt(5))),
                Set.of("NOT_OBJECT")));
        k.add(r -> {
            int depth = 33 + r.nextInt(20_000);
            return new Hostile("deep nesting", utf8("{\"type\":\"commit\",\"x\":" + "[".repeat(depth) + "]".repeat(depth) + "}"),
                    Set.of("NOT_JSON"));
        });
        k.add(r -> new Hostile("oversized", utf8("{\"type\":\"commit\",\"pad\":\"" + "x".repeat(MAX_EVENT_BYTES + r.nextInt(1000)) + "\"}"),
                Set.of("TOO_LARGE")));
        k.add(r -> new Hostile("unknown type", utf8("{\"type\":\"" + List.of("merge", "", "COMMIT", "tag", "push\u0000").get(r.nextInt(5))
                + "\",\"repo\":\"app\"}"), Set.of("UNKNOWN_TYPE", "MISSING_FIELD", "NOT_JSON"))); // a raw NUL is no JSON
        k.add(r -> new Hostile("missing field", utf8("{\"type\":\"commit\",\"tenant\":\"acme\",\"repo\":\"app\"}"),
                Set.of("MISSING_FIELD")));
        k.add(r -> new Hostile("wrong type", utf8(switch (r.nextInt(5)) {
            case 0 -> "{\"type\":\"commit\",\"repo\":\"app\",\"sha\":12345}";
            case 1 -> "{\"type\":\"commit\",\"repo\":\"app\",\"sha\":\"" + sha + "\",\"parents\":\"" + sha + "\"}";
            case 2 -> "{\"type\":\"commit\",\"repo\":{\"a\":1},\"sha\":\"" + sha + "\"}";
            case 3 -> "{\"type\":\"commit\",\"repo\":\"app\",\"sha\":\"" + sha + "\",\"ts\":true}";
            default -> "{\"type\":\"commit\",\"repo\":\"app\",\"sha\":\"" + sha + "\",\"parents\":[1,2]}";
        }), Set.of("WRONG_TYPE")));
        k.add(r -> new Hostile("bad sha", utf8(commit("app", List.of("abc", "z".repeat(40), sha + "0", "-".repeat(40),
                "0x" + sha.substring(2)).get(r.nextInt(5)))), Set.of("INVALID_FIELD")));
        k.add(r -> new Hostile("path traversal", utf8(commit(List.of("../etc", "app/../../etc", "/etc/passwd", "a//b",
                "./app", "app/.", "..", "a\\\\b", "app\\u0000", "app/ ", "x".repeat(5000)).get(r.nextInt(11)), sha)),
                Set.of("BAD_REPO_NAME")));
        k.add(r -> new Hostile("unicode repo", utf8(commit(List.of("app\\u202e", "\\u200dapp", "ａｐｐ", "app\\ud800",
                "app\\udc00x", "\\ud83d\\ude00", "app\\u0301", "app\\u2215..\\u2215etc", "app\\ufeff").get(r.nextInt(9)), randomHex(r))),
                Set.of("NO_MIRROR", "BAD_REPO_NAME")));
        k.add(r -> new Hostile("unknown commit", utf8(commit("app", randomHex(r))), Set.of("UNKNOWN_COMMIT")));
        // distinct shas: a second (repo, sha) would be a redelivery, which dedup drops (counted, not dead-lettered)
        k.add(r -> new Hostile("no such mirror", utf8(commit("ghost/" + r.nextInt(1000), randomHex(r))), Set.of("NO_MIRROR")));
        k.add(r -> new Hostile("broken inline patch", WireFormat.commit("acme", "inline/x", randomHex(r), List.of(),
                "A <a@example.com>", 1L, "m", List.of("not a patch", "diff --git a/x b/x\n@@ garbage @@\n", "\u0000\u0001")
                        .get(r.nextInt(3))), Set.of("BAD_PATCH")));
        k.add(r -> new Hostile("bad push", utf8("{\"type\":\"push\",\"repo\":\"app\",\"ref\":\"" + List.of("main", "refs/heads/../x",
                "refs/heads/ma\\u0000in").get(r.nextInt(3)) + "\",\"before\":\"" + sha + "\",\"after\":\"" + sha + "\"}"),
                Set.of("INVALID_FIELD")));
        return k;
    }

    private static String commit(String repo, String sha) {
        return "{\"type\":\"commit\",\"tenant\":\"acme\",\"repo\":\"" + repo + "\",\"sha\":\"" + sha + "\",\"parents\":[],"
                + "\"ts\":1700000000000}";
    }

    static String randomHex(Random r) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            s.append(Character.forDigit(r.nextInt(16), 16));
        }
        return s.toString();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A valid patch adding {@code lines} lines over many files: within the event limit, far over the diff budget. */
    private static String hugePatch(int bytes) {
        StringBuilder p = new StringBuilder();
        for (int f = 0; p.length() < bytes; f++) {
            p.append("diff --git a/f").append(f).append(".txt b/f").append(f).append(".txt\nnew file mode 100644\n")
                    .append("--- /dev/null\n+++ b/f").append(f).append(".txt\n@@ -0,0 +1,20 @@\n");
            for (int i = 0; i < 20; i++) {
                p.append("+line ").append(i).append(" of file ").append(f).append('\n');
            }
        }
        return p.toString();
    }
}
