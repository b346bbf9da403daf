package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.event.WireFormat;
import io.commitflow.push.RetryPolicy;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.eclipse.jgit.junit.TestRepository;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Damaged and rewritten mirrors under the running job (real broker, MiniCluster, RocksDB, no restarts allowed):
 * a mirror whose pack is truncated before the job reads it, one truncated while the job holds it open, one with a
 * commit, a tree and a blob deleted, and one that C git's gc packs, prunes and repacks between events while the job
 * has it open. Every event ends in exactly one suggestion or one dead letter with its cause, commits that are still
 * readable are described, and the job is still running at the end.
 */
class MirrorFaultsITCase {
    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    @TempDir
    Path mirrors;
    @TempDir
    Path checkpoints;

    /** What became of the events sent: suggestions by repo@sha (the fixtures' histories share shas), dead letters by origin (partition@offset). */
    private record Outcomes(Map<String, JsonNode> suggested, Map<String, List<JsonNode>> dead, int suggestions) {}

    @Test
    void everyEventOnADamagedOrRewrittenMirrorEndsOnceAndTheJobStaysUp() throws Exception {
        assumeThat(git("-C", mirrors.toString(), "--version")).as("C git on this machine").isZero();
        List<RevCommit> gc = GitHistory.create(mirrors, "gc.git", 30);
        List<RevCommit> corrupt = GitHistory.create(mirrors, "corrupt.git", 10);
        List<RevCommit> open = GitHistory.create(mirrors, "open.git", 10);
        List<RevCommit> missing = GitHistory.create(mirrors, "missing.git", 10);
        gitGc("corrupt.git");
        truncatePacks("corrupt.git");
        gitGc("open.git");
        // missing.git is loose (as TestRepository writes): delete m3's commit, m6's root tree, m9's new blob
        deleteLoose("missing.git", missing.get(3));
        deleteLoose("missing.git", missing.get(6).getTree());
        ObjectId m9Blob = blob("missing.git", missing.get(9), "src/main/java/app/Widget2.java");
        deleteLoose("missing.git", m9Blob);

        KafkaSettings k = KafkaSettings.defaults(KAFKA.bootstrap());
        KAFKA.createTopic(k.eventsTopic(), 2);
        KAFKA.createTopic(k.suggestionsTopic(), 2);
        KAFKA.createTopic(k.deadLetterTopic(), 1);
        long t0 = System.nanoTime();
        JobClient job = start(k);
        System.out.printf("mirror faults: job submitted after %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        try {
            // phase 1: the gc mirror while loose, the open mirror's first half, and the broken mirrors
            send(k, commits("gc", gc.subList(0, 10)));
            send(k, commits("open", open.subList(0, 5)));
            List<String> corruptOrigins = send(k, commits("corrupt", corrupt));
            corruptOrigins.addAll(send(k, List.of(gitlabPush("corrupt", corrupt.get(0), corrupt.get(9)))));
            List<String> missingOrigins = send(k, commits("missing", missing));
            String missingPush = send(k, List.of(gerritPush("missing", missing.get(0), missing.get(9)))).get(0);
            // gc 10, open 5, missing 6 described; corrupt 11, missing 4 and its push dead (m3 after its 2 s wait)
            await(21, 16, 37);

            // phase 2: gc packs and prunes gc.git under the open repository; open.git's pack is cut in half
            gitGc("gc.git");
            truncatePacks("open.git");
            send(k, commits("gc", gc.subList(10, 20)));
            List<String> openOrigins = send(k, commits("open", open.subList(5, 10)));
            await(31, 16, 52); // and open.git's second half, one way or the other

            // phase 3: the mirror fetches ten more commits and gc replaces the pack the job has open
            List<RevCommit> more = append("gc.git", gc.get(29), 10);
            gitGc("gc.git");
            send(k, commits("gc", gc.subList(20, 30)));
            send(k, List.of(giteaPush("gc", gc.get(29), more.get(9))));
            Outcomes o = await(51, 16, 72);

            assertThat(job.getJobStatus().get(30, TimeUnit.SECONDS)).as("the job is still up").isEqualTo(JobStatus.RUNNING);

            // gc.git: every commit described, before the gc, after it, after the repack, and through a push
            List<RevCommit> allGc = new ArrayList<>(gc);
            allGc.addAll(more);
            for (RevCommit c : allGc) {
                assertThat(o.suggested()).as("gc.git %s", c.name()).containsKey("gc@" + c.name());
            }
            // corrupt.git: each commit and the push a GIT_ERROR naming the corrupt pack, at once (no wait)
            for (String origin : corruptOrigins) {
                assertThat(o.dead().get(origin)).as("corrupt.git %s", origin).singleElement().satisfies(d -> {
                    assertThat(d.path("reason").asText()).isEqualTo("GIT_ERROR");
                    assertThat(d.path("detail").asText()).contains("corrupt pack");
                });
            }
            corrupt.forEach(c -> assertThat(o.suggested()).doesNotContainKey("corrupt@" + c.name()));
            // open.git: the first half described; the second half, read after the cut, either still described
            // from the pack windows JGit holds or a GIT_ERROR, never both, never lost
            open.subList(0, 5).forEach(c -> assertThat(o.suggested()).containsKey("open@" + c.name()));
            int openDescribed = 0;
            for (int i = 5; i < 10; i++) {
                List<JsonNode> d = o.dead().getOrDefault(openOrigins.get(i - 5), List.of());
                boolean described = o.suggested().containsKey("open@" + open.get(i).name());
                assertThat(described ? 1 : d.size()).as("open.git c%d: one outcome", i).isEqualTo(1);
                assertThat(described && !d.isEmpty()).isFalse();
                if (!described) {
                    assertThat(d.get(0).path("reason").asText()).isEqualTo("GIT_ERROR");
                } else {
                    openDescribed++;
                }
            }
            // missing.git: the readable commits described (m9 with its blob summarised), the rest with their cause
            for (int i : new int[] {0, 1, 2, 5, 8, 9}) {
                assertThat(o.suggested()).as("missing.git m%d", i).containsKey("missing@" + missing.get(i).name());
            }
            assertThat(o.suggested().get("missing@" + missing.get(9).name()).path("truncation").asText()).contains("blobs missing");
            Map<Integer, String> cause = Map.of(3, "UNKNOWN_COMMIT", 4, "GIT_ERROR", 6, "GIT_ERROR", 7, "GIT_ERROR");
            cause.forEach((i, reason) -> assertThat(o.dead().get(missingOrigins.get(i))).as("missing.git m%d", i)
                    .singleElement().satisfies(d -> assertThat(d.path("reason").asText()).isEqualTo(reason)));
            assertThat(o.dead().get(missingPush)).as("the push over the missing commit").singleElement()
                    .satisfies(d -> assertThat(d.path("reason").asText()).isEqualTo("GIT_ERROR"));

            assertThat(o.suggestions()).as("no commit described twice").isEqualTo(o.suggested().size());
            o.dead().values().forEach(d -> assertThat(d).as("one dead letter per event").hasSize(1));
            Map<String, Integer> byReason = new TreeMap<>();
            o.dead().values().forEach(d -> byReason.merge(d.get(0).path("reason").asText(), 1, Integer::sum));
            System.out.println("mirror faults: " + o.suggestions() + " suggestions, dead letters " + byReason
                    + ", open.git described after the cut: " + openDescribed + " of 5");
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private JobClient start(KafkaSettings k) throws Exception {
        Configuration conf = MiniClusters.job(Duration.ofMillis(500), checkpoints);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none"); // any exception fails the job, and the test
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        PipelineSettings d = PipelineSettings.defaults(mirrors.toString());
        // a commit the mirror lacks waits 2 s: long enough that a corrupt pack answering at once is told apart
        PipelineSettings s = new PipelineSettings(d.mirrorRoot(), d.dedupTtl(), d.maxEventBytes(), d.budget(),
                new RetryPolicy(Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofSeconds(2)), d.suggest(), d.sla());
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).build(), KafkaIO.suggestionSink(k),
                KafkaIO.deadLetterSink(k), KafkaIO.slaSink(k), s);
        return env.executeAsync("commitflow-mirror-faults");
    }

