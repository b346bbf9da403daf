package io.commitflow.generate;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.Suggestion;
import io.commitflow.git.DiffedCommit;

import java.util.List;

/**
 * A generated message before it becomes a {@link Suggestion}.
 *
 * @param backend    what wrote it ({@code retrieval}, {@code cache}, …)
 * @param similarity the best exemplar's retrieval similarity, 0 without retrieval
 * @param exemplars  the exemplar commits used
 */
public record Draft(String subject, String body, String type, String scope, String backend, double similarity,
                    List<String> exemplars) {

    /**
     * The suggestion for {@code diff}, made at {@code now}: its latency runs from the event's Kafka timestamp.
     *
     * @param cache {@code hit} for a result-cache answer, else {@code miss}
     */
    public Suggestion suggestion(DiffedCommit diff, String cache, long now) {
        CommitEvent c = diff.commit();
        return new Suggestion(c.repo(), c.sha(), subject, body, type, scope, backend, similarity, exemplars, cache,
                Math.max(0, now - c.origin().kafkaTs()), c.traceId(), c.tenant(), diff.truncation(), c.ts(),
                c.origin().kafkaTs(), now, "");
    }
}
