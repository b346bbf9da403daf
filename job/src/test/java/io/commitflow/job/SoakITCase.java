package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.event.WireFormat;
import io.commitflow.push.RetryPolicy;
import io.commitflow.suggest.SuggestSettings;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import io.commitflow.testing.Reconciliation;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A soak, on request only ({@code -Dcommitflow.soak=true}): 10^5 mixed events — valid commit events of 20
 * repositories, pushes of 10 more, redeliveries, hostile events — sent evenly over at least ten minutes into the
 * running job (real broker, MiniCluster, RocksDB, exactly-once). Every 15 s it samples the live heap of the JVM that
 * holds the TaskManager (after a full GC), the RocksDB instances' state on disk (SST files, manifests: everything
 * but their info logs), their info logs (which Flink rotates: {@code state.backend.rocksdb.log.max-file-size} ×
 * {@code log.file-num} per instance) and the checkpoints.
 * The job runs with the retention it would use for a fleet, scaled to the soak: dedup and caches keep 2 minutes, each
 * repository's memory 100 commits for lookups plus 128 for requests in flight (its capacity), so every repository's
 * memory is full within the first quarter of the soak; from then on the state must stop growing. At the end it reconciles:
 * every commit described once, every hostile event dead-lettered once, no redelivery described again.
 *
 * <pre>{@code ./mvnw -B verify -pl job -am -Dit.test=SoakITCase -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dfailsafe.failIfNoSpecifiedTests=false -Dcommitflow.soak=true [-Dcommitflow.soak.minutes=10]}</pre>
 *
 * The samples are written to {@code job/target/soak-samples.tsv}.
 */
