package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.replay.kafka.LocalKafka;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import io.commitflow.testing.Reconciliation;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.BeforeAll;
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
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.commitflow.testing.Reconciliation.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The broker fails, not Flink: a real Kafka broker in a JVM of its own ({@link LocalKafka}) is killed with SIGKILL
 * under load and started again on the same storage and ports, is not there yet when the job starts, and stays away
 * longer than the sinks' transaction timeout. A Git server's producer keeps sending throughout (it buffers and
 * retries, as a Kafka producer does). Each case reconciles the read_committed output against what was sent.
 *
 * <p>The kill lands mid-transaction: right after a checkpoint's commit became visible and before the next
 * checkpoint can complete ({@code min-pause} 2 s), so the sinks hold open transactions with records in them and no
 * commit is pending, or (in the long outage) in the moment between a checkpoint's completion and its commit.
 */
class KafkaFaultsITCase {
    private static final Path HOME = Path.of(System.getProperty("commitflow.home", "..")).toAbsolutePath().normalize();
    private static final int COMMITS = 1200;
    private static final int MALFORMED = 20;

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    private static String brokerClasspath;

    @TempDir
    Path dir;

    @BeforeAll
    static void brokerClasspath() throws Exception {
        brokerClasspath = io.commitflow.cli.TestLauncher.classpath();
    }

    @Test
    void aBrokerKilledAndRestartedMidTransactionLosesAndDuplicatesNothing() throws Exception {
        try (LocalKafka kafka = LocalKafka.start(dir.resolve("kafka"), brokerClasspath)) {
            Run run = new Run(kafka, Duration.ofMinutes(10));
            run.start();
            run.killMidTransaction();
            Thread.sleep(3000);
            kafka.serve();
            Result r = run.finish(Set.of());
            assertThat(r.lost()).as("lost").isEmpty();
            assertThat(r.duplicates()).as("duplicates").isEmpty();
            r.print("broker SIGKILL, back after 3 s");
        }
    }

    @Test
    void aJobStartedBeforeItsBrokerWaitsForItAndLosesNothing() throws Exception {
        try (LocalKafka kafka = LocalKafka.format(dir.resolve("kafka"), brokerClasspath)) {
            Run run = new Run(kafka, Duration.ofMinutes(10));
            JobClient job = run.submit();
            Thread.sleep(10_000);
            assertThat(job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState())
                    .as("the job waits for its broker (restarting), it does not give up").isFalse();
            kafka.serve();
            run.createTopics();
            run.sendMalformed();
            run.sendAll();
            Result r = run.finish(Set.of());
            assertThat(r.lost()).as("lost").isEmpty();
            assertThat(r.duplicates()).as("duplicates").isEmpty();
            r.print("broker down at start, up after 10 s");
        }
    }

    /**
     * An outage longer than the transaction timeout (15 s here, 10 min by default): the broker aborts the sinks'
     * open transactions when it comes back. A transaction still open then is refused by the writer
     * ({@link FreshTransactionSink}: the job fails over and writes its records again); one whose checkpoint had
     * completed but whose commit had not reached the broker (the kill lands there more often than not) cannot be
     * committed any more, and the committer writes its records again ({@link RedeliveringCommitter}): lost 0. A
     * transaction whose commit did land before the kill, unanswered, would be written twice: duplicates are counted,
     * and readers upsert by (repository, sha).
     */
    @Test
    void anOutageLongerThanTheTransactionTimeoutLosesNothing() throws Exception {
        try (LocalKafka kafka = LocalKafka.start(dir.resolve("kafka"), brokerClasspath)) {
            // 15 s: on a loaded 2-core machine a checkpoint can take several seconds, and the sinks refuse a
            // transaction older than three quarters of the timeout
            Run run = new Run(kafka, Duration.ofSeconds(15));
            run.start();
            run.killMidTransaction();
            Thread.sleep(25_000);
            kafka.serve();
            Result r = run.finish(Set.of());
            r.print("broker SIGKILL, back after 25 s > 15 s transaction timeout");
            assertThat(r.lost()).as("lost").isEmpty();
        }
    }

