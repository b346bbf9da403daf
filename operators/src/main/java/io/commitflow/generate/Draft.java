package io.commitflow.generate;

import java.util.List;

/**
 * A generated message before it becomes a {@link io.commitflow.event.Suggestion}.
 *
 * @param backend    what wrote it ({@code template}, {@code retrieval}, …)
 * @param similarity the best exemplar's retrieval similarity, 0 without retrieval
 * @param exemplars  the exemplar commits used
 */
public record Draft(String subject, String body, String type, String scope, String backend, double similarity,
                    List<String> exemplars) {}
