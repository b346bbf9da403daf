package io.commitflow.git;

import org.eclipse.jgit.diff.Edit;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.util.IntList;

/**
 * Writes the hunks of one file as JGit's {@code DiffFormatter.format(EditList, RawText, RawText)} does with three
 * lines of context (the same loop, kept line for line), straight into the file's {@link PatchBytes} instead of
 * through an output stream, and with git's default hunk-header context: after {@code @@ -a,b +c,d @@} git names the
 * last line before the hunk that starts with a letter, {@code _} or {@code $} (its {@code def_ff}), cut to 80 bytes,
 * trailing space removed; it searches back only to the previous hunk and otherwise repeats that hunk's name
 * ({@code xdl_emit_diff}).
 */
final class GitHunkFormatter {
    private static final int CONTEXT = 3;
    private static final int FUNC_MAX = 80;
    private static final byte[] NO_NEWLINE = "\\ No newline at end of file\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final PatchBytes out;

    // per file: the function-name search state
    private byte[] oldRaw;
    private IntList oldLines;
    private int oldSize;
    private int previousStart;
    private int funcStart;
    private int funcLength;

    GitHunkFormatter(PatchBytes out) {
        this.out = out;
    }

    /**
     * Writes the hunks of {@code edits}; {@code aLines} and {@code bLines} are the line maps the texts were made
     * with ({@link GitPatchWriter#textLineMap}).
     */
    void format(EditList edits, RawText a, IntList aLines, RawText b, IntList bLines) {
        oldRaw = a.getRawContent();
        oldLines = aLines;
        oldSize = a.size();
        previousStart = -1;
        funcLength = 0;
        byte[] aRaw = oldRaw;
        byte[] bRaw = b.getRawContent();
        int aSize = a.size();
        int bSize = b.size();
        for (int curIdx = 0; curIdx < edits.size();) {
            Edit curEdit = edits.get(curIdx);
            final int endIdx = findCombinedEnd(edits, curIdx);
            final Edit endEdit = edits.get(endIdx);

            int aCur = (int) Math.max(0, (long) curEdit.getBeginA() - CONTEXT);
            int bCur = (int) Math.max(0, (long) curEdit.getBeginB() - CONTEXT);
            final int aEnd = (int) Math.min(aSize, (long) endEdit.getEndA() + CONTEXT);
            final int bEnd = (int) Math.min(bSize, (long) endEdit.getEndB() + CONTEXT);

            writeHunkHeader(aCur, aEnd, bCur, bEnd);

            while (aCur < aEnd || bCur < bEnd) {
                if (aCur < curEdit.getBeginA() || endIdx + 1 < curIdx) {
                    line(' ', aRaw, aLines, aSize, aCur);
                    aCur++;
                    bCur++;
                } else if (aCur < curEdit.getEndA()) {
                    line('-', aRaw, aLines, aSize, aCur);
                    aCur++;
                } else if (bCur < curEdit.getEndB()) {
                    line('+', bRaw, bLines, bSize, bCur);
                    bCur++;
                }

                if (curEdit.getEndA() <= aCur && curEdit.getEndB() <= bCur && ++curIdx < edits.size()) {
                    curEdit = edits.get(curIdx);
                }
            }
        }
        oldRaw = null;
        oldLines = null;
    }

    /** One patch line: prefix, the line without its LF, LF, and git's marker when the file ends without one. */
    private void line(char prefix, byte[] raw, IntList lines, int size, int i) {
        int start = lines.get(i + 1);
        int end = lines.get(i + 2);
        boolean lf = raw[end - 1] == '\n';
        out.append(prefix).append(raw, start, (lf ? end - 1 : end) - start).append('\n');
        if (i + 1 == size && !lf) {
            out.append(NO_NEWLINE);
        }
    }

    private static int findCombinedEnd(EditList edits, int i) {
        int end = i + 1;
        while (end < edits.size() && (edits.get(end).getBeginA() - edits.get(end - 1).getEndA() <= 2 * CONTEXT
                || edits.get(end).getBeginB() - edits.get(end - 1).getEndB() <= 2 * CONTEXT)) {
            end++;
        }
        return end - 1;
    }

    private void writeHunkHeader(int aStartLine, int aEndLine, int bStartLine, int bEndLine) {
        findFunctionLine(aStartLine - 1);
        out.append('@').append('@');
        range('-', aStartLine + 1, aEndLine - aStartLine);
        range('+', bStartLine + 1, bEndLine - bStartLine);
        out.append(' ').append('@').append('@');
        if (funcLength > 0) {
            out.append(' ').append(oldRaw, funcStart, funcLength);
        }
        out.append('\n');
    }

    private void findFunctionLine(int start) {
        for (int line = start; line > previousStart && line >= 0 && line < oldSize; line--) {
            int s = oldLines.get(line + 1);
            int e = oldLines.get(line + 2);
            if (e > s && oldRaw[e - 1] == '\n') {
                e--;
            }
            if (e > s && isFuncStart(oldRaw[s])) {
                int len = Math.min(e - s, FUNC_MAX);
                while (len > 0 && isSpace(oldRaw[s + len - 1])) {
                    len--;
                }
                funcStart = s;
                funcLength = len;
                break;
            }
        }
        previousStart = start;
    }

    private static boolean isFuncStart(byte b) {
        int c = b & 0xff;
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
    }

    private void range(char prefix, int begin, int count) {
        out.append(' ').append(prefix);
        if (count == 0) {
            out.number(begin - 1).append(',').append('0');
        } else if (count == 1) {
            out.number(begin);
        } else {
            out.number(begin).append(',').number(count);
        }
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == 0x0b || b == '\f' || b == '\r';
    }
}
