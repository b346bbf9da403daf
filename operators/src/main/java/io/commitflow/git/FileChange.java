package io.commitflow.git;

import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.Edit;
import org.eclipse.jgit.patch.FileHeader;

/**
 * One changed path of a commit.
 *
 * @param change   {@code ADD}, {@code MODIFY}, {@code DELETE}, {@code RENAME} or {@code COPY} (git's change kinds)
 * @param oldPath  the path before, empty for an addition
 * @param newPath  the path after, empty for a deletion
 * @param binary   the content was summarised, not diffed (binary, or larger than the blob budget)
 * @param added    lines added (0 for binary files)
 * @param deleted  lines deleted (0 for binary files)
 * @param score    similarity in percent for renames and copies, else 0
 */
public record FileChange(String change, String oldPath, String newPath, boolean binary, int added, int deleted, int score) {

    /** Summarises a file header, from a mirror diff or a parsed patch. */
    public static FileChange of(FileHeader h) {
        DiffEntry.ChangeType type = h.getChangeType();
        String oldPath = type == DiffEntry.ChangeType.ADD || h.getOldPath() == null ? "" : h.getOldPath();
        String newPath = type == DiffEntry.ChangeType.DELETE || h.getNewPath() == null ? "" : h.getNewPath();
        int added = 0;
        int deleted = 0;
        // a header without hunks (a pure rename, a mode change, a binary) has no edit list to read
        for (Edit e : h.getHunks().isEmpty() ? java.util.List.<Edit>of() : h.toEditList()) {
            added += e.getLengthB();
            deleted += e.getLengthA();
        }
        boolean binary = h.getPatchType() != FileHeader.PatchType.UNIFIED;
        return new FileChange(type.name(), oldPath, newPath, binary, added, deleted, h.getScore());
    }

    /** The path to name this change by: the new path, or the old one for a deletion. */
    public String path() {
        return newPath.isEmpty() ? oldPath : newPath;
    }
}
