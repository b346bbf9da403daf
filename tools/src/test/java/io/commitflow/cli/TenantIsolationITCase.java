package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.CommitEvent;
import io.commitflow.event.Json;
import io.commitflow.event.Origin;
import io.commitflow.event.WireFormat;
import io.commitflow.git.CommitDiffer;
import io.commitflow.git.DiffBudget;
import io.commitflow.job.CommitMessageJob;
import io.commitflow.job.JobOptions;
import io.commitflow.job.JobParameters;
import io.commitflow.job.KafkaIO;
import io.commitflow.job.KafkaSettings;
import io.commitflow.replay.kafka.LocalKafka;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tenants on one job that cannot see or poison each other, on a real broker that authenticates with SCRAM and
 * authorises with ACLs: each tenant has topics of its own ({@code commitflow.events.{tenant}}, …), may write only its
 * own events and requests topics and read only its own replies and dead letters, and the job takes a record's tenant
 * from its topic.
 *
 * <p>Tenants {@code b} and {@code c} have the same repository {@code app} (the same commits, each in its own mirror
 * folder); tenant {@code a} (user alice) first teaches its own {@code app} with B's patches under messages of its own.
 * Then B's suggestions equal C's, field for field; A's draft of a B patch gets neither B's cached message nor an
 * exemplar of B's, where B's own draft of it gets the cache hit (so the cache would have leaked, were it shared); and
 * A's claim to be B is refused.
 */
class TenantIsolationITCase {
    private static final int COMMITS = 24;
    private static final int LEARNED_BY_A = 10;
    private static final int DRAFTED = 17;
    private static final String JOB_USER = "commitflow";

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    @TempDir
    Path dir;

