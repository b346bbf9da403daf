package io.commitflow.llm;

import io.commitflow.event.Suggestion;
import io.commitflow.generate.TestDiffs;
import io.commitflow.git.DiffedCommit;
import io.commitflow.gpu.EngineMode;
import io.commitflow.suggest.StageHarness;
import io.commitflow.suggest.SuggestSettings;
import io.commitflow.suggest.SuggestStage;
import io.commitflow.testing.CollectSink;
import io.commitflow.testing.MiniClusters;
import io.commitflow.testing.OtlpReceiver;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The suggest stage with a tenant's LLM (a local server speaking the OpenAI, then the Anthropic wire format): its messages come from the
 * model, cleaned; when the model fails or answers with something that is no commit message, the built-in generator
 * answers with the reason in the suggestion's note — nothing is lost.
 */
class LlmSuggestITCase {
    private static final int COMMITS = 40;

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);


    @Test
    void theModelWritesTheMessagesAndItsFailuresFallBackWithTheirReason() throws Exception {
        try (FakeLlmServer ok = new FakeLlmServer().then(FakeLlmServer.Step.ok(FakeLlmServer.openAi(
                "Here is a commit message:\n```\nAdded retries to the pack writer.\n\nWrites are retried three times.\n```")))) {
            List<Suggestion> out = run(ok.base());
            assertThat(out).hasSize(COMMITS);
            assertThat(out).allSatisfy(s -> {
                assertThat(s.backend()).isEqualTo("openai:m");
                assertThat(s.subject()).isEqualTo("Add retries to the pack writer");
                assertThat(s.body()).isEqualTo("Writes are retried three times.");
                assertThat(s.note()).isEmpty();
            });
            assertThat(ok.seen).as("the repository's cached prefix").anySatisfy(r -> assertThat(r.body().path("messages")
                    .get(0).path("content").asText()).contains("Conventions:", "Earlier commits of this repository:"));
            assertThat(ok.seen).allSatisfy(r ->
                    assertThat(r.body().path("messages").get(1).path("content").asText()).contains("The diff:\ndiff --git"));
        }
        try (FakeLlmServer failing = new FakeLlmServer().then(FakeLlmServer.Step.status(500))) {
            List<Suggestion> out = run(failing.base());
            assertThat(out).as("nothing lost").hasSize(COMMITS);
            assertThat(out).allSatisfy(s -> {
                assertThat(s.backend()).isEqualTo("retrieval");
                assertThat(s.note()).startsWith("llm fallback: ");
            });
            assertThat(out.stream().map(Suggestion::note)).anyMatch(n -> n.contains("SERVER") || n.contains("CIRCUIT_OPEN"));
        }
        try (FakeLlmServer anthropic = new FakeLlmServer().then(FakeLlmServer.Step.ok(FakeLlmServer.anthropic(
                "Option 1: Fixes the retry loop in the pack writer\nOption 2: Fix retries")))) {
            // the key is read from the named environment variable; any set variable will do for a local server
            List<Suggestion> out = run(new LlmSettings("anthropic", "claude-x", anthropic.base(), "PATH", 300, 6000, 2));
            assertThat(out).hasSize(COMMITS).allSatisfy(s -> {
                assertThat(s.backend()).isEqualTo("anthropic:claude-x");
                assertThat(s.subject()).isEqualTo("Fix the retry loop in the pack writer");
            });
            assertThat(anthropic.seen).anySatisfy(r ->
                    assertThat(r.body().path("system").get(0).path("text").asText()).contains("Conventions:"));
        }
        try (FakeLlmServer chatty = new FakeLlmServer().then(FakeLlmServer.Step.ok(FakeLlmServer.openAi("Sure!")))) {
            assertThat(run(chatty.base())).allSatisfy(s ->
                    assertThat(s.note()).isEqualTo("llm fallback: the reply is not a commit message"));
        }
    }

    private static List<Suggestion> run(String url) throws Exception {
        return run(new LlmSettings("openai", "m", url, "COMMITFLOW_TEST_NO_KEY", 300, 6000, 2));
    }

    @Test
    void theModelsCallIsASpanUnderItsSuggestionWithItsTokens() throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver();
             FakeLlmServer ok = new FakeLlmServer().then(FakeLlmServer.Step.ok(FakeLlmServer.openAi(
                     "Added retries to the pack writer.")))) {
            System.setProperty("otel.exporter.otlp.endpoint", receiver.endpoint());
            System.setProperty("otel.bsp.schedule.delay", "100");
            List<Suggestion> out;
            try {
                out = run(ok.base());
            } finally {
                System.clearProperty("otel.exporter.otlp.endpoint");
                System.clearProperty("otel.bsp.schedule.delay");
            }
            assertThat(out).hasSize(COMMITS).allSatisfy(s -> assertThat(s.backend()).isEqualTo("openai:m"));
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (receiver.spans().stream().filter(x -> x.name().equals("chat m")).count() < COMMITS
                    && System.nanoTime() < until) {
                Thread.sleep(50);
            }
            List<OtlpReceiver.Received> chats = receiver.spans().stream().filter(x -> x.name().equals("chat m")).toList();
            assertThat(chats).hasSize(COMMITS);
            for (OtlpReceiver.Received chat : chats) {
                assertThat(chat.kind()).isEqualTo(io.opentelemetry.proto.trace.v1.Span.SpanKind.SPAN_KIND_CLIENT);
                assertThat(chat.attributes()).containsEntry("gen_ai.operation.name", "chat")
                        .containsEntry("gen_ai.provider.name", "openai").containsEntry("gen_ai.request.model", "m")
                        .containsEntry("gen_ai.usage.input_tokens", "1000")
                        .containsEntry("commitflow.llm.cached_tokens", "800")
                        .containsEntry("server.address", "127.0.0.1");
                assertThat(Double.parseDouble(chat.attributes().get("commitflow.llm.kv_reuse_ratio"))).isEqualTo(0.8);
                assertThat(chat.error()).isFalse();
                assertThat(receiver.trace(chat.traceId())).as("its parent, the suggest span")
                        .anySatisfy(p -> assertThat(p.spanId()).isEqualTo(chat.parentSpanId()))
                        .filteredOn(p -> p.spanId().equals(chat.parentSpanId()))
                        .allSatisfy(p -> assertThat(p.name()).isEqualTo("suggest"));
                assertThat(chat.endNs()).isGreaterThanOrEqualTo(chat.startNs());
            }
            assertThat(out).allSatisfy(s -> assertThat(receiver.trace(s.traceparent().substring(3, 35)))
                    .as("the suggestion's traceparent names an exported trace").isNotEmpty());
        }
    }

    private static List<Suggestion> run(LlmSettings llm) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        SuggestSettings settings = SuggestSettings.DEFAULT.withEngine(EngineMode.CPU).withTimeout(Duration.ofSeconds(10)).withHistory(100)
                .withLlm(Map.of("default", llm));
        DataStream<DiffedCommit> commits = env.fromSource(new NumberSequenceSource(0, COMMITS - 1),
                WatermarkStrategy.noWatermarks(), "n").setParallelism(1).map(new Commit()).setParallelism(1);
        SuggestStage.attach(commits, settings).sinkTo(new CollectSink<Suggestion>("llm")).setParallelism(1);
        env.execute("llm");
        return CollectSink.collected("llm");
    }

    static final class Commit implements MapFunction<Long, DiffedCommit> {
        @Override
        public DiffedCommit map(Long n) {
            int i = n.intValue();
            return TestDiffs.change("repo-" + (i % 2), String.format("%040x", i + 1), "PackWriter", "write" + i,
                    "PackWriter: Retry write " + i + "\n", null);
        }
    }

}
