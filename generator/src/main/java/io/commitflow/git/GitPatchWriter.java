package io.commitflow.git;

import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.Edit;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;
import org.eclipse.jgit.lib.AbbreviatedObjectId;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.util.IntList;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Writes one file's patch exactly as {@code git diff --full-index} does, so that the text, and the patch-id
 * computed from it, equal C git's: git's header order, no {@code ---}/{@code +++} lines when there is no hunk
 * (an empty file, a pure rename, a mode change), {@code Binary files a/x and b/x differ}, git's binary rule
 * (a NUL byte in the first 8000 bytes), submodules as {@code Subproject commit} lines. Hunks are written by
 * {@link GitHunkFormatter} with three lines of context.
 *
 * <p>Each blob is read once and scanned once for both git's binary rule and the line index; the patch goes into
 * one reused {@link PatchBytes}, and the line counts come from the edit list, not from re-reading the text.
 */
final class GitPatchWriter {
    private static final int FIRST_FEW_BYTES = 8000; // git's buffer_is_binary() looks this far
    private static final Side EMPTY = side(new byte[0]);

    private final ObjectReader reader;
    private final DiffAlgorithm algorithm;
    private final PatchBytes out;
    private final GitHunkFormatter hunks;
    private final int maxBlobBytes;
    private int missingBlobs;
    private int added;
    private int deleted;

    GitPatchWriter(ObjectReader reader, DiffAlgorithm algorithm, PatchBytes out, int maxBlobBytes) {
        this.reader = reader;
        this.algorithm = algorithm;
        this.out = out;
        this.hunks = new GitHunkFormatter(out);
        this.maxBlobBytes = maxBlobBytes;
    }

    /** One side of a file: its text and the line index it was made with. */
    private record Side(RawText text, IntList lines) {}

    /**
     * Writes the patch of {@code e} into the buffer (emptied first); returns whether the content was summarised as
     * binary. {@link #added()} and {@link #deleted()} then hold its line counts.
     */
    boolean write(DiffEntry e) throws IOException {
        out.clear();
        added = 0;
        deleted = 0;
        DiffEntry.ChangeType type = e.getChangeType();
        String a = type == DiffEntry.ChangeType.ADD ? "/dev/null" : quote("a/" + e.getOldPath());
        String b = type == DiffEntry.ChangeType.DELETE ? "/dev/null" : quote("b/" + e.getNewPath());
        out.ascii("diff --git ").utf8(type == DiffEntry.ChangeType.ADD ? quote("a/" + e.getNewPath()) : a)
                .append(' ').utf8(type == DiffEntry.ChangeType.DELETE ? quote("b/" + e.getOldPath()) : b)
                .append('\n');
        if (type == DiffEntry.ChangeType.ADD) {
            out.ascii("new file mode ").ascii(mode(e.getNewMode())).append('\n');
        } else if (type == DiffEntry.ChangeType.DELETE) {
            out.ascii("deleted file mode ").ascii(mode(e.getOldMode())).append('\n');
        } else if (!e.getOldMode().equals(e.getNewMode())) {
            out.ascii("old mode ").ascii(mode(e.getOldMode())).append('\n');
            out.ascii("new mode ").ascii(mode(e.getNewMode())).append('\n');
        }
        if (type == DiffEntry.ChangeType.RENAME || type == DiffEntry.ChangeType.COPY) {
            String verb = type == DiffEntry.ChangeType.RENAME ? "rename" : "copy";
            out.ascii("similarity index ").number(e.getScore()).ascii("%\n");
            out.ascii(verb).ascii(" from ").utf8(quote(e.getOldPath())).append('\n');
            out.ascii(verb).ascii(" to ").utf8(quote(e.getNewPath())).append('\n');
        }
        if (e.getOldId().equals(e.getNewId())) {
            return false;
        }
        out.ascii("index ").ascii(e.getOldId().name()).ascii("..").ascii(e.getNewId().name());
        if (e.getOldMode().equals(e.getNewMode())) {
            out.append(' ').ascii(mode(e.getNewMode()));
        }
        out.append('\n');
        Side oldSide = side(e.getOldMode(), e.getOldId());
        Side newSide = oldSide == null ? null : side(e.getNewMode(), e.getNewId());
        if (oldSide == null || newSide == null) {
            out.ascii("Binary files ").utf8(a).ascii(" and ").utf8(b).ascii(" differ\n");
            return true;
        }
        RawText oldText = oldSide.text();
        RawText newText = newSide.text();
        EditList edits = GitCompaction.compact(algorithm.diff(RawTextComparator.DEFAULT, oldText, newText), oldText, newText);
        if (edits.isEmpty()) {
            return false;
        }
        // git ends a label holding a space with a tab, for the benefit of GNU patch
        out.ascii("--- ").utf8(a).ascii(a.indexOf(' ') >= 0 ? "\t" : "").append('\n');
        out.ascii("+++ ").utf8(b).ascii(b.indexOf(' ') >= 0 ? "\t" : "").append('\n');
        hunks.format(edits, oldText, oldSide.lines(), newText, newSide.lines());
        for (Edit edit : edits) {
            added += edit.getLengthB();
            deleted += edit.getLengthA();
        }
        return false;
    }

