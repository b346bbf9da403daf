package io.commitflow.git;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Reason;
import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.diff.RawTextComparator;
import org.eclipse.jgit.diff.RenameDetector;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Computes a commit's diff from a mirror the way git shows it: histogram algorithm, rename detection with
 * git's defaults (50% similarity, rename limit 1000; JGit's own defaults are 60% and 400), merges against
 * the first parent, root commits against the empty tree, binaries and oversized blobs summarised.
 *
 * <pre>{@code
 * DiffedCommit d = new CommitDiffer(DiffBudget.DEFAULT).diff(repository, commitEvent);
 * }</pre>
 */
public final class CommitDiffer {
    /** git's {@code diff.renames} similarity default, in percent. */
    public static final int GIT_RENAME_SCORE = 50;
    /** git's {@code diff.renameLimit} default. */
    public static final int GIT_RENAME_LIMIT = 1000;

    private final DiffBudget budget;

    public CommitDiffer(DiffBudget budget) {
        this.budget = budget;
    }

    public DiffedCommit diff(Repository repo, CommitEvent commit) throws InvalidEventException, IOException {
        PatchText patch = new PatchText(budget.maxBytes(), budget.maxLines());
        try (ObjectReader reader = repo.newObjectReader();
             RevWalk walk = new RevWalk(reader);
             DiffFormatter formatter = new DiffFormatter(patch)) {
            formatter.setReader(reader, repo.getConfig());
            formatter.setDiffAlgorithm(DiffAlgorithm.getAlgorithm(DiffAlgorithm.SupportedAlgorithm.HISTOGRAM));
            formatter.setDiffComparator(RawTextComparator.DEFAULT);
            formatter.setBinaryFileThreshold(budget.maxBlobBytes());
            formatter.setDetectRenames(true);
            RenameDetector renames = formatter.getRenameDetector();
            renames.setRenameScore(GIT_RENAME_SCORE);
            renames.setRenameLimit(GIT_RENAME_LIMIT);

            RevCommit c;
            try {
                c = walk.parseCommit(ObjectId.fromString(commit.sha()));
            } catch (MissingObjectException e) {
                throw new InvalidEventException(Reason.UNKNOWN_COMMIT,
                        "commit " + commit.sha() + " is not in the mirror of " + commit.repo());
            } catch (org.eclipse.jgit.errors.IncorrectObjectTypeException e) {
                throw new InvalidEventException(Reason.UNKNOWN_COMMIT, commit.sha() + " is not a commit");
            }
            ObjectId oldTree = c.getParentCount() == 0 ? null : walk.parseCommit(c.getParent(0)).getTree();
            List<DiffEntry> entries = formatter.scan(oldTree, c.getTree());
            return summarise(commit, entries, formatter, patch);
        }
    }

    private DiffedCommit summarise(CommitEvent commit, List<DiffEntry> entries, DiffFormatter formatter, PatchText patch)
            throws IOException {
        int shown = Math.min(entries.size(), budget.maxFiles());
        List<FileChange> files = new ArrayList<>(shown);
        for (DiffEntry entry : entries.subList(0, shown)) {
            files.add(FileChange.of(formatter.toFileHeader(entry)));
            if (!patch.full()) {
                formatter.format(entry);
            }
        }
        formatter.flush();
        return DiffedCommit.of(commit, files, entries.size(), patch.text(),
                budget.truncation(entries.size(), patch), "mirror");
    }
}
