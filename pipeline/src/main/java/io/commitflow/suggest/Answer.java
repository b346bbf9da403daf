package io.commitflow.suggest;

import io.commitflow.event.Suggestion;
import io.commitflow.generate.RepoKnowledge;

import java.util.List;

/** What became of one request: a suggestion and the neighbours it was written from, or the error that stopped it. */
sealed interface Answer {
    /** @param neighbours the nearest earlier commits, best first (an LLM's prompt shows them) */
    record Written(Suggestion suggestion, List<RepoKnowledge.Neighbor> neighbours) implements Answer {}

    record Failed(RuntimeException cause) implements Answer {}
}
