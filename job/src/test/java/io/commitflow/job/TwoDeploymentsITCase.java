package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two deployments of the job on one broker, side by side, as two teams run them: each with its own consumer group
 * and output topic, and every other setting left at its default, the transactional-id prefix among them. Both must
 * commit every checkpoint's output. With one prefix for both (the fixed default this replaced), their sinks share
 * transactional ids: on one TaskManager, as here, the connector refuses the second writer at once ("Writable
 * backchannel already exists"); on two clusters each InitProducerId fences the other's producer. With restarts off,
 * either fails a job (checked by giving both the same --transactional-id-prefix).
 */
class TwoDeploymentsITCase {
    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    @TempDir
    Path mirrors;
    @TempDir
    Path checkpoints;

    @Test
    void twoDeploymentsWithTheirOwnGroupsCommitSideBySide() throws Exception {
        List<RevCommit> history = GitHistory.create(mirrors, "app.git", 40);
        KafkaSettings a = deployment("team-a", "team-a.suggestions");
        KafkaSettings b = deployment("team-b", "team-b.suggestions");
        assertThat(a.transactionalIdPrefix()).isEqualTo("team-a").isNotEqualTo(b.transactionalIdPrefix());
        KAFKA.createTopic(a.eventsTopic(), 2);
        KAFKA.createTopic(a.suggestionsTopic(), 1);
        KAFKA.createTopic(b.suggestionsTopic(), 1);
        KAFKA.createTopic(a.deadLetterTopic(), 1);
        KAFKA.produce(a.eventsTopic(), "app".getBytes(StandardCharsets.UTF_8), GitHistory.commitEvents("app", history));

        JobClient first = start(a);
        JobClient second = start(b);
        JobExecutionResult[] results = {first.getJobExecutionResult().get(3, TimeUnit.MINUTES),
                second.getJobExecutionResult().get(3, TimeUnit.MINUTES)};

        assertThat(results).hasSize(2);
        Set<String> expected = new HashSet<>(history.stream().map(RevCommit::name).toList());
        for (KafkaSettings k : List.of(a, b)) {
            Set<String> shas = new HashSet<>();
            for (var rec : KAFKA.readCommitted(k.suggestionsTopic())) {
                JsonNode n = Json.mapper().readTree(rec.value());
                shas.add(n.path("sha").asText());
            }
            assertThat(shas).as("%s's committed suggestions", k.groupId()).isEqualTo(expected);
        }
    }

    /** The settings a team's deployment gets from its flags: its group and output topic, all else by default. */
    private KafkaSettings deployment(String group, String suggestions) {
        return JobOptions.parseForCluster("--bootstrap", KAFKA.bootstrap(), "--group-id", group,
                "--suggestions-topic", suggestions).kafka();
    }

    private JobClient start(KafkaSettings k) throws Exception {
        Configuration conf = MiniClusters.job(Duration.ofMillis(300), checkpoints.resolve(k.groupId()));
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none"); // a fenced producer fails the job
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).setBounded(OffsetsInitializer.latest()).build(),
                KafkaIO.suggestionSink(k), KafkaIO.deadLetterSink(k), KafkaIO.slaSink(k),
                PipelineSettings.defaults(mirrors.toString()));
        return env.executeAsync("commitflow " + k.groupId());
    }
}