@EnabledIfSystemProperty(named = "commitflow.soak", matches = "true")
class SoakITCase {
    private static final int EVENTS = 100_000;
    private static final int REPOS = 20;
    private static final int PER_REPO = 2_750;
    private static final int PUSH_REPOS = 10;
    private static final int PER_PUSH_REPO = 1_000;
    private static final int PER_PUSH = 10;
    private static final int REDELIVERIES = 20_000;
    /** The RocksDB instances' local folders: under the build folder, emptied before and after the soak. */
    private static final Path ROCKSDB = Path.of("target", "soak-rocksdb").toAbsolutePath();

    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2, rocksDbIn(ROCKSDB));

    @TempDir
    Path dir;

    @Test
    void tenToTheFiveMixedEventsOverTenMinutesStateFlatAfterWarmUp() throws Exception {
        int minutes = Integer.getInteger("commitflow.soak.minutes", 10);
        Path mirrors = dir.resolve("mirrors");
        List<List<RevCommit>> repos = new ArrayList<>();
        for (int r = 0; r < REPOS; r++) {
            repos.add(GitHistory.create(mirrors, "repo" + r + ".git", PER_REPO));
        }
        List<List<RevCommit>> pushed = new ArrayList<>();
        for (int r = 0; r < PUSH_REPOS; r++) {
            pushed.add(GitHistory.create(mirrors, "pushed" + r + ".git", PER_PUSH_REPO));
        }
        List<byte[]> events = schedule(repos, pushed);
        assertThat(events).hasSize(EVENTS);

        KafkaSettings k = KafkaSettings.defaults(KAFKA.bootstrap());
        KAFKA.createTopic(k.eventsTopic(), 2);
        KAFKA.createTopic(k.suggestionsTopic(), 2);
        KAFKA.createTopic(k.deadLetterTopic(), 1);
        KAFKA.createTopic(k.slaTopic(), 1);
        JobClient job = start(k, mirrors);

        AtomicInteger sent = new AtomicInteger();
        Thread producer = new Thread(() -> send(k, events, Duration.ofMinutes(minutes), sent), "soak-producer");
        producer.start();
        List<String> samples = new ArrayList<>();
        deleteRecursively(ROCKSDB);
        samples.add("elapsed_s\tevents_sent\tlive_heap_mb\trocksdb_state_mb\trocksdb_logs_mb\tcheckpoints_mb");
        long t0 = System.nanoTime();
        List<double[]> rows = new ArrayList<>();
        while (producer.isAlive() || rows.isEmpty()) {
            Thread.sleep(15_000);
            double[] row = sample((System.nanoTime() - t0) / 1e9, sent.get());
            rows.add(row);
            samples.add(format(row));
            System.out.println("soak " + samples.get(samples.size() - 1));
            assertThat(job.getJobStatus().get(10, TimeUnit.SECONDS)).isEqualTo(JobStatus.RUNNING);
        }
        producer.join();

        int commits = REPOS * PER_REPO + PUSH_REPOS * PER_PUSH_REPO;
        Reconciliation.waitFor(() -> KAFKA.readCommitted(k.suggestionsTopic()).size() >= commits, Duration.ofMinutes(10),
                Duration.ofSeconds(2), "every suggestion");
        Thread.sleep(5000);
        double[] end = sample((System.nanoTime() - t0) / 1e9, sent.get());
        samples.add(format(end));
        job.cancel().get(60, TimeUnit.SECONDS);
        Files.write(Path.of("target/soak-samples.tsv"), samples);
        deleteRecursively(ROCKSDB);

        Map<String, Integer> perSha = Reconciliation.perCommit(KAFKA.readCommitted(k.suggestionsTopic()));
        assertThat(perSha).as("every commit described").hasSize(commits);
        assertThat(perSha.values()).as("once").containsOnly(1);
        Map<String, Integer> dead = Reconciliation.perOrigin(KAFKA.readCommitted(k.deadLetterTopic()));
        int hostile = EVENTS - REPOS * PER_REPO - PUSH_REPOS * PER_PUSH_REPO / PER_PUSH - REDELIVERIES;
        assertThat(dead).as("every hostile event dead-lettered").hasSize(hostile);
        assertThat(dead.values()).as("once").containsOnly(1);

        // flat after warm-up: the median of the last third of the samples against that of the middle third (a
        // median, as one sample may catch a burst of allocation between the GC and the reading)
        int third = rows.size() / 3;
        double heapMid = median(rows.subList(third, 2 * third), 2);
        double heapEnd = median(rows.subList(2 * third, rows.size()), 2);
        double rocksMid = median(rows.subList(third, 2 * third), 3);
        double rocksEnd = median(rows.subList(2 * third, rows.size()), 3);
        System.out.printf("soak: %d events over %d min; %d suggestions, %d dead letters; median live heap %.0f → %.0f MB, "
                + "RocksDB state %.1f → %.1f MB (middle → last third); RocksDB info logs at the end %.1f MB%n", EVENTS,
                minutes, perSha.size(), dead.size(), heapMid, heapEnd, rocksMid, rocksEnd, end[4]);
        assertThat(heapEnd).as("live heap flat after warm-up").isLessThan(1.25 * heapMid);
        assertThat(rocksEnd).as("RocksDB state flat after warm-up").isLessThan(1.5 * rocksMid);
    }

    /**
     * The events in the order they are sent: commit events of the 20 repositories round-robin, a push of the next
     * 10 commits of a pushed repository every 55 events, a redelivery of one of the last 200 commit events sent every
     * fifth event, hostile events in the gaps; ends with the remaining ones of each kind.
     */
    private static List<byte[]> schedule(List<List<RevCommit>> repos, List<List<RevCommit>> pushed) {
        Random random = new Random(7);
        List<byte[]> commits = new ArrayList<>();
        for (int i = 0; i < PER_REPO; i++) {
            for (int r = 0; r < REPOS; r++) {
                commits.add(GitHistory.commitEvent("repo" + r, repos.get(r).get(i)));
            }
        }
        List<byte[]> pushes = new ArrayList<>();
        for (int from = 0; from < PER_PUSH_REPO; from += PER_PUSH) {
            for (int r = 0; r < PUSH_REPOS; r++) {
                List<RevCommit> h = pushed.get(r);
                String before = from == 0 ? "0".repeat(40) : h.get(from - 1).name();
                pushes.add(WireFormat.push("acme", "pushed" + r, "refs/heads/main", before, h.get(from + PER_PUSH - 1).name(),
                        "alice", System.currentTimeMillis()));
            }
        }
        int hostile = EVENTS - commits.size() - pushes.size() - REDELIVERIES;
        List<byte[]> out = new ArrayList<>(EVENTS);
        int c = 0;
        int p = 0;
        int redelivered = 0;
        int bad = 0;
        for (int i = 0; out.size() < EVENTS; i++) {
            if (i % 55 == 0 && p < pushes.size()) {
                out.add(pushes.get(p++));
            } else if (i % 5 == 1 && redelivered < REDELIVERIES && c > 200) {
                out.add(commits.get(c - 1 - random.nextInt(200)));
                redelivered++;
            } else if (i % 4 == 2 && bad < hostile) {
                out.add(hostile(random, bad++));
            } else if (c < commits.size()) {
                out.add(commits.get(c++));
            } else if (p < pushes.size()) {
                out.add(pushes.get(p++));
            } else if (redelivered < REDELIVERIES) {
                out.add(commits.get(commits.size() - 1 - random.nextInt(200)));
                redelivered++;
            } else {
                out.add(hostile(random, bad++));
            }
        }
        return out;
    }

    /** Hostile events of kinds that each end in a dead letter at once (no mirror wait). */
    private static byte[] hostile(Random random, int i) {
        String s = switch (i % 6) {
            case 0 -> "not json " + i;
            case 1 -> "{\"type\":\"commit\",\"repo\":\"repo1\",\"sha\":\"xyz" + i + "\"}";
            case 2 -> "{\"type\":\"commit\",\"repo\":\"../etc/" + i + "\",\"sha\":\"" + "a".repeat(40) + "\"}";
            case 3 -> "{\"type\":\"commit\",\"repo\":\"ghost" + i + "\",\"sha\":\"" + "b".repeat(40) + "\"}";
            case 4 -> "[" + i + "]";
            default -> "{\"type\":\"commit\",\"tenant\":\"acme\",\"pad\":\"" + "x".repeat(random.nextInt(2000)) + "\"}";
        };
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Sends the events evenly over {@code duration}, each with its repository as the key (none for hostile ones). */
    private static void send(KafkaSettings k, List<byte[]> events, Duration duration, AtomicInteger sent) {
        Map<String, Object> p = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrap(), ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 5);
        long start = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < events.size(); i++) {
                long due = start + duration.toNanos() * i / events.size();
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                byte[] key = repoOf(events.get(i));
                producer.send(new ProducerRecord<>(k.eventsTopic(), key, events.get(i)));
                sent.incrementAndGet();
            }
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static byte[] repoOf(byte[] event) {
        try {
            JsonNode n = Json.mapper().readTree(event);
            return n.hasNonNull("repo") && n.path("repo").isTextual() ? n.path("repo").asText().getBytes(StandardCharsets.UTF_8) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * elapsed s, events sent, live heap MB (after a full GC), RocksDB state MB (all but the info logs), RocksDB info
     * logs MB, checkpoints MB.
     */
    private double[] sample(double elapsed, int sent) {
        System.gc();
        double heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0;
        long logs = size(ROCKSDB, f -> f.getFileName().toString().startsWith("LOG"));
        long all = size(ROCKSDB, f -> true);
        return new double[] {elapsed, sent, heap, (all - logs) / 1048576.0, logs / 1048576.0,
                size(dir.resolve("checkpoints"), f -> true) / 1048576.0};
    }

    private static String format(double[] row) {
        return String.format("%.0f\t%.0f\t%.0f\t%.1f\t%.1f\t%.1f", row[0], row[1], row[2], row[3], row[4], row[5]);
    }

    private JobClient start(KafkaSettings k, Path mirrors) throws Exception {
        Configuration conf = rocksDbIn(ROCKSDB);
        conf.set(StateBackendOptions.STATE_BACKEND, "rocksdb");
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(5)); // as flink-conf/config.yaml
        conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, dir.resolve("checkpoints").toUri().toString());
        conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none"); // any exception fails the soak
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        PipelineSettings d = PipelineSettings.defaults(mirrors.toString());
        SuggestSettings s = d.suggest();
        SuggestSettings soak = new SuggestSettings(s.engine(), s.deviceBudgetMiB(), s.maxBatch(), s.maxWait(), s.workers(),
                s.timeout(), 128, s.retries(), s.tiers(), s.defaultTier(), s.llm(), 100, Duration.ofMinutes(2),
                s.fleet(), s.fleetRows(), s.minSubjectChars(), s.reuseFloor());
        PipelineSettings settings = new PipelineSettings(d.mirrorRoot(), Duration.ofMinutes(2), d.maxEventBytes(), d.budget(),
                new RetryPolicy(Duration.ofMillis(200), Duration.ofSeconds(1), Duration.ofSeconds(10)), soak, d.sla());
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).build(), KafkaIO.suggestionSink(k), KafkaIO.deadLetterSink(k),
                KafkaIO.slaSink(k), settings);
        return env.executeAsync("commitflow-soak");
    }

    private static Configuration rocksDbIn(Path folder) {
        Configuration c = new Configuration();
        c.setString("state.backend.rocksdb.localdir", folder.toString());
        return c;
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }

    private static long size(Path root, java.util.function.Predicate<Path> which) {
        if (!Files.exists(root)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).filter(which).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    return 0; // deleted while we walked: compaction or a checkpoint cleanup
                }
            }).sum();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }

    private static double median(List<double[]> rows, int column) {
        double[] v = rows.stream().mapToDouble(r -> r[column]).sorted().toArray();
        return v.length == 0 ? 0 : v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
