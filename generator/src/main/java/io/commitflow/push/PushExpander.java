package io.commitflow.push;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.PushEvent;
import io.commitflow.event.Reason;
import io.commitflow.git.MirrorDamage;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevSort;
import org.eclipse.jgit.revwalk.RevWalk;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Turns a ref update into the commits it brought, read from the mirror, parents before children:
 * an update yields {@code before..after}; a new ref yields the commits not reachable from any other ref;
 * a deleted ref yields nothing. The real message of each commit travels with it (to learn from, never to
 * show). A push that brings more than {@code maxCommits} commits is refused whole ({@link Reason#TOO_MANY_COMMITS}),
 * before any of its commits goes out: a history imported in one push, or a force-push onto an unrelated branch, is
 * not a change anyone needs a message for, and expanding it would stall the repository's other pushes.
 */
public final class PushExpander {
    /** The most commits one push may bring by default ({@code --max-push-commits}). */
    public static final int DEFAULT_MAX_COMMITS = 10_000;

    private final int maxCommits;

    public PushExpander() {
        this(DEFAULT_MAX_COMMITS);
    }

    /** @param maxCommits the most commits one push may bring (at least 1) */
    public PushExpander(int maxCommits) {
        if (maxCommits < 1) {
            throw new IllegalArgumentException("the most commits a push may bring must be at least 1, not " + maxCommits);
        }
        this.maxCommits = maxCommits;
    }

    /** Calls {@code out} for each new commit of {@code push}, oldest first; returns how many. */
    public int expand(Repository repo, PushEvent push, Consumer<CommitEvent> out) throws InvalidEventException, IOException {
        if (push.deletesRef()) {
            return 0;
        }
        try (RevWalk walk = new RevWalk(repo)) {
            walk.sort(RevSort.TOPO, true);
            walk.sort(RevSort.REVERSE, true);
            walk.markStart(commit(repo, walk, push.after(), push));
            if (push.createsRef()) {
                for (Ref ref : repo.getRefDatabase().getRefs()) {
                    ObjectId id = ref.getPeeledObjectId() != null ? ref.getPeeledObjectId() : ref.getObjectId();
                    // a symbolic ref (HEAD of a clone --mirror) is its target, which the loop meets on its own: the
                    // mirror's HEAD pointing at the pushed branch must not hide the branch's commits
                    if (!ref.isSymbolic() && !ref.getName().equals(push.ref()) && id != null) {
                        markUninterestingIfCommit(walk, id);
                    }
                }
            } else {
                walk.markUninteresting(commit(repo, walk, push.before(), push));
            }
            List<RevCommit> commits = new ArrayList<>();
            for (RevCommit c : walk) {
                if (commits.size() == maxCommits) {
                    throw new InvalidEventException(Reason.TOO_MANY_COMMITS, "the push to " + push.ref() + " of "
                            + push.repo() + " brings more than " + maxCommits + " commits (--max-push-commits)");
                }
                commits.add(c);
            }
            commits.forEach(c -> out.accept(toEvent(c, push)));
            return commits.size();
        }
    }

    private static RevCommit commit(Repository repo, RevWalk walk, String sha, PushEvent push)
            throws InvalidEventException, IOException {
        MirrorDamage.checkIdLength("the push's commit", sha, push.repo());
        try {
            return walk.parseCommit(ObjectId.fromString(sha));
        } catch (MissingObjectException e) {
            String damage = MirrorDamage.describe(repo);
            if (!damage.isEmpty()) {
                throw new InvalidEventException(Reason.GIT_ERROR, "commit " + sha + " of the push to " + push.ref()
                        + " cannot be read from the mirror of " + push.repo() + ": " + damage);
            }
            throw new InvalidEventException(Reason.UNKNOWN_COMMIT,
                    "commit " + sha + " of the push to " + push.ref() + " is not in the mirror of " + push.repo());
        } catch (IncorrectObjectTypeException e) {
            throw new InvalidEventException(Reason.INVALID_FIELD, sha + " in the push to " + push.ref() + " is not a commit");
        }
    }

    private static void markUninterestingIfCommit(RevWalk walk, ObjectId id) throws IOException {
        try {
            walk.markUninteresting(walk.parseCommit(id));
        } catch (IncorrectObjectTypeException | MissingObjectException e) {
            // a ref to a tree or blob, or a dangling ref: it hides no commit
        }
    }

    private static CommitEvent toEvent(RevCommit c, PushEvent push) {
        List<String> parents = new ArrayList<>(c.getParentCount());
        for (RevCommit p : c.getParents()) {
            parents.add(p.name());
        }
        var author = c.getAuthorIdent();
        return new CommitEvent(push.tenant(), push.repo(), c.name(), List.copyOf(parents),
                author.getName() + " <" + author.getEmailAddress() + ">", push.ts(), c.getFullMessage(), null,
                push.traceId(), push.origin()); // one trace per event: the push's, with a branch per commit
    }
}