    /**
     * A TaskManager stopped right after a checkpoint completed and kept away past the transaction timeout (15 s here):
     * the broker aborts every transaction the dead TaskManager held open, and the restored committer finds the
     * completed checkpoint's transactions aborted when their commit had not gone out before the stop. Those are
     * written again from the committer's state, the rest is read again from the checkpoint's offsets: lost 0.
     */
    @Test
    void aTaskManagerKeptAwayPastTheTransactionTimeoutLosesNothing(
            @org.apache.flink.test.junit5.InjectMiniCluster org.apache.flink.runtime.minicluster.MiniCluster cluster)
            throws Exception {
        try (LocalKafka kafka = LocalKafka.start(dir.resolve("kafka"), brokerClasspath)) {
            Run run = new Run(kafka, Duration.ofSeconds(15));
            run.start();
            run.waitForACommit();
            Set<String> committed = run.suggested();
            Set<String> sent = new HashSet<>(run.acked);
            cluster.terminateTaskManager(0).get(30, TimeUnit.SECONDS);
            sent.removeAll(committed);
            run.inFlightAtKill = sent.size();
            Thread.sleep(25_000);
            cluster.startTaskManager();
            Result r = run.finish(Set.of());
            r.print("TaskManager stopped after a commit, back after 25 s > 15 s transaction timeout");
            assertThat(r.lost()).as("lost").isEmpty();
        }
    }

    /** The reconciliation of one case: expected keys missing from the committed output, and keys seen twice. */
    private record Result(int commits, int malformed, int suggestions, int deadLetters, int inFlightAtKill,
                          Set<String> lost, List<String> duplicates) {
        void print(String fault) {
            System.out.printf("kafka fault [%s]: %d commits + %d malformed sent; %d in flight at the fault; committed: "
                            + "%d suggestions, %d dead letters; lost %d, duplicates %d%n", fault, commits, malformed,
                    inFlightAtKill, suggestions, deadLetters, lost.size(), duplicates.size());
        }
    }

    /** One job against one broker, with a Git server's producer that sends two repositories' commits. */
    private final class Run {
        private final LocalKafka kafka;
        private final KafkaSettings k;
        private final List<RevCommit> app;
        private final List<RevCommit> lib;
        private final ConcurrentLinkedQueue<String> acked = new ConcurrentLinkedQueue<>();
        private final AtomicReference<Exception> sendFailure = new AtomicReference<>();
        private KafkaProducer<byte[], byte[]> producer;
        private Thread sender;
        private JobClient job;
        private int inFlightAtKill = -1;

        Run(LocalKafka kafka, Duration transactionTimeout) throws Exception {
            this.kafka = kafka;
            KafkaSettings d = KafkaSettings.defaults(kafka.bootstrap());
            this.k = new KafkaSettings(d.bootstrap(), d.eventsTopic(), d.suggestionsTopic(), d.deadLetterTopic(),
                    d.slaTopic(), d.groupId(), d.fromEarliest(), d.delivery(), d.transactionalIdPrefix(),
                    transactionTimeout, d.properties());
            app = GitHistory.create(dir.resolve("mirrors"), "app.git", COMMITS / 2);
            lib = GitHistory.create(dir.resolve("mirrors"), "lib.git", COMMITS / 2);
        }

        /** Topics, malformed records, the job, and the producer sending in the background. */
        void start() throws Exception {
            createTopics();
            sendMalformed();
            submit();
            sendAll();
        }

        void createTopics() throws Exception {
            LocalKafka.createTopics(kafka.bootstrap(), Map.of(k.eventsTopic(), 2, k.suggestionsTopic(), 2,
                    k.deadLetterTopic(), 1, k.slaTopic(), 1));
        }

        void sendMalformed() throws Exception {
            try (KafkaProducer<byte[], byte[]> p = newProducer()) {
                for (int i = 0; i < MALFORMED; i++) {
                    p.send(new ProducerRecord<>(k.eventsTopic(), ("not json " + i).getBytes(StandardCharsets.UTF_8)))
                            .get(60, TimeUnit.SECONDS);
                }
            }
        }