    /** Lines added by the last file written (0 when binary or without hunks). */
    int added() {
        return added;
    }

    /** Lines deleted by the last file written. */
    int deleted() {
        return deleted;
    }

    /** One side's text, or {@code null} when git would call it binary (or it is over the blob budget). */
    private Side side(FileMode mode, AbbreviatedObjectId abbreviated) throws IOException {
        if (mode == FileMode.MISSING) {
            return EMPTY;
        }
        ObjectId id = abbreviated.toObjectId();
        if (ObjectId.zeroId().equals(id)) {
            return EMPTY;
        }
        if (mode == FileMode.GITLINK) {
            return side(("Subproject commit " + id.name() + "\n").getBytes(StandardCharsets.US_ASCII));
        }
        ObjectLoader loader;
        try {
            loader = reader.open(id, Constants.OBJ_BLOB);
        } catch (org.eclipse.jgit.errors.MissingObjectException e) {
            // a partial mirror (git clone --filter=blob:limit=…) lacks some blobs: summarise the file
            missingBlobs++;
            return null;
        }
        if (loader.getSize() > maxBlobBytes) {
            return null; // never loaded: summarised like a binary
        }
        byte[] raw = loader.getCachedBytes(maxBlobBytes);
        IntList lines = textLineMap(raw);
        return lines == null ? null : new Side(new RawText(raw, lines), lines);
    }

    /** A side made of text that has no NUL byte (the empty side, a submodule's line). */
    private static Side side(byte[] raw) {
        IntList lines = textLineMap(raw);
        return new Side(new RawText(raw, lines), lines);
    }

    /**
     * RawText's line index (entry 0 unused, then each line's start, then the end) and git's binary rule in one
     * pass: the line index, or {@code null} when a NUL byte sits in the first 8000 bytes ({@link #isBinary}). Reads
     * eight bytes at a time: every blob a commit touches goes through here, whole.
     */
    static IntList textLineMap(byte[] b) {
        int n = b.length;
        IntList map = new IntList(n / 24 + 3);
        map.add(Integer.MIN_VALUE);
        if (n > 0) {
            map.add(0);
        }
        int i = 0;
        for (int words = n & ~7; i < words; i += 8) {
            long w = (long) LONGS.get(b, i);
            if (i < FIRST_FEW_BYTES && zeroBytes(w) != 0) { // 8000 is a multiple of 8: whole words only
                return null;
            }
            // each newline byte of the word, lowest address first (little-endian)
            for (long nl = zeroBytes(w ^ NEWLINES); nl != 0; nl &= nl - 1) {
                map.add(i + (Long.numberOfTrailingZeros(nl) >>> 3) + 1);
            }
        }
        for (; i < n; i++) {
            byte c = b[i];
            if (c == '\n') {
                map.add(i + 1);
            } else if (c == 0 && i < FIRST_FEW_BYTES) {
                return null;
            }
        }
        // a newline that ends the content starts no line: the end is added once
        if (n == 0 || b[n - 1] != '\n') {
            map.add(n);
        }
        return map;
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0a0a0a0a0a0a0a0aL;
    private static final long LOW7 = 0x7f7f7f7f7f7f7f7fL;

    /** The high bit of each zero byte of {@code w}, exactly (no borrow from one byte into the next). */
    private static long zeroBytes(long w) {
        return ~(((w & LOW7) + LOW7) | w | LOW7);
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

    /** git's six-digit octal mode, without a formatter for the modes that occur. */
    static String mode(FileMode m) {
        int bits = m.getBits();
        return switch (bits) {
            case 0100644 -> "100644";
            case 0100755 -> "100755";
            case 0120000 -> "120000";
            case 0160000 -> "160000";
            case 0040000 -> "040000";
            default -> String.format("%06o", bits);
        };
    }

    private static String quote(String path) {
        return GitQuote.path(path);
    }
}
