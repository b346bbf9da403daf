package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.generate.SubjectLength;

import java.util.regex.Pattern;

/**
 * What a load tester checks of every suggestion it reads (the reference report's k6 script does the same): the
 * record is a JSON object with the suggestion's fields and types, and its subject is 6–72 characters: 20–72 unless
 * the repository writes shorter subjects itself ({@link io.commitflow.generate.Conventions#subjectFloor}), as the
 * k6 script's own 20–72 expects of a job run with {@code --min-subject-chars 20}. A suggestion that fails counts as an
 * error in {@code loadtest}'s report, like a dead letter.
 */
final class SuggestionCheck {
    private static final Pattern SHA = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");

    private SuggestionCheck() {}

    /** Why {@code n} is no conforming suggestion, or {@code null} when it is one. */
    static String problem(JsonNode n) {
        if (n == null || !n.isObject()) {
            return "not a JSON object";
        }
        for (String field : new String[] {"repo", "sha", "subject", "body", "type", "backend", "cache", "tenant"}) {
            if (!n.path(field).isTextual()) {
                return "\"" + field + "\" is not a string";
            }
        }
        for (String field : new String[] {"latencyMs", "kafkaTs", "madeMs", "similarity", "bnorm"}) {
            if (!n.path(field).isNumber()) {
                return "\"" + field + "\" is not a number";
            }
        }
        if (!n.path("unfaithful").isBoolean()) {
            return "\"unfaithful\" is not a boolean";
        }
        double bnorm = n.path("bnorm").asDouble();
        if (bnorm != -1 && (bnorm < 0 || bnorm > 100)) {
            return "\"bnorm\" is " + bnorm + ", not -1 (not scored) or 0–100";
        }
        if (!n.path("exemplars").isArray()) {
            return "\"exemplars\" is not an array";
        }
        if (n.path("repo").asText().isEmpty()) {
            return "\"repo\" is empty";
        }
        if (!SHA.matcher(n.path("sha").asText()).matches()) {
            return "\"sha\" is no commit id: " + n.path("sha").asText();
        }
        String subject = n.path("subject").asText();
        if (!SubjectLength.conforms(subject, SubjectLength.SHORT_FLOOR)) {
            return "the subject has " + subject.strip().length() + " characters, not " + SubjectLength.SHORT_FLOOR + "–"
                    + SubjectLength.MAX + ": \"" + subject + "\"";
        }
        return null;
    }
}