        /** Both repositories, interleaved, 20 commits every 250 ms (about 15 s in all); acknowledged ones are remembered. */
        void sendAll() {
            producer = newProducer();
            sender = new Thread(() -> {
                try {
                    for (int i = 0; i < COMMITS / 2; i += 10) {
                        for (var repo : List.of(Map.entry("app", app), Map.entry("lib", lib))) {
                            for (RevCommit c : repo.getValue().subList(i, Math.min(i + 10, repo.getValue().size()))) {
                                String key = repo.getKey() + "@" + c.name();
                                producer.send(new ProducerRecord<>(k.eventsTopic(), repo.getKey().getBytes(StandardCharsets.UTF_8),
                                        GitHistory.commitEvent(repo.getKey(), c)), (meta, e) -> {
                                    if (e != null) {
                                        sendFailure.compareAndSet(null, e);
                                    } else {
                                        acked.add(key);
                                    }
                                });
                            }
                        }
                        Thread.sleep(250);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "git-server-producer");
            sender.start();
        }

        JobClient submit() throws Exception {
            Configuration conf = MiniClusters.job(Duration.ofSeconds(1), dir.resolve("checkpoints"));
            conf.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, Duration.ofSeconds(2));
            conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
            // as flink-conf/config.yaml has it, with shorter waits
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF, Duration.ofMillis(500));
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF, Duration.ofSeconds(4));
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
            env.setParallelism(2);
            KafkaIO.checkDelivery(k, 1000);
            CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).build(), KafkaIO.suggestionSink(k),
                    KafkaIO.deadLetterSink(k), KafkaIO.slaSink(k), PipelineSettings.defaults(dir.resolve("mirrors").toString()));
            job = env.executeAsync("commitflow-kafka-faults");
            return job;
        }

        /**
         * Waits for output, then for a commit to become visible, and kills the broker at once: the sinks' next
         * transactions are open with records in them. Returns the commits in flight: acknowledged, not committed.
         */
        Set<String> killMidTransaction() throws Exception {
            waitForACommit();
            Set<String> committed = suggested();
            Set<String> sent = new HashSet<>(acked);
            assertThat(kafka.kill()).as("the broker died of SIGKILL").isEqualTo(137);
            sent.removeAll(committed);
            inFlightAtKill = sent.size();
            assertThat(sent).as("the kill hit commits in flight (acknowledged, not committed)").isNotEmpty();
            assertThat(sender.isAlive()).as("the producer still sends during the outage").isTrue();
            return sent;
        }

        /** Waits for output, then for the next commit to become visible. */
        void waitForACommit() throws InterruptedException {
            waitFor(() -> suggested().size() >= 100, Duration.ofMinutes(3), "first output");
            int before = suggested().size();
            waitFor(() -> suggested().size() > before, Duration.ofMinutes(1), "the next commit");
        }

        /**
         * Waits until the producer is done and every commit but {@code mayBeMissing} is described, cancels the job,
         * reconciles.
         */
        Result finish(Set<String> mayBeMissing) throws Exception {
            sender.join(TimeUnit.MINUTES.toMillis(3));
            producer.flush();
            producer.close(Duration.ofSeconds(30));
            assertThat(sendFailure.get()).as("the Git server's producer lost nothing").isNull();
            assertThat(acked).hasSize(COMMITS);
            // every commit that may not be missing is described; then a few more checkpoints: stragglers and
            // duplicates, if any, would show now
            Set<String> required = new HashSet<>(acked);
            required.removeAll(mayBeMissing);
            waitFor(() -> suggested().containsAll(required), Duration.ofMinutes(4), "every commit not in flight at the fault");
            Thread.sleep(5000);
            assertThat(job.getJobStatus().get(10, TimeUnit.SECONDS)).as("the job is up").isEqualTo(JobStatus.RUNNING);
            job.cancel().get(60, TimeUnit.SECONDS);

            Map<String, Integer> perKey = Reconciliation.perCommit(KafkaBroker.readCommitted(client(), k.suggestionsTopic()));
            Map<String, Integer> dead = Reconciliation.perOrigin(KafkaBroker.readCommitted(client(), k.deadLetterTopic()));
            assertThat(dead).as("each malformed record once in the DLQ").hasSize(MALFORMED);
            assertThat(dead.values()).containsOnly(1);
            Set<String> expected = new HashSet<>(Reconciliation.keys("app", app));
            expected.addAll(Reconciliation.keys("lib", lib));
            assertThat(expected).as("nothing but what was sent").containsAll(perKey.keySet());
            Set<String> lost = new HashSet<>(expected);
            lost.removeAll(perKey.keySet());
            List<String> duplicates = perKey.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
            return new Result(COMMITS, MALFORMED, perKey.size(), dead.size(), Math.max(0, inFlightAtKill), lost, duplicates);
        }

        Set<String> suggested() {
            Set<String> out = new HashSet<>();
            try {
                for (var r : KafkaBroker.readCommitted(client(), k.suggestionsTopic())) {
                    JsonNode n = Json.mapper().readTree(r.value());
                    out.add(n.path("repo").asText() + "@" + n.path("sha").asText());
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return out;
        }

        private Map<String, Object> client() {
            return Map.of("bootstrap.servers", kafka.bootstrap());
        }

        /** As a Git server's bridge would configure it: idempotent, acks from all, retrying through an outage. */
        private KafkaProducer<byte[], byte[]> newProducer() {
            Map<String, Object> p = new HashMap<>();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
            p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000);
            p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 300_000);
            return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        }
    }
}
