package io.commitflow.git;

import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.Edit;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.patch.FileHeader;

import java.util.List;

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
 * @param oldMode  git's octal mode before ({@code 100644}, {@code 100755}, {@code 120000} link,
 *                 {@code 160000} submodule), empty when the path did not exist
 * @param newMode  the mode after, empty when the path is gone
 */
public record FileChange(String change, String oldPath, String newPath, boolean binary, int added, int deleted, int score,
                         String oldMode, String newMode) {

    /** git's mode of a submodule (a "gitlink"). */
    public static final String SUBMODULE = "160000";

    /** A change from a mirror diff, its counts read from the formatted text. */
    static FileChange of(DiffEntry e, boolean binary, int added, int deleted) {
        DiffEntry.ChangeType type = e.getChangeType();
        String oldPath = type == DiffEntry.ChangeType.ADD || e.getOldPath() == null ? "" : e.getOldPath();
        String newPath = type == DiffEntry.ChangeType.DELETE || e.getNewPath() == null ? "" : e.getNewPath();
        return new FileChange(type.name(), oldPath, newPath, binary, added, deleted, e.getScore(),
                mode(e.getOldMode()), mode(e.getNewMode()));
    }

    /** A change from a parsed patch. */
    public static FileChange of(FileHeader h) {
        int added = 0;
        int deleted = 0;
        // a header without hunks (a pure rename, a mode change, a binary) has no edit list to read
        for (Edit e : h.getHunks().isEmpty() ? List.<Edit>of() : h.toEditList()) {
            added += e.getLengthB();
            deleted += e.getLengthA();
        }
        return of(h, h.getPatchType() != FileHeader.PatchType.UNIFIED, added, deleted);
    }

    private static String mode(FileMode m) {
        return m == null || m == FileMode.MISSING ? "" : Integer.toOctalString(m.getBits());
    }

    /** The path to name this change by: the new path, or the old one for a deletion. */
    public String path() {
        return newPath.isEmpty() ? oldPath : newPath;
    }

    public boolean submodule() {
        return SUBMODULE.equals(oldMode) || SUBMODULE.equals(newMode);
    }
}
