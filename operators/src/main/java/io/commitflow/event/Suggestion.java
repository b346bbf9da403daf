package io.commitflow.event;

import java.util.List;

/**
 * A suggested commit message, the job's output:
 * {@code {"repo","sha","subject","body","type","scope","backend","similarity","exemplars":[sha],"cache",
 * "latencyMs","traceId","tenant",…}}.
 *
 * @param type       the conventional-commit type the generator inferred ({@code feat}, {@code docs}, …)
 * @param scope      the conventional-commit scope (a module or directory), may be empty
 * @param backend    what wrote it: {@code retrieval} (the built-in generator), {@code cache} (the result cache), or a
 *                   tenant's LLM as {@code openai:MODEL} or {@code anthropic:MODEL}
 * @param similarity the retrieval similarity of the best exemplar, 0 when none was used
 * @param exemplars  the shas of the exemplar commits used
 * @param cache      {@code hit} when the message came from the result cache, else {@code miss}
 * @param latencyMs  from the event's Kafka timestamp to the moment the suggestion was made
 * @param truncation what the diff budget cut, empty when nothing
 * @param eventTs    the event's time (epoch ms), for event-time windows
 * @param kafkaTs    the event's Kafka timestamp (epoch ms)
 * @param note       why the suggestion is what it is, when that is not the obvious: e.g. {@code llm fallback: SERVER: …}
 *                   when the tenant's LLM failed and the built-in generator answered; empty otherwise
 */
public record Suggestion(
        String repo,
        String sha,
        String subject,
        String body,
        String type,
        String scope,
        String backend,
        double similarity,
        List<String> exemplars,
        String cache,
        long latencyMs,
        String traceId,
        String tenant,
        String truncation,
        long eventTs,
        long kafkaTs,
        String note) {

    /** This suggestion with a note. */
    public Suggestion withNote(String n) {
        return new Suggestion(repo, sha, subject, body, type, scope, backend, similarity, exemplars, cache, latencyMs,
                traceId, tenant, truncation, eventTs, kafkaTs, n);
    }

    /** This suggestion with another writer's subject and body. */
    public Suggestion writtenBy(String writer, String newSubject, String newBody, long newLatencyMs) {
        return new Suggestion(repo, sha, newSubject, newBody, type, scope, writer, similarity, exemplars, cache, newLatencyMs,
                traceId, tenant, truncation, eventTs, kafkaTs, note);
    }
}
