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
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
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
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An upgrade as operators do it: stop the job with a savepoint, start a changed version (an operator added, a
 * setting changed) from it. State is restored by uid — the Kafka offsets, dedup, the repositories' learned rows —
 * so the output continues without a duplicate, redeliveries of old commits are dropped, and the new version's
 * suggestions are made from rows the old version learned.
 */
class SavepointUpgradeITCase {
    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    @TempDir
    Path mirrors;
    @TempDir
    Path state;

    @Test
    void aChangedJobResumesFromTheSavepointWithoutDuplicates() throws Exception {
        List<RevCommit> history = GitHistory.create(mirrors, "app.git", 400);
        RevCommit sentinel = GitHistory.create(mirrors, "sentinel.git", 1).get(0);
        KafkaSettings k = KafkaSettings.defaults(KAFKA.bootstrap());
        KAFKA.createTopic(k.eventsTopic(), 2);
        KAFKA.createTopic(k.suggestionsTopic(), 2);
        KAFKA.createTopic(k.deadLetterTopic(), 1);
        KAFKA.createTopic(k.slaTopic(), 1);
        produce(k, history.subList(0, 200));

        JobClient v1 = start(k, null, false);
        waitFor(k, 200);
        String savepoint = v1.stopWithSavepoint(false, state.resolve("savepoints").toUri().toString(),
                SavepointFormatType.CANONICAL).get(2, TimeUnit.MINUTES);

        produce(k, history.subList(200, 400));
        produce(k, history.subList(0, 50)); // redeliveries of what v1 described
        // a sentinel behind them on the same partition: once it is answered, the redeliveries were read
        KAFKA.produce(k.eventsTopic(), "app".getBytes(StandardCharsets.UTF_8), List.of(GitHistory.commitEvent("sentinel", sentinel)));
        JobClient v2 = start(k, savepoint, true);
        try {
            waitFor(k, 401);
            Thread.sleep(3000); // a few more checkpoints: duplicates, if any, would show now
        } finally {
            v2.cancel().get(1, TimeUnit.MINUTES);
        }

        Map<String, List<JsonNode>> bySha = committed(k).stream().collect(Collectors.groupingBy(SavepointUpgradeITCase::key));
        List<String> expected = new ArrayList<>(history.stream().map(c -> "app@" + c.name()).toList());
        expected.add("sentinel@" + sentinel.name());
        assertThat(bySha.keySet()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(bySha.values()).allSatisfy(l -> assertThat(l).as("no duplicates across the upgrade").hasSize(1));
        Set<String> beforeUpgrade = history.subList(0, 200).stream().map(RevCommit::name).collect(Collectors.toSet());
        JsonNode first = bySha.get("app@" + history.get(200).name()).get(0);
        assertThat(first.path("exemplars")).as("v2's first suggestion learned from v1's rows").isNotEmpty();
        assertThat(first.path("exemplars").get(0).asText()).isIn(beforeUpgrade);
    }

    private JobClient start(KafkaSettings k, String savepoint, boolean changed) throws Exception {
        Configuration conf = MiniClusters.job(Duration.ofMillis(500), state.resolve("checkpoints"));
        if (savepoint != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint); // every piece of state must find its operator
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        PipelineSettings s = PipelineSettings.defaults(mirrors.toString());
        if (changed) {
            s = s.withSuggest(s.suggest().withBatching(64, Duration.ofMillis(10)));
        }
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).build(), KafkaIO.suggestionSink(k), KafkaIO.deadLetterSink(k),
                KafkaIO.slaSink(k), s);
        if (changed) {
            // version 2 adds an operator of its own, with its own uid and no state in the savepoint
            env.fromSequence(1, 3).uid("v2-added").name("v2: an added operator").sinkTo(new DiscardingSink<>())
                    .uid("v2-added-sink");
        }
        return env.executeAsync(changed ? "commitflow v2" : "commitflow v1");
    }

    private static void produce(KafkaSettings k, List<RevCommit> commits) throws Exception {
        KAFKA.produce(k.eventsTopic(), "app".getBytes(StandardCharsets.UTF_8), GitHistory.commitEvents("app", commits));
    }

    private static List<JsonNode> committed(KafkaSettings k) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (var r : KAFKA.readCommitted(k.suggestionsTopic())) {
            out.add(Json.mapper().readTree(r.value()));
        }
        return out;
    }

    private static String key(JsonNode suggestion) {
        return suggestion.path("repo").asText() + "@" + suggestion.path("sha").asText();
    }

    private static void waitFor(KafkaSettings k, int n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (committed(k).stream().map(SavepointUpgradeITCase::key).distinct().count() < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + n + " suggestions");
            }
            Thread.sleep(250);
        }
    }
}