    /** Waits for at least so many suggestions, dead letters and outcomes in all, then reads once more. */
    private Outcomes await(int suggestions, int dead, int total) throws Exception {
        long started = System.nanoTime();
        long deadline = started + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            Outcomes o = read();
            int deadCount = o.dead().values().stream().mapToInt(List::size).sum();
            if (o.suggestions() >= suggestions && deadCount >= dead && o.suggestions() + deadCount >= total) {
                System.out.printf("mirror faults: %d/%d/%d reached after %d ms%n", suggestions, dead, total,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
                Thread.sleep(1500); // three more checkpoints: anything duplicated would show now
                return read();
            }
            assertThat(System.nanoTime()).as("waiting for %d/%d/%d, so far %d suggestions and %d dead letters",
                    suggestions, dead, total, o.suggestions(), deadCount).isLessThan(deadline);
            Thread.sleep(500);
        }
    }

    private Outcomes read() throws IOException {
        Map<String, JsonNode> suggested = new HashMap<>();
        int n = 0;
        for (var rec : KAFKA.readCommitted(KafkaSettings.defaults(KAFKA.bootstrap()).suggestionsTopic())) {
            JsonNode s = Json.mapper().readTree(rec.value());
            suggested.put(s.path("repo").asText() + "@" + s.path("sha").asText(), s);
            n++;
        }
        Map<String, List<JsonNode>> dead = new HashMap<>();
        for (var rec : KAFKA.readCommitted(KafkaSettings.defaults(KAFKA.bootstrap()).deadLetterTopic())) {
            JsonNode d = Json.mapper().readTree(rec.value());
            String origin = d.path("origin").path("partition").asInt() + "@" + d.path("origin").path("offset").asLong();
            dead.computeIfAbsent(origin, x -> new ArrayList<>()).add(d);
        }
        return new Outcomes(suggested, dead, n);
    }

