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
 * @param latencyMs  from the event's Kafka timestamp to the moment the suggestion was made ({@code madeMs}; 0 when
 *                   the producer's clock is ahead of the job's)
 * @param truncation what the diff budget cut, empty when nothing
 * @param eventTs    the event's time (epoch ms), for event-time windows
 * @param kafkaTs    the event's Kafka timestamp (epoch ms)
 * @param madeMs     the moment the suggest stage sent the suggestion on (epoch ms, the job's clock): the SLA windows'
 *                   event time and the output record's timestamp
 * @param note       why the suggestion is what it is, when that is not the obvious: e.g. {@code llm fallback: SERVER: …}
 *                   when the tenant's LLM failed and the built-in generator answered; empty otherwise
 * @param bnorm      live quality: the subject's B-Norm (0–100) against the real subject the event carried, both without
 *                   a trailing {@code (#n)}, as {@code eval} scores it; {@link #NOT_SCORED} when the event had no
 *                   message
 * @param unfaithful the subject names an identifier, file or version that the commit's diff does not contain
 *                   ({@code Faithfulness}); false when not scored
 * @param traceparent the W3C {@code traceparent} the record carries (its Kafka header, and here for consumers that
 *                   cannot read headers): the event's trace, the span of the sink that wrote it, sampled or not as the
 *                   trace was; null until the suggest stage sends it on
 * @param tracestate the event's {@code tracestate}, passed on untouched; null when it had none
 * @param alternatives for a draft: the other subjects it could take, best first (the other exemplars' subjects,
 *                   edited for it, then its own description), for a developer to choose from; empty for a commit, and
 *                   then not written
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
        long madeMs,
        String note,
        double bnorm,
        boolean unfaithful,
        String traceparent,
        String tracestate,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
        List<String> alternatives) {

    public Suggestion {
        alternatives = alternatives == null ? List.of() : List.copyOf(alternatives);
    }

    /** A suggestion with no alternatives. */
    public Suggestion(String repo, String sha, String subject, String body, String type, String scope, String backend,
                      double similarity, List<String> exemplars, String cache, long latencyMs, String traceId,
                      String tenant, String truncation, long eventTs, long kafkaTs, long madeMs, String note,
                      double bnorm, boolean unfaithful, String traceparent, String tracestate) {
        this(repo, sha, subject, body, type, scope, backend, similarity, exemplars, cache, latencyMs, traceId, tenant,
                truncation, eventTs, kafkaTs, madeMs, note, bnorm, unfaithful, traceparent, tracestate, List.of());
    }

    /** {@link #bnorm} of a suggestion whose event carried no real message. */
    public static final double NOT_SCORED = -1;

    /** A suggestion not scored yet (or whose event has no real message). */
    public Suggestion(String repo, String sha, String subject, String body, String type, String scope, String backend,
                      double similarity, List<String> exemplars, String cache, long latencyMs, String traceId,
                      String tenant, String truncation, long eventTs, long kafkaTs, long madeMs, String note) {
        this(repo, sha, subject, body, type, scope, backend, similarity, exemplars, cache, latencyMs, traceId, tenant,
                truncation, eventTs, kafkaTs, madeMs, note, NOT_SCORED, false, null, null);
    }

    /** A scored suggestion not sent on yet. */
    public Suggestion(String repo, String sha, String subject, String body, String type, String scope, String backend,
                      double similarity, List<String> exemplars, String cache, long latencyMs, String traceId,
                      String tenant, String truncation, long eventTs, long kafkaTs, long madeMs, String note,
                      double bnorm, boolean unfaithful) {
        this(repo, sha, subject, body, type, scope, backend, similarity, exemplars, cache, latencyMs, traceId, tenant,
                truncation, eventTs, kafkaTs, madeMs, note, bnorm, unfaithful, null, null);
    }

    /** The event carried the real message and this suggestion was scored against it. */
    public boolean scored() {
        return bnorm >= 0;
    }

    /** This suggestion with its live quality. */
    public Suggestion withQuality(double newBnorm, boolean isUnfaithful) {
        return new Suggestion(repo, sha, subject, body, type, scope, backend, similarity, exemplars, cache, latencyMs,
                traceId, tenant, truncation, eventTs, kafkaTs, madeMs, note, newBnorm, isUnfaithful, traceparent, tracestate,
                alternatives);
    }

    /** This suggestion with a note. */
    public Suggestion withNote(String n) {
        return new Suggestion(repo, sha, subject, body, type, scope, backend, similarity, exemplars, cache, latencyMs,
                traceId, tenant, truncation, eventTs, kafkaTs, madeMs, n, bnorm, unfaithful, traceparent, tracestate,
                alternatives);
    }

    /** This suggestion with another writer's subject and body. */
    public Suggestion writtenBy(String writer, String newSubject, String newBody, long newLatencyMs) {
        return new Suggestion(repo, sha, newSubject, newBody, type, scope, writer, similarity, exemplars, cache, newLatencyMs,
                traceId, tenant, truncation, eventTs, kafkaTs, kafkaTs + newLatencyMs, note, NOT_SCORED, false, null, null,
                alternatives);
    }

    /** This suggestion as sent on at {@code nowMs}: made then, its latency up to then. */
    public Suggestion madeAt(long nowMs) {
        return new Suggestion(repo, sha, subject, body, type, scope, backend, similarity, exemplars, cache,
                Math.max(0, nowMs - kafkaTs), traceId, tenant, truncation, eventTs, kafkaTs, nowMs, note, bnorm, unfaithful,
                traceparent, tracestate, alternatives);
    }

    /** This suggestion with the trace context headers its record carries. */
    public Suggestion withTraceContext(String traceparentHeader, String tracestateHeader) {
        return new Suggestion(repo, sha, subject, body, type, scope, backend, similarity, exemplars, cache, latencyMs,
                traceId, tenant, truncation, eventTs, kafkaTs, madeMs, note, bnorm, unfaithful, traceparentHeader,
                tracestateHeader, alternatives);
    }

    /** This suggestion with the other subjects a draft could take. */
    public Suggestion withAlternatives(List<String> others) {
        return new Suggestion(repo, sha, subject, body, type, scope, backend, similarity, exemplars, cache, latencyMs,
                traceId, tenant, truncation, eventTs, kafkaTs, madeMs, note, bnorm, unfaithful, traceparent, tracestate,
                others);
    }
}
