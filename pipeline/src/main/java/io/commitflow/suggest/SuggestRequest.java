package io.commitflow.suggest;

import io.commitflow.event.RepoKeys;
import io.commitflow.generate.Conventions;
import io.commitflow.generate.DiffFeatures;
import io.commitflow.generate.RepoKnowledge;
import io.commitflow.git.DiffedCommit;
import io.commitflow.gpu.Tier;
import io.commitflow.llm.PromptPrefixes;

import java.util.List;

/**
 * One commit's request for a suggestion, made when the commit reaches the suggest stage and fixed then: everything
 * the answer depends on, so that the request gives the same suggestion whenever it is answered — by a batch, by the
 * CPU scan after a timeout, or after a restore (in-flight requests are part of the stage's checkpoint).
 *
 * @param diff        the commit and its diff
 * @param features    what the generator reads from the diff, computed once
 * @param query       the TF-IDF query vector under the repository's IDF when the request was made
 * @param window      the repository's rows the request may see (the newest learned before it)
 * @param conventions the repository's subject conventions when the request was made
 * @param tier        the tenant's priority tier
 * @param prefix      for a tenant with an LLM: the repository's prompt prefix; else {@code null}
 * @param fleet       for a young repository: exemplars from its tenant's other repositories ({@link FleetMemory});
 *                    else empty
 * @param ranker      the ranking weights the repository's history rewarded when the request was made
 *                    ({@link io.commitflow.generate.RetrievalGenerator#ranker}; 0, the default weights, in a request
 *                    restored from a version before they were learned)
 */
public record SuggestRequest(DiffedCommit diff, DiffFeatures features, float[] query, RepoKnowledge.Window window,
                             Conventions conventions, Tier tier, PromptPrefixes.Use prefix,
                             List<RepoKnowledge.Neighbor> fleet, int ranker) {

    public SuggestRequest {
        fleet = fleet == null ? List.of() : fleet; // a request restored from a checkpoint of a version before the fleet
    }

    public String repo() {
        return diff.commit().repo();
    }

    /** The repository's key in keyed state and in the index, as {@code keys} names repositories. */
    public String key(RepoKeys keys) {
        return keys.of(diff.commit());
    }

    public String tenant() {
        return diff.commit().tenant();
    }
}