    /** Sends the events and returns their origins (partition@offset), in order. */
    private List<String> send(KafkaSettings k, List<byte[]> events) throws Exception {
        List<String> origins = new ArrayList<>();
        for (RecordMetadata m : KAFKA.produce(k.eventsTopic(), null, events)) {
            origins.add(m.partition() + "@" + m.offset());
        }
        return origins;
    }

    private static List<byte[]> commits(String repo, List<RevCommit> commits) {
        return GitHistory.commitEvents(repo, commits);
    }

    private static byte[] gerritPush(String project, RevCommit from, RevCommit to) {
        return utf8("{\"type\":\"ref-updated\",\"refUpdate\":{\"oldRev\":\"" + from.name() + "\",\"newRev\":\"" + to.name()
                + "\",\"refName\":\"main\",\"project\":\"" + project + "\"},\"eventCreatedOn\":1700000000}");
    }

    private static byte[] giteaPush(String repo, RevCommit from, RevCommit to) {
        return utf8("{\"ref\":\"refs/heads/main\",\"before\":\"" + from.name() + "\",\"after\":\"" + to.name()
                + "\",\"repository\":{\"full_name\":\"" + repo + "\"},\"pusher\":{\"login\":\"alice\"}}");
    }

    private static byte[] gitlabPush(String repo, RevCommit from, RevCommit to) {
        return utf8("{\"object_kind\":\"push\",\"ref\":\"refs/heads/main\",\"before\":\"" + from.name() + "\",\"after\":\""
                + to.name() + "\",\"project\":{\"path_with_namespace\":\"" + repo + "\"}}");
    }

    /** Commits {@code n} more changes on top of {@code tip} into the mirror, as a fetch would, and moves main. */
    private List<RevCommit> append(String name, RevCommit tip, int n) throws Exception {
        List<RevCommit> out = new ArrayList<>();
        try (Repository repo = new FileRepositoryBuilder().setGitDir(mirrors.resolve(name).toFile()).build();
             TestRepository<Repository> git = new TestRepository<>(repo)) {
            RevCommit parent = git.parseBody(tip);
            for (int i = 0; i < n; i++) {
                parent = git.commit().parent(parent).add("src/main/java/app/Fetched" + i + ".java",
                        "package app;\n\nclass Fetched" + i + " {\n}\n").message("Add Fetched" + i + "\n").create();
                out.add(parent);
            }
            git.update("refs/heads/main", parent);
        }
        return out;
    }

    /** C git's gc, as a mirror's maintenance runs it: one new pack; old packs and loose objects deleted at once. */
    private void gitGc(String name) throws Exception {
        assertThat(git("-C", mirrors.resolve(name).toString(), "gc", "--prune=now", "--quiet")).isZero();
    }

    private void truncatePacks(String name) throws IOException {
        try (var packs = Files.list(mirrors.resolve(name).resolve("objects/pack"))) {
            for (Path p : packs.filter(f -> f.toString().endsWith(".pack")).toList()) {
                try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
                    f.setLength(f.length() / 2);
                }
            }
        }
    }

    private void deleteLoose(String name, ObjectId id) throws IOException {
        Path loose = mirrors.resolve(name).resolve("objects").resolve(id.name().substring(0, 2)).resolve(id.name().substring(2));
        assertThat(Files.deleteIfExists(loose)).as("loose object %s", id.name()).isTrue();
    }

    private ObjectId blob(String name, RevCommit c, String path) throws IOException {
        try (Repository repo = new FileRepositoryBuilder().setGitDir(mirrors.resolve(name).toFile()).build();
             TreeWalk walk = TreeWalk.forPath(repo, path, c.getTree())) {
            return walk.getObjectId(0);
        }
    }

    private static int git(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        try {
            Process p = pb.start();
            return p.waitFor(2, TimeUnit.MINUTES) ? p.exitValue() : -1;
        } catch (IOException e) {
            return -1; // no git binary
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
