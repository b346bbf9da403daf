package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.event.Suggestion;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SuggestionCheckTest {

    private static JsonNode wire(String subject, String sha) throws Exception {
        Suggestion s = new Suggestion("jgit", sha, subject, "", "fix", "", "retrieval", 0.8, List.of("b".repeat(40)),
                "miss", 120, "", "acme", "", 1_700_000_000_000L, 1_700_000_000_000L, 1_700_000_000_120L, "");
        return Json.mapper().readTree(Json.bytes(s)); // as the job writes it to Kafka
    }

    @Test
    void acceptsAWellFormedSuggestion() throws Exception {
        assertThat(SuggestionCheck.problem(wire("Fix the pack writer's delta window", "a".repeat(40)))).isNull();
    }

    @Test
    void rejectsSubjectsOutsideSixToSeventyTwoCharacters() throws Exception {
        assertThat(SuggestionCheck.problem(wire("Fix typo", "a".repeat(40)))).as("a history's own short form").isNull();
        assertThat(SuggestionCheck.problem(wire("Typo", "a".repeat(40)))).contains("4 characters, not 6–72");
        assertThat(SuggestionCheck.problem(wire("x".repeat(73), "a".repeat(40)))).contains("73 characters");
        assertThat(SuggestionCheck.problem(wire("", "a".repeat(40)))).contains("0 characters");
    }

    @Test
    void rejectsMissingFieldsWrongTypesAndBadIds() throws Exception {
        assertThat(SuggestionCheck.problem(wire("Fix the pack writer's delta window", "HEAD"))).contains("no commit id");
        assertThat(SuggestionCheck.problem(Json.mapper().readTree("{\"repo\":\"r\"}"))).contains("\"sha\" is not a string");
        assertThat(SuggestionCheck.problem(Json.mapper().readTree("[1]"))).isEqualTo("not a JSON object");
        JsonNode n = wire("Fix the pack writer's delta window", "a".repeat(40));
        ((com.fasterxml.jackson.databind.node.ObjectNode) n).put("latencyMs", "120");
        assertThat(SuggestionCheck.problem(n)).contains("\"latencyMs\" is not a number");
    }

    @Test
    void checksTheLiveQualityFields() throws Exception {
        JsonNode scored = Json.mapper().readTree(Json.bytes(Json.mapper().treeToValue(
                wire("Fix the pack writer's delta window", "a".repeat(40)), Suggestion.class).withQuality(61.5, true)));
        assertThat(SuggestionCheck.problem(scored)).isNull();
        ((com.fasterxml.jackson.databind.node.ObjectNode) scored).put("bnorm", 140.0);
        assertThat(SuggestionCheck.problem(scored)).contains("\"bnorm\" is 140.0");
        ((com.fasterxml.jackson.databind.node.ObjectNode) scored).put("bnorm", 50.0).put("unfaithful", "no");
        assertThat(SuggestionCheck.problem(scored)).contains("\"unfaithful\" is not a boolean");
        ((com.fasterxml.jackson.databind.node.ObjectNode) scored).remove("unfaithful");
        assertThat(SuggestionCheck.problem(scored)).contains("\"unfaithful\" is not a boolean");
    }
}
