package io.commitflow.llm;

import io.commitflow.event.Suggestion;
import io.commitflow.generate.TestDiffs;
import io.commitflow.gpu.EngineMode;
import io.commitflow.suggest.StageHarness;
import io.commitflow.suggest.SuggestSettings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A repository's prompt prefix, as its LLM receives it through the suggest operator: it grows with a young
 * repository until it holds its twelve exemplars, then stays byte-identical — what lets the server reuse its KV
 * cache — until it is rebuilt after 64 learned commits.
 */
class PromptPrefixesTest {
    @Test
    void thePrefixGrowsWithAYoungRepositoryThenStaysTheSameUntilItIsRebuilt() throws Exception {
        try (FakeLlmServer server = new FakeLlmServer().then(FakeLlmServer.Step.ok(FakeLlmServer.openAi(
                "Retry writing the pack in the writer")))) {
            SuggestSettings settings = SuggestSettings.DEFAULT.withEngine(EngineMode.CPU).withHistory(100)
                    .withTimeout(Duration.ofSeconds(30)).withLlm(Map.of("default",
                            new LlmSettings("openai", "m", server.base(), "COMMITFLOW_TEST_NO_KEY", 300, 6000, 2)));
            List<Suggestion> out;
            try (StageHarness stage = new StageHarness(settings).open()) {
                for (int i = 0; i < 80; i++) {
                    stage.send(TestDiffs.change("app", String.format("%040x", i + 1), "PackWriter", "write" + i,
                            "PackWriter: Retry write " + i + "\n", null));
                }
                out = stage.awaitOutputs(80);
            }

            assertThat(out).allSatisfy(s -> assertThat(s.backend()).isEqualTo("openai:m"));
            List<String> prefixes = server.seen.stream()
                    .map(r -> r.body().path("messages").get(0).path("content").asText()).toList();
            assertThat(prefixes).hasSize(80);
            // requests 0–11 each see a longer prefix; request 12's (twelve exemplars) serves 12–75; 76 rebuilds it
            Map<String, Long> uses = prefixes.stream().collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
            assertThat(uses.values()).containsExactlyInAnyOrderElementsOf(
                    java.util.stream.Stream.concat(java.util.stream.Stream.generate(() -> 1L).limit(12),
                            java.util.stream.Stream.of(64L, 4L)).toList());
            String stable = uses.entrySet().stream().filter(e -> e.getValue() == 64).findFirst().orElseThrow().getKey();
            assertThat(stable).contains("PackWriter: Retry write 0", "PackWriter: Retry write 11", "Conventions:")
                    .doesNotContain("Retry write 12 ");
            String rebuilt = uses.entrySet().stream().filter(e -> e.getValue() == 4).findFirst().orElseThrow().getKey();
            assertThat(rebuilt).contains("PackWriter: Retry write 75").doesNotContain("Retry write 11 ");
        }
    }
}
