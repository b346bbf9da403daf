package io.commitflow.git;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Reason;
import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.diff.RawTextComparator;
import org.eclipse.jgit.diff.RenameDetector;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Computes a commit's diff from a mirror the way git shows it: histogram algorithm, rename detection with
 * git's defaults (50% similarity, rename limit 1000; JGit's own defaults are 60% and 400), merges against
 * the first parent, root commits against the empty tree, binaries and oversized blobs summarised, full object
 * ids on {@code index} lines (as {@code git diff --full-index}).
 *
 * <p>Each file is diffed once; its text feeds the budgeted patch text, the line counts and the patch-id
 * together. The patch-id ({@code git patch-id --stable}) covers the whole commit, so it is left out
 * ({@code null}) when the commit has more files than the budget describes.
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

    private static final DiffAlgorithm ALGORITHM = DiffAlgorithm.getAlgorithm(DiffAlgorithm.SupportedAlgorithm.HISTOGRAM);

    private final DiffBudget budget;

    public CommitDiffer(DiffBudget budget) {
        this.budget = budget;
    }

    public DiffedCommit diff(Repository repo, CommitEvent commit) throws InvalidEventException, IOException {
        try (ObjectReader reader = repo.newObjectReader(); RevWalk walk = new RevWalk(reader)) {
            RevCommit c = parse(walk, commit);
            ObjectId oldTree = c.getParentCount() == 0 ? null : walk.parseCommit(c.getParent(0)).getTree();
            return diff(repo, reader, commit, oldTree, c.getTree());
        }
    }

    /** Diffs two trees ({@code oldTree} null for the empty tree) with the reader of the caller. */
    public DiffedCommit diff(Repository repo, ObjectReader reader, CommitEvent commit, ObjectId oldTree, ObjectId newTree)
            throws IOException {
        PatchText text = new PatchText(budget.maxBytes(), budget.maxLines());
        FileStats stats = new FileStats();
        Tee out = new Tee(text, stats);
        try (DiffFormatter formatter = formatter(out, repo, reader)) {
            List<DiffEntry> entries = gitPairs(formatter.scan(oldTree, newTree));
            boolean whole = entries.size() <= budget.maxFiles();
            PatchId patchId = whole ? new PatchId() : null;
            out.patchId = patchId;
            GitPatchWriter writer = new GitPatchWriter(reader, ALGORITHM, formatter, out, budget.maxBlobBytes());
            int shown = Math.min(entries.size(), budget.maxFiles());
            List<FileChange> files = new ArrayList<>(shown);
            for (DiffEntry entry : entries.subList(0, shown)) {
                stats.reset();
                boolean binary = writer.write(entry);
                files.add(FileChange.of(entry, binary, stats.added(), stats.deleted()));
            }
            String id = patchId == null ? null : patchId.hex();
            return DiffedCommit.of(commit, files, entries.size(), text.text(), budget.truncation(entries.size(), text),
                    "mirror", id);
        }
    }

    /**
     * git with {@code -M} pairs a deleted file with one added file; JGit also reports the further added files
     * that resemble it as copies. git calls those additions, and so do we.
     */
    private static List<DiffEntry> gitPairs(List<DiffEntry> entries) {
        List<DiffEntry> out = new ArrayList<>(entries.size());
        for (DiffEntry e : entries) {
            out.add(e.getChangeType() == DiffEntry.ChangeType.COPY ? Addition.of(e) : e);
        }
        return out;
    }

    /** An added file made from a copy JGit found. */
    private static final class Addition extends DiffEntry {
        static DiffEntry of(DiffEntry copy) {
            Addition a = new Addition();
            a.oldId = A_ZERO;
            a.oldMode = org.eclipse.jgit.lib.FileMode.MISSING;
            a.oldPath = DEV_NULL;
            a.newId = copy.getNewId();
            a.newMode = copy.getNewMode();
            a.newPath = copy.getNewPath();
            a.changeType = ChangeType.ADD;
            return a;
        }

        private static final org.eclipse.jgit.lib.AbbreviatedObjectId A_ZERO =
                org.eclipse.jgit.lib.AbbreviatedObjectId.fromObjectId(ObjectId.zeroId());
    }

    private DiffFormatter formatter(OutputStream out, Repository repo, ObjectReader reader) {
        DiffFormatter f = new DiffFormatter(out);
        f.setReader(reader, repo.getConfig());
        f.setDiffAlgorithm(ALGORITHM);
        f.setDiffComparator(RawTextComparator.DEFAULT);
        f.setBinaryFileThreshold(budget.maxBlobBytes());
        f.setAbbreviationLength(Constants.OBJECT_ID_STRING_LENGTH);
        f.setDetectRenames(true);
        RenameDetector renames = f.getRenameDetector();
        renames.setRenameScore(GIT_RENAME_SCORE);
        renames.setRenameLimit(GIT_RENAME_LIMIT);
        // content similarity loads both blobs: never for blobs the budget would not diff
        renames.setBigFileThreshold(budget.maxBlobBytes());
        return f;
    }

    private static RevCommit parse(RevWalk walk, CommitEvent commit) throws InvalidEventException, IOException {
        try {
            return walk.parseCommit(ObjectId.fromString(commit.sha()));
        } catch (MissingObjectException e) {
            throw new InvalidEventException(Reason.UNKNOWN_COMMIT,
                    "commit " + commit.sha() + " is not in the mirror of " + commit.repo());
        } catch (IncorrectObjectTypeException e) {
            throw new InvalidEventException(Reason.UNKNOWN_COMMIT, commit.sha() + " is not a commit");
        }
    }

    /** Sends the formatter's bytes to the patch text, the per-file counts and (when computed) the patch-id. */
    private static final class Tee extends OutputStream {
        private final OutputStream text;
        private final OutputStream stats;
        private OutputStream patchId;

        Tee(OutputStream text, OutputStream stats) {
            this.text = text;
            this.stats = stats;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            text.write(b, off, len);
            stats.write(b, off, len);
            if (patchId != null) {
                patchId.write(b, off, len);
            }
        }
    }
}
