package io.commitflow.llm;

import io.commitflow.event.Suggestion;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tenant's own instructions reach its model after the repository's prefix, on the OpenAI wire format to a local
 * server; a tenant without them gets the prefix alone.
 */
class LlmWriterTest {
    private static final LlmWriter.Meter METER = new LlmWriter.Meter() {
        @Override
        public void answered(double kvReuse) {}

        @Override
        public void fellBack() {}
    };

    @Test
    void aTenantsInstructionsEndItsSystemPromptAndNoOtherTenantsOnes() throws Exception {
        try (FakeLlmServer server = new FakeLlmServer().then(FakeLlmServer.Step.ok(FakeLlmServer.openAi(
                "feat(pack): retry writes")))) {
            LlmSettings plain = new LlmSettings("openai", "m", server.base(), "COMMITFLOW_TEST_NO_KEY", 300, 6000, 2);
            Map<String, LlmSettings> byTenant = Map.of("acme", plain.withInstructions("  Use Conventional Commits.\n"),
                    "bots", plain);
            try (LlmWriter writer = new LlmWriter(byTenant, Duration.ofSeconds(20), METER)) {
                Suggestion acme = writer.write(builtIn("acme"), "diff --git a/x b/x\n", new PromptPrefixes.Use("PREFIX\n", true),
                        List.of()).get(30, TimeUnit.SECONDS);
                writer.write(builtIn("bots"), "diff --git a/x b/x\n", new PromptPrefixes.Use("PREFIX\n", true),
                        List.of()).get(30, TimeUnit.SECONDS);
                assertThat(acme.subject()).isEqualTo("feat(pack): retry writes");
            }
            assertThat(server.seen).hasSize(2);
            assertThat(server.seen.get(0).body().path("messages").get(0).path("content").asText()).isEqualTo(
                    "PREFIX\n\nThe team's own instructions, which come before the style above where they differ:\n"
                            + "Use Conventional Commits.\n");
            assertThat(server.seen.get(1).body().path("messages").get(0).path("content").asText()).isEqualTo("PREFIX\n");
        }
    }

    @Test
    void instructionsHaveALimit() {
        LlmSettings s = LlmSettings.parse("openai:m@http://localhost:1");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.withInstructions("x".repeat(LlmSettings.MAX_INSTRUCTIONS_CHARS + 1)))
                .hasMessageContaining("at most " + LlmSettings.MAX_INSTRUCTIONS_CHARS);
        assertThat(s.withInstructions(null).instructions()).isEmpty();
    }

    private static Suggestion builtIn(String tenant) {
        long now = System.currentTimeMillis();
        return new Suggestion("app", "a".repeat(40), "Retry writes", "", "feat", "", "retrieval", 0.5, List.of(), "miss",
                1, "0".repeat(32), tenant, "", now, now, now, "");
    }
}
