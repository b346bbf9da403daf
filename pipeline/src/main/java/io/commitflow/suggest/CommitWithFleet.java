package io.commitflow.suggest;

import io.commitflow.generate.DiffFeatures;
import io.commitflow.generate.RepoKnowledge;
import io.commitflow.git.DiffedCommit;

import java.util.List;

/**
 * A diffed commit on its way from the {@link FleetMemory} to the {@link SuggestOperator}.
 *
 * @param diff     the commit and its diff
 * @param features what the generator reads from the diff, computed by the fleet stage for every commit it learns from
 *                 or looks up (so the suggest stage does not read the patch again); null otherwise (a draft of a
 *                 repository that is not young), and the suggest stage computes it then
 * @param fleet    for a commit of a young repository: its nearest earlier commits in the tenant's other
 *                 repositories that changed a file of the same name or whose diff is much alike
 *                 ({@link io.commitflow.generate.RetrievalGenerator#carryOver}), best first; else empty
 */
public record CommitWithFleet(DiffedCommit diff, DiffFeatures features, List<RepoKnowledge.Neighbor> fleet) {
    public CommitWithFleet {
        fleet = List.copyOf(fleet);
    }

    /** A commit that goes to the suggest stage without a fleet stage before it. */
    public static CommitWithFleet alone(DiffedCommit diff) {
        return new CommitWithFleet(diff, null, List.of());
    }
}
