package io.commitflow.git;

import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;
import org.eclipse.jgit.lib.AbbreviatedObjectId;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes one file's patch exactly as {@code git diff --full-index} does, so that the text, and the patch-id
 * computed from it, equal C git's: git's header order, no {@code ---}/{@code +++} lines when there is no hunk
 * (an empty file, a pure rename, a mode change), {@code Binary files a/x and b/x differ}, git's binary rule
 * (a NUL byte in the first 8000 bytes), submodules as {@code Subproject commit} lines. Hunks come from JGit's
 * formatter with three lines of context.
 */
final class GitPatchWriter {
    private static final int FIRST_FEW_BYTES = 8000; // git's buffer_is_binary() looks this far

    private final ObjectReader reader;
    private final DiffAlgorithm algorithm;
    private final GitHunkFormatter hunks;
    private final OutputStream out;
    private final int maxBlobBytes;
    private int missingBlobs;

    GitPatchWriter(ObjectReader reader, DiffAlgorithm algorithm, GitHunkFormatter hunks, OutputStream out, int maxBlobBytes) {
        this.reader = reader;
        this.algorithm = algorithm;
        this.hunks = hunks;
        this.out = out;
        this.maxBlobBytes = maxBlobBytes;
    }

    /** Writes the patch of {@code e}; returns whether the content was summarised as binary. */
    boolean write(DiffEntry e) throws IOException {
        DiffEntry.ChangeType type = e.getChangeType();
        String a = type == DiffEntry.ChangeType.ADD ? "/dev/null" : quote("a/" + e.getOldPath());
        String b = type == DiffEntry.ChangeType.DELETE ? "/dev/null" : quote("b/" + e.getNewPath());
        StringBuilder h = new StringBuilder(256);
        h.append("diff --git ").append(quote("a/" + (type == DiffEntry.ChangeType.ADD ? e.getNewPath() : e.getOldPath())))
                .append(' ').append(quote("b/" + (type == DiffEntry.ChangeType.DELETE ? e.getOldPath() : e.getNewPath())))
                .append('\n');
        if (type == DiffEntry.ChangeType.ADD) {
            h.append("new file mode ").append(mode(e.getNewMode())).append('\n');
        } else if (type == DiffEntry.ChangeType.DELETE) {
            h.append("deleted file mode ").append(mode(e.getOldMode())).append('\n');
        } else if (!e.getOldMode().equals(e.getNewMode())) {
            h.append("old mode ").append(mode(e.getOldMode())).append('\n');
            h.append("new mode ").append(mode(e.getNewMode())).append('\n');
        }
        if (type == DiffEntry.ChangeType.RENAME || type == DiffEntry.ChangeType.COPY) {
            String verb = type == DiffEntry.ChangeType.RENAME ? "rename" : "copy";
            h.append("similarity index ").append(e.getScore()).append("%\n");
            h.append(verb).append(" from ").append(quote(e.getOldPath())).append('\n');
            h.append(verb).append(" to ").append(quote(e.getNewPath())).append('\n');
        }
        boolean changed = !e.getOldId().equals(e.getNewId());
        if (changed) {
            h.append("index ").append(e.getOldId().name()).append("..").append(e.getNewId().name());
            if (e.getOldMode().equals(e.getNewMode())) {
                h.append(' ').append(mode(e.getNewMode()));
            }
            h.append('\n');
        }
        if (!changed) {
            out.write(h.toString().getBytes(StandardCharsets.UTF_8));
            return false;
        }
        RawText oldText = text(e.getOldMode(), e.getOldId());
        RawText newText = oldText == null ? null : text(e.getNewMode(), e.getNewId());
        if (oldText == null || newText == null) {
            h.append("Binary files ").append(a).append(" and ").append(b).append(" differ\n");
            out.write(h.toString().getBytes(StandardCharsets.UTF_8));
            return true;
        }
        EditList edits = GitCompaction.compact(algorithm.diff(RawTextComparator.DEFAULT, oldText, newText), oldText, newText);
        if (!edits.isEmpty()) {
            // git ends a label holding a space with a tab, for the benefit of GNU patch
            h.append("--- ").append(a).append(a.indexOf(' ') >= 0 ? "\t" : "").append('\n');
            h.append("+++ ").append(b).append(b.indexOf(' ') >= 0 ? "\t" : "").append('\n');
        }
        out.write(h.toString().getBytes(StandardCharsets.UTF_8));
        if (!edits.isEmpty()) {
            hunks.beginFile(oldText);
            hunks.format(edits, oldText, newText);
            hunks.flush();
        }
        return false;
    }

    /** The text of one side, or {@code null} when git would call it binary (or it is over the blob budget). */
    private RawText text(FileMode mode, AbbreviatedObjectId id) throws IOException {
        if (mode == FileMode.MISSING || id.toObjectId().equals(org.eclipse.jgit.lib.ObjectId.zeroId()) && mode != FileMode.GITLINK) {
            return RawText.EMPTY_TEXT;
        }
        if (mode == FileMode.GITLINK) {
            return id.toObjectId().equals(org.eclipse.jgit.lib.ObjectId.zeroId()) ? RawText.EMPTY_TEXT
                    : new RawText(("Subproject commit " + id.name() + "\n").getBytes(StandardCharsets.US_ASCII));
        }
        ObjectLoader loader;
        try {
            loader = reader.open(id.toObjectId(), Constants.OBJ_BLOB);
        } catch (org.eclipse.jgit.errors.MissingObjectException e) {
            // a partial mirror (git clone --filter=blob:limit=…) lacks some blobs: summarise the file
            missingBlobs++;
            return null;
        }
        if (loader.getSize() > maxBlobBytes) {
            return null; // never loaded: summarised like a binary
        }
        byte[] raw = loader.getCachedBytes(maxBlobBytes);
        return isBinary(raw) ? null : new RawText(raw, lineMap(raw));
    }

    /** RawText's line index (entry 0 unused, then each line's start, then the end), in one tight loop. */
    static org.eclipse.jgit.util.IntList lineMap(byte[] b) {
        org.eclipse.jgit.util.IntList map = new org.eclipse.jgit.util.IntList(b.length / 32 + 3);
        map.add(Integer.MIN_VALUE);
        int n = b.length;
        if (n > 0) {
            map.add(0);
        }
        for (int i = 0; i < n - 1; i++) {
            if (b[i] == '\n') {
                map.add(i + 1);
            }
        }
        map.add(n);
        return map;
    }

    /** git's buffer_is_binary(): a NUL byte in the first 8000 bytes. */
    static boolean isBinary(byte[] raw) {
        int n = Math.min(raw.length, FIRST_FEW_BYTES);
        for (int i = 0; i < n; i++) {
            if (raw[i] == 0) {
                return true;
            }
        }
        return false;
    }

    /** Blobs that were not in the mirror, so far. */
    int missingBlobs() {
        return missingBlobs;
    }

    private static String mode(FileMode m) {
        return String.format("%06o", m.getBits());
    }

    private static String quote(String path) {
        return GitQuote.path(path);
    }
}