    @Test
    void tenantsCannotReadOrPoisonEachOther() throws Exception {
        Map<String, String> broker = new HashMap<>();
        broker.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        // the plaintext and controller listeners are the broker's own and the test's admin: ANONYMOUS
        broker.put("super.users", "User:ANONYMOUS;User:" + JOB_USER);
        broker.put("sasl.enabled.mechanisms", "SCRAM-SHA-512");
        broker.put("listener.name.secured.sasl.enabled.mechanisms", "SCRAM-SHA-512");
        broker.put("listener.name.secured.scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        List<String> users = new ArrayList<>();
        for (String u : List.of(JOB_USER, "alice", "bob")) {
            users.add("--add-scram");
            users.add("SCRAM-SHA-512=[name=" + u + ",password=" + password(u) + "]");
        }
        try (LocalKafka kafka = LocalKafka.format(dir.resolve("kafka"), TestLauncher.classpath(), "SASL_PLAINTEXT",
                broker, users)) {
            kafka.serve();
            Path secrets = dir.resolve("job-kafka.properties");
            try (var out = Files.newBufferedWriter(secrets)) {
                client(JOB_USER).store(out, null);
            }
            JobParameters p = JobOptions.parseForCluster("--bootstrap", kafka.securedBootstrap(),
                    "--kafka-secret-file", secrets.toString(), "--transaction-timeout", "1m",
                    "--events-topic", "commitflow.events.{tenant}", "--requests-topic", "commitflow.requests.{tenant}",
                    "--replies-topic", "commitflow.replies.{tenant}", "--dlq-topic", "commitflow.dlq.{tenant}",
                    "--mirror-root", Files.createDirectories(dir.resolve("mirrors")).toString());
            KafkaSettings k = p.kafka();
            topicsAndAcls(kafka.bootstrap());

            List<RevCommit> history = GitHistory.create(dir.resolve("mirrors/b"), "app.git", COMMITS);
            assertThat(GitHistory.create(dir.resolve("mirrors/c"), "app.git", COMMITS))
                    .as("C's repository is B's, commit for commit").isEqualTo(history);
            List<String> patches = patches(dir.resolve("mirrors/b/app.git"), history);
            Set<String> bShas = history.stream().map(RevCommit::name).collect(Collectors.toSet());

            // a tenant reaches only its own topics: the broker says so, before the job is involved
            try (KafkaProducer<byte[], byte[]> alice = producer(kafka, "alice")) {
                assertThatThrownBy(() -> alice.send(new ProducerRecord<>("commitflow.events.b",
                        GitHistory.commitEvent("b", "app", history.get(0)))).get(30, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TopicAuthorizationException.class);
            }
            try (KafkaConsumer<byte[], byte[]> alice = consumer(kafka, "alice")) {
                alice.assign(List.of(new TopicPartition("commitflow.replies.b", 0)));
                assertThatThrownBy(() -> alice.poll(Duration.ofSeconds(10)))
                        .isInstanceOf(TopicAuthorizationException.class);
            }

            JobClient job = start(k, p);
            try {
                // A learns its own "app" from B's patches under messages of its own, and claims to be B once
                try (KafkaProducer<byte[], byte[]> alice = producer(kafka, "alice")) {
                    for (int i = 0; i < LEARNED_BY_A; i++) {
                        alice.send(new ProducerRecord<>("commitflow.events.a", WireFormat.commit("a", "app",
                                String.format("%040x", 0xa000 + i), List.of(), "Mallory <m@example.com>", 1L,
                                "Exfiltrate build secrets step " + i + "\n", patches.get(i)))).get(30, TimeUnit.SECONDS);
                    }
                    alice.send(new ProducerRecord<>("commitflow.events.a",
                            GitHistory.commitEvent("b", "app", history.get(0)))).get(30, TimeUnit.SECONDS);
                }
                List<JsonNode> aOut = await(kafka, "commitflow.suggestions", "a", LEARNED_BY_A);
                assertThat(aOut).as("A's learning traffic was answered before B's and C's histories came")
                        .hasSize(LEARNED_BY_A);
                JsonNode claim = awaitOne(kafka, "commitflow.dlq.a");
                assertThat(claim.path("reason").asText()).isEqualTo("WRONG_TENANT");
                assertThat(claim.path("tenant").asText()).isEqualTo("a");

                try (KafkaProducer<byte[], byte[]> bob = producer(kafka, "bob");
                     KafkaProducer<byte[], byte[]> admin = new KafkaProducer<>(
                             Map.<String, Object>of("bootstrap.servers", kafka.bootstrap()),
                             new ByteArraySerializer(), new ByteArraySerializer())) {
                    for (RevCommit c : history) {
                        bob.send(new ProducerRecord<>("commitflow.events.b", GitHistory.commitEvent("b", "app", c)));
                        admin.send(new ProducerRecord<>("commitflow.events.c", GitHistory.commitEvent("c", "app", c)));
                    }
                    bob.flush();
                    admin.flush();
                }
                Map<String, String> b = content(await(kafka, "commitflow.suggestions", "b", COMMITS));
                Map<String, String> c = content(await(kafka, "commitflow.suggestions", "c", COMMITS));
                assertThat(b.keySet()).isEqualTo(bShas);
                assertThat(b).as("B's suggestions, with A's learning traffic in the job, are C's without it")
                        .isEqualTo(c);

                RevCommit drafted = history.get(DRAFTED);
                String realSubject = drafted.getShortMessage();
                JsonNode toA = suggested(kafka, "alice", "a", "app", patches.get(DRAFTED));
                JsonNode toB = suggested(kafka, "bob", "b", "app", patches.get(DRAFTED));
                assertThat(toB.path("cache").asText()).as("B's own draft of B's commit: B's cache answers")
                        .isEqualTo("hit");
                assertThat(toB.path("subject").asText()).isEqualTo(realSubject);
                assertThat(toA.path("cache").asText()).as("A's draft of B's patch: no hit in B's cache")
                        .isEqualTo("miss");
                assertThat(toA.path("subject").asText()).isNotEqualTo(realSubject);
                List<String> exemplars = new ArrayList<>();
                toA.path("exemplars").forEach(e -> exemplars.add(e.asText()));
                assertThat(exemplars).as("A is shown its own commits only").isNotEmpty().doesNotContainAnyElementsOf(bShas);

                try (DraftClient alice = new DraftClient(kafka.securedBootstrap(), map(client("alice")),
                        topics("a"), Duration.ofSeconds(30))) {
                    DraftClient.Reply r = alice.ask("b", "app", patches.get(DRAFTED), DraftClient.newTraceId())
                            .get(60, TimeUnit.SECONDS);
                    assertThat(r).as("A's draft that claims to be B's").isInstanceOf(DraftClient.Reply.Refused.class);
                    assertThat(((DraftClient.Reply.Refused) r).reason()).isEqualTo("WRONG_TENANT");
                }
            } finally {
                job.cancel().get(60, TimeUnit.SECONDS);
            }
        }
    }

    private JsonNode suggested(LocalKafka kafka, String user, String tenant, String repo, String patch) throws Exception {
        try (DraftClient client = new DraftClient(kafka.securedBootstrap(), map(client(user)), topics(tenant),
                Duration.ofSeconds(30))) {
            DraftClient.Reply r = client.ask(tenant, repo, patch, DraftClient.newTraceId()).get(60, TimeUnit.SECONDS);
            assertThat(r).as("%s's draft", tenant).isInstanceOf(DraftClient.Reply.Suggested.class);
            return ((DraftClient.Reply.Suggested) r).suggestion();
        }
    }

    private static DraftClient.Topics topics(String tenant) {
        return DraftClient.Topics.of(tenant, "commitflow.requests.{tenant}", "commitflow.replies.{tenant}",
                "commitflow.dlq.{tenant}");
    }

    /** What a suggestion says, by sha: everything but the times. */
    private static Map<String, String> content(List<JsonNode> suggestions) {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode s : suggestions) {
            out.put(s.path("sha").asText(), String.join("\u0000", s.path("subject").asText(), s.path("body").asText(),
                    s.path("type").asText(), s.path("scope").asText(), s.path("similarity").asText(),
                    s.path("exemplars").toString(), s.path("cache").asText(), s.path("backend").asText()));
        }
        return out;
    }

    /** The tenant's committed suggestions on {@code topic}, once there are {@code n} of them (60 s at most). */
    private static List<JsonNode> await(LocalKafka kafka, String topic, String tenant, int n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        List<JsonNode> mine = List.of();
        while (System.nanoTime() < deadline) {
            mine = new ArrayList<>();
            for (var r : KafkaBroker.readCommitted(Map.of("bootstrap.servers", kafka.bootstrap()), topic)) {
                JsonNode s = Json.mapper().readTree(r.value());
                if (s.path("tenant").asText().equals(tenant)) {
                    mine.add(s);
                }
            }
            if (mine.size() >= n) {
                return mine;
            }
            Thread.sleep(500);
        }
        return mine;
    }

    private static JsonNode awaitOne(LocalKafka kafka, String topic) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            var records = KafkaBroker.readCommitted(Map.of("bootstrap.servers", kafka.bootstrap()), topic);
            if (!records.isEmpty()) {
                assertThat(records).hasSize(1);
                return Json.mapper().readTree(records.get(0).value());
            }
            Thread.sleep(500);
        }
        throw new AssertionError("nothing on " + topic);
    }

    /** Each tenant's topics, and the ACLs that let alice (a) and bob (b) use only their own. */
    private static void topicsAndAcls(String plaintext) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", plaintext))) {
            List<NewTopic> topics = new ArrayList<>();
            for (String tenant : List.of("a", "b", "c")) {
                for (String kind : List.of("events", "requests", "replies", "dlq")) {
                    topics.add(new NewTopic("commitflow." + kind + "." + tenant, 1, (short) 1));
                }
            }
            topics.add(new NewTopic(KafkaSettings.SUGGESTIONS_TOPIC, 1, (short) 1));
            topics.add(new NewTopic(KafkaSettings.SLA_TOPIC, 1, (short) 1));
            admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
            List<AclBinding> acls = new ArrayList<>();
            for (var user : Map.of("alice", "a", "bob", "b").entrySet()) {
                String tenant = user.getValue();
                for (String kind : List.of("events", "requests")) {
                    acls.add(acl(user.getKey(), "commitflow." + kind + "." + tenant, AclOperation.WRITE));
                }
                for (String kind : List.of("replies", "dlq")) {
                    acls.add(acl(user.getKey(), "commitflow." + kind + "." + tenant, AclOperation.READ));
                }
            }
            admin.createAcls(acls).all().get(60, TimeUnit.SECONDS);
        }
    }

    private static AclBinding acl(String user, String topic, AclOperation op) {
        return new AclBinding(new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
                new AccessControlEntry("User:" + user, "*", op, AclPermissionType.ALLOW));
    }

    /** The patch of each commit, as a developer would stage it. */
    private static List<String> patches(Path gitDir, List<RevCommit> history) throws Exception {
        List<String> out = new ArrayList<>();
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).build()) {
            CommitDiffer differ = new CommitDiffer(DiffBudget.UNTIMED);
            for (RevCommit c : history) {
                List<String> parents = c.getParentCount() == 0 ? List.of() : List.of(c.getParent(0).name());
                out.add(differ.diff(r, new CommitEvent("t", "app", c.name(), parents, "", 0L, null, null, "t",
                        Origin.synthetic(0L))).patch());
            }
        }
        return out;
    }

    private static JobClient start(KafkaSettings k, JobParameters p) throws Exception {
        Configuration conf = MiniClusters.job(Duration.ofMillis(500), null);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        // one task per operator: a repository's commits reach its memory in the order they were sent (at a higher
        // parallelism the dedup tasks, keyed by commit, may hand them on in either order: B's and C's would differ)
        env.setParallelism(1);
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).build(), KafkaIO.suggestionSink(k),
                KafkaIO.deadLetterSink(k), KafkaIO.slaSink(k), CommitMessageJob.Interactive.of(k), p.pipeline());
        return env.executeAsync("commitflow, a topic per tenant");
    }

    private static String password(String user) {
        return user + "-secret-" + user.length();
    }

    private static Properties client(String user) {
        Properties p = new Properties();
        p.put("security.protocol", "SASL_PLAINTEXT");
        p.put("sasl.mechanism", "SCRAM-SHA-512");
        p.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                + user + "\" password=\"" + password(user) + "\";");
        return p;
    }

    private static Map<String, String> map(Properties p) {
        Map<String, String> out = new HashMap<>();
        p.forEach((key, value) -> out.put(key.toString(), value.toString()));
        return out;
    }

    private static KafkaProducer<byte[], byte[]> producer(LocalKafka kafka, String user) {
        Map<String, Object> p = new HashMap<>(map(client(user)));
        p.put("bootstrap.servers", kafka.securedBootstrap());
        p.put("max.block.ms", "20000");
        p.put("delivery.timeout.ms", "20000");
        p.put("request.timeout.ms", "10000");
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static KafkaConsumer<byte[], byte[]> consumer(LocalKafka kafka, String user) {
        Map<String, Object> p = new HashMap<>(map(client(user)));
        p.put("bootstrap.servers", kafka.securedBootstrap());
        p.put("default.api.timeout.ms", "20000");
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
