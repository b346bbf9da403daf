package io.commitflow.job;

import org.apache.flink.connector.base.DeliveryGuarantee;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobOptionsTest {
    @TempDir
    Path mirrors;

    @Test
    void parsesEveryOption() {
        JobParameters p = JobOptions.parseForCluster("--bootstrap", "k1:9092,k2:9092", "--events-topic", "in",
                "--suggestions-topic", "out", "--dlq-topic", "dead", "--group-id", "g", "--start-from", "latest",
                "--delivery", "at-least-once", "--transactional-id-prefix", "tx", "--transaction-timeout", "5m",
                "-X", "security.protocol=SASL_SSL", "--kafka-property", "sasl.mechanism=SCRAM-SHA-512",
                "--mirror-root", mirrors.toString(), "--dedup-ttl", "7d", "--max-event-bytes", "1000",
                "--max-files", "10", "--max-lines", "20", "--max-patch-bytes", "30", "--max-blob-bytes", "40");

        KafkaSettings k = p.kafka();
        assertThat(k.bootstrap()).isEqualTo("k1:9092,k2:9092");
        assertThat(k.eventsTopic()).isEqualTo("in");
        assertThat(k.suggestionsTopic()).isEqualTo("out");
        assertThat(k.deadLetterTopic()).isEqualTo("dead");
        assertThat(k.groupId()).isEqualTo("g");
        assertThat(k.fromEarliest()).isFalse();
        assertThat(k.delivery()).isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
        assertThat(k.transactionalIdPrefix()).isEqualTo("tx");
        assertThat(k.transactionTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(k.properties()).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512");
        PipelineSettings s = p.pipeline();
        assertThat(s.mirrorRoot()).isEqualTo(mirrors.toAbsolutePath().toString());
        assertThat(s.dedupTtl()).isEqualTo(Duration.ofDays(7));
        assertThat(s.maxEventBytes()).isEqualTo(1000);
        assertThat(s.budget()).isEqualTo(new io.commitflow.git.DiffBudget(10, 20, 30, 40));
    }

    @Test
    void topicsPerTenantGiveEachTenantItsMirrorsToo() {
        JobParameters shared = JobOptions.parseForCluster("--bootstrap", "k:1");
        JobParameters own = JobOptions.parseForCluster("--bootstrap", "k:1", "--events-topic", "ev.{tenant}",
                "--requests-topic", "rq.{tenant}", "--replies-topic", "rp.{tenant}", "--dlq-topic", "dl.{tenant}");

        assertThat(shared.kafka().perTenant()).isFalse();
        assertThat(shared.pipeline().keys()).isEqualTo(io.commitflow.event.RepoKeys.GLOBAL);
        assertThat(own.kafka().perTenant()).isTrue();
        assertThat(own.pipeline().keys()).as("tenant/repo, root/tenant/repo")
                .isEqualTo(io.commitflow.event.RepoKeys.PER_TENANT);
        assertThat(own.kafka().suggestionsTopic()).as("may stay shared").isEqualTo(KafkaSettings.SUGGESTIONS_TOPIC);
    }

    @Test
    void parsesTheSlaOptions() {
        var sla = JobOptions.parseForCluster("--bootstrap", "k:1", "--sla-window", "2m", "--sla-slide", "15s",
                "--sla-out-of-orderness", "1s", "--sla-idleness", "10s", "--sla-spike-threshold", "80ms",
                "--sla-target", "1s", "--sla-tenant-target", "acme=300ms,bots=5s", "--sla-weights", "0.9=1,0=0.5",
                "--sla-topic", "sla.out").pipeline().sla();

        assertThat(sla.size()).isEqualTo(Duration.ofMinutes(2));
        assertThat(sla.slide()).isEqualTo(Duration.ofSeconds(15));
        assertThat(sla.outOfOrderness()).isEqualTo(Duration.ofSeconds(1));
        assertThat(sla.idleness()).isEqualTo(Duration.ofSeconds(10));
        assertThat(sla.spikeThresholdMs()).isEqualTo(80);
        assertThat(sla.targetMs("acme")).isEqualTo(300);
        assertThat(sla.targetMs("bots")).isEqualTo(5000);
        assertThat(sla.targetMs("other")).isEqualTo(1000);
        assertThat(sla.weights().of(0.85)).isEqualTo(0.5);
        assertThat(JobOptions.parseForCluster("--bootstrap", "k:1", "--sla-topic", "sla.out").kafka().slaTopic())
                .isEqualTo("sla.out");
        assertRejected("must be a positive multiple of its slide", "--bootstrap", "k:1", "--sla-window", "25s");
        assertRejected("--sla-tenant-target takes TENANT=DURATION", "--bootstrap", "k:1", "--sla-tenant-target", "acme");
        assertRejected("descend", "--bootstrap", "k:1", "--sla-weights", "0.1=1,0.5=1,0=1");
        assertRejected("--sla-topic bad topic is not a Kafka topic name", "--bootstrap", "k:1", "--sla-topic", "bad topic");
        assertRejected("more than once", "--bootstrap", "k:1", "--sla-topic", "sla.{tenant}.{tenant}");
        // a tenant's topics: all or nothing where clients read and write
        assertRejected("--replies-topic commitflow.replies is one topic for every tenant", "--bootstrap", "k:1",
                "--events-topic", "commitflow.events.{tenant}", "--requests-topic", "commitflow.requests.{tenant}",
                "--dlq-topic", "commitflow.dlq.{tenant}");
        assertRejected("--events-topic commitflow.events is one topic for every tenant", "--bootstrap", "k:1",
                "--requests-topic", "commitflow.requests.{tenant}", "--replies-topic", "commitflow.replies.{tenant}",
                "--dlq-topic", "commitflow.dlq.{tenant}");
    }

    @Test
    void eachDefaultComesFromItsSettingsRecordAndHelpShowsIt() {
        JobParameters p = JobOptions.parseForCluster("--bootstrap", "k:1");

        assertThat(p.kafka()).isEqualTo(KafkaSettings.defaults("k:1"));
        assertThat(p.pipeline()).isEqualTo(PipelineSettings.defaults(null));
        picocli.CommandLine cli = JobConfigDefaults.configure(new picocli.CommandLine(new JobOptions()),
                org.apache.flink.configuration.Configuration::new);
        String help = cli.getUsageMessage().replaceAll("\\s+", ""); // lines wrap anywhere, even inside a default
        java.util.Map<String, String> defaults = new java.util.LinkedHashMap<>();
        for (picocli.CommandLine.Model.OptionSpec o : cli.getCommandSpec().options()) {
            var option = JobConfig.of(o.descriptionKey());
            if (option != null && JobConfig.defaultValue(option) != null) {
                defaults.put(o.negatable() ? o.longestName().replace("--", "--[no-]") : o.longestName(),
                        JobConfig.defaultValue(option));
            }
        }
        assertThat(defaults).hasSizeGreaterThan(30).allSatisfy((option, value) -> {
            int at = help.lastIndexOf(option + (option.startsWith("--[no-]") ? "" : "=")); // after the synopsis
            assertThat(at).as(option + " in the help").isNotNegative();
            assertThat(help.substring(help.indexOf("(default:", at))).as(option).startsWith("(default:" + value);
        });
        assertThat(defaults).containsEntry("--dedup-ttl", "24h").containsEntry("--batch-wait", "5ms")
                .containsEntry("--engine", "auto").containsEntry("--delivery", "exactly-once");
    }

    @Test
    void parsesTheSuggestStagesOptions() throws Exception {
        var a = JobOptions.parseForCluster("--bootstrap", "k:1", "--engine", "cpu", "--device-budget", "2048",
                "--batch-max", "64", "--batch-wait", "2ms", "--suggest-workers", "3", "--async-timeout", "800ms",
                "--async-capacity", "100", "--engine-retries", "0", "--tenant-tier", "acme=gold,bots=BRONZE",
                "--tenant-tier", "web=silver", "--max-history-per-repo", "500", "--cache-ttl", "2h", "--no-fleet", "--fleet-history", "300",
                "--min-subject-chars", "20", "--reuse-floor", "0.25")
                .pipeline().suggest();

        assertThat(a).isEqualTo(new io.commitflow.suggest.SuggestSettings(io.commitflow.gpu.EngineMode.CPU, 2048, 64,
                Duration.ofMillis(2), 3, Duration.ofMillis(800), 100, 0, java.util.Map.of("acme", io.commitflow.gpu.Tier.GOLD,
                "bots", io.commitflow.gpu.Tier.BRONZE, "web", io.commitflow.gpu.Tier.SILVER), io.commitflow.gpu.Tier.SILVER,
                java.util.Map.of(), 500, Duration.ofHours(2), false, 300, 20, 0.25));
        var learned = new io.commitflow.generate.RepoStyle().conventions().withSubjectFloor(6);
        assertThat(a.conventions(learned).subjectFloor()).as("the job's floor over the history's").isEqualTo(20);
        assertThat(a.conventions(learned).subjectFloorIsSet()).as("and no subject shorter").isTrue();
        assertThat(new io.commitflow.generate.RepoStyle().conventions().subjectFloorIsSet()).as("a learned floor")
                .isFalse();
        assertThat(JobOptions.parseForCluster("--bootstrap", "k:1").pipeline().suggest().conventions(learned))
                .as("by default the history's own").isEqualTo(learned);
        assertThat(JobOptions.parseForCluster("--bootstrap", "k:1").pipeline().suggest().fleet()).as("on by default").isTrue();
        assertThat(a.tierOf("someone")).isEqualTo(io.commitflow.gpu.Tier.SILVER);
        assertRejected("engine must be auto, cpu or cuda", "--bootstrap", "k:1", "--engine", "tpu");
        assertRejected("--tenant-tier takes TENANT=TIER", "--bootstrap", "k:1", "--tenant-tier", "acme");
        assertRejected("unknown tier 'platinum'", "--bootstrap", "k:1", "--tenant-tier", "acme=platinum");
        assertRejected("max batch must be at least 1", "--bootstrap", "k:1", "--batch-max", "0");
        assertRejected("fleet history per tenant must be at least 1", "--bootstrap", "k:1", "--fleet-history", "0");
        assertRejected("timeout must be at least 1 ms", "--bootstrap", "k:1", "--async-timeout", "0s");
        assertRejected("fewest characters of a subject must be 0 (as the repository writes them) or 6–72: 5",
                "--bootstrap", "k:1", "--min-subject-chars", "5");
        assertRejected("or 6–72: 73", "--bootstrap", "k:1", "--min-subject-chars", "73");
        assertThat(JobOptions.parseForCluster("--bootstrap", "k:1").pipeline().suggest().reuseFloor())
                .as("the generator's own by default").isEqualTo(io.commitflow.generate.RetrievalGenerator.DEFAULT_REUSE_FLOOR);
        assertRejected("the reuse floor is a retrieval score, 0 to 1: 1.5", "--bootstrap", "k:1", "--reuse-floor", "1.5");
        assertRejected("the reuse floor is a retrieval score, 0 to 1: -0.1", "--bootstrap", "k:1", "--reuse-floor", "-0.1");
        var llm = JobOptions.parseForCluster("--bootstrap", "k:1", "--llm", "acme=openai:qwen@http://vllm:8000",
                "--llm", "bots=anthropic:claude-x@https://api.anthropic.com").pipeline().suggest().llm();
        assertThat(llm.get("acme").kind()).isEqualTo("openai");
        assertThat(llm.get("acme").url()).isEqualTo("http://vllm:8000");
        assertThat(llm.get("bots").keyEnv()).isEqualTo("ANTHROPIC_API_KEY");
        assertRejected("--llm takes TENANT=KIND:MODEL@URL", "--bootstrap", "k:1", "--llm", "acme");
        java.nio.file.Path style = java.nio.file.Files.createTempFile("acme-style", ".md");
        java.nio.file.Files.writeString(style, "Use Conventional Commits.\n");
        var instructed = JobOptions.parseForCluster("--bootstrap", "k:1", "--llm", "acme=openai:qwen@http://vllm:8000",
                "--llm-instructions", "acme=" + style).pipeline().suggest().llm();
        assertThat(instructed.get("acme").instructions()).isEqualTo("Use Conventional Commits.");
        assertRejected("tenant bots has no --llm", "--bootstrap", "k:1", "--llm", "acme=openai:q@http://v:1",
                "--llm-instructions", "bots=" + style);
        assertRejected("cannot read /no/such/file", "--bootstrap", "k:1", "--llm", "acme=openai:q@http://v:1",
                "--llm-instructions", "acme=/no/such/file");
        java.nio.file.Files.writeString(style, "x".repeat(5000));
        assertRejected("at most 4000", "--bootstrap", "k:1", "--llm", "acme=openai:q@http://v:1",
                "--llm-instructions", "acme=" + style);
        java.nio.file.Files.delete(style);
        assertRejected("LLM kind must be openai or anthropic", "--bootstrap", "k:1", "--llm", "acme=gemini:x@http://h");
        assertRejected("must be http(s)://HOST", "--bootstrap", "k:1", "--llm", "acme=openai:x@ftp://h");
    }

    @Test
    void hasSensibleDefaults() {
        JobParameters p = JobOptions.parseForCluster("--bootstrap", "kafka:9092");

        assertThat(p.kafka()).isEqualTo(KafkaSettings.defaults("kafka:9092"));
        assertThat(p.pipeline()).isEqualTo(PipelineSettings.defaults(null));
    }

    @Test
    void rejectsBadArgumentsWithTheProblemAndTheUsage() {
        assertRejected("Missing required option: '--bootstrap=HOST:PORT[,…]'");
        assertRejected("not a duration", "--bootstrap", "k:1", "--dedup-ttl", "forever");
        assertRejected("is not a Kafka topic name", "--bootstrap", "k:1", "--events-topic", "bad topic");
        assertRejected("--delivery must be exactly-once or at-least-once", "--bootstrap", "k:1", "--delivery", "maybe");
        assertRejected("is not a directory", "--bootstrap", "k:1", "--mirror-root", mirrors.resolve("nope").toString());
        assertRejected("must be positive", "--bootstrap", "k:1", "--max-files", "0");
        assertRejected("dedup TTL must be positive", "--bootstrap", "k:1", "--dedup-ttl", "0s");
        assertRejected("Unknown option: '--colour'", "--bootstrap", "k:1", "--colour");
    }

    @Test
    void answersHelpWithTheUsage() {
        assertThatThrownBy(() -> JobOptions.parseForCluster("--help")).hasMessageContaining("Usage: commitflow-job")
                .hasMessageContaining("--mirror-root");
    }

    @Test
    void neverTakesASecretOnTheCommandLineNorPrintsOne() throws Exception {
        assertRejected("-X sasl.jaas.config carries a secret on the command line", "--bootstrap", "k:1",
                "-X", "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"hunter2\";");
        assertRejected("put it in --kafka-secret-file", "--bootstrap", "k:1", "-X", "ssl.truststore.password=changeit");
        java.nio.file.Path secrets = mirrors.resolve("kafka-secrets.properties");
        java.nio.file.Files.writeString(secrets, "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule "
                + "required username=\"u\" password=\"hunter2\";\nssl.truststore.password=changeit\nssl.key.password=s3cret\n");
        JobParameters p = JobOptions.parseForCluster("--bootstrap", "k:1", "-X", "security.protocol=SASL_SSL",
                "--kafka-secret-file", secrets.toString(), "-X", "sasl.mechanism=SCRAM-SHA-512");
        JobParameters referred = JobOptions.parseForCluster("--bootstrap", "k:1",
                "-X", "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" "
                        + "password=\"${env:KAFKA_PASSWORD}\";");
        assertThat(referred.kafka().properties()).containsEntry("config.providers", "env,file")
                .containsEntry("config.providers.env.class", "org.apache.kafka.common.config.provider.EnvVarConfigProvider");
        assertThat(p.kafka().properties()).containsEntry("sasl.mechanism", "SCRAM-SHA-512").doesNotContainKey("config.providers");

        assertThat(p.kafka().properties()).containsEntry("ssl.truststore.password", "changeit"); // passed on intact
        assertThat(p.toString()).doesNotContain("hunter2", "changeit", "s3cret").contains("SASL_SSL", "******");
        assertRejected("the environment variable COMMITFLOW_TEST_UNSET_VARIABLE is not set", "--bootstrap", "k:1",
                "--kafka-property-from-env", "sasl.jaas.config=COMMITFLOW_TEST_UNSET_VARIABLE");
        String path = System.getenv("PATH");
        assertThat(JobOptions.parseForCluster("--bootstrap", "k:1", "--kafka-property-from-env", "client.rack=PATH")
                .kafka().properties()).containsEntry("client.rack", path);
    }

    @Test
    void exactlyOnceNeedsCheckpointsShorterThanTheTransactionTimeout() {
        KafkaSettings k = KafkaSettings.defaults("k:1");
        KafkaIO.checkDelivery(k, 5_000);
        assertThatThrownBy(() -> KafkaIO.checkDelivery(k, -1)).hasMessageContaining("checkpointing is off");
        assertThatThrownBy(() -> KafkaIO.checkDelivery(k, Duration.ofMinutes(8).toMillis()))
                .hasMessageContaining("must be well above the checkpoint interval");
        KafkaIO.checkDelivery(JobOptions.parseForCluster("--bootstrap", "k:1", "--delivery", "at-least-once").kafka(), -1);
    }

    @Test
    void theTransactionTimeoutOutlastsASlowCheckpointAndARestart() {
        var conf = new org.apache.flink.configuration.Configuration();
        conf.set(org.apache.flink.configuration.CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(5));
        KafkaSettings defaults = KafkaSettings.defaults("k:1");
        // Flink's defaults: a checkpoint may take 10 minutes, exponential-delay restarts wait up to a minute
        KafkaIO.checkDelivery(defaults, conf);
        assertThat(defaults.transactionTimeout()).isEqualTo(Duration.ofMinutes(15));
        assertThat(KafkaIO.longestRestartDelay(conf)).isEqualTo(Duration.ofMinutes(1));

        KafkaSettings tenMinutes = JobOptions.parseForCluster("--bootstrap", "k:1", "--transaction-timeout", "10m").kafka();
        assertThatThrownBy(() -> KafkaIO.checkDelivery(tenMinutes, conf))
                .hasMessageContaining("--transaction-timeout 10m must exceed execution.checkpointing.timeout (10m) "
                        + "plus the restart strategy's longest delay (1m)");
        conf.set(org.apache.flink.configuration.CheckpointingOptions.CHECKPOINTING_TIMEOUT, Duration.ofMinutes(5));
        KafkaIO.checkDelivery(tenMinutes, conf);
        conf.set(org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMinutes(6));
        assertThatThrownBy(() -> KafkaIO.checkDelivery(tenMinutes, conf)).hasMessageContaining("longest delay (6m)");
        conf.set(org.apache.flink.configuration.RestartStrategyOptions.RESTART_STRATEGY, "none");
        KafkaIO.checkDelivery(tenMinutes, conf);
    }

    private static void assertRejected(String problem, String... args) {
        assertThatThrownBy(() -> JobOptions.parseForCluster(args))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(problem)
                .hasMessageContaining("Usage: commitflow-job");
    }
}
