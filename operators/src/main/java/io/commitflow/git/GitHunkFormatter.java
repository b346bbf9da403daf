package io.commitflow.git;

import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.diff.RawText;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * JGit's formatter with git's default hunk-header context: after {@code @@ -a,b +c,d @@} git names the last line
 * before the hunk that starts with a letter, {@code _} or {@code $} (its {@code def_ff}), cut to 80 bytes, trailing
 * space removed; it searches back only to the previous hunk and otherwise repeats that hunk's name
 * ({@code xdl_emit_diff}). Call {@link #beginFile} before formatting each file's edits.
 */
final class GitHunkFormatter extends DiffFormatter {
    private static final int FUNC_MAX = 80;

    private RawText old;
    private int previousStart;
    private byte[] func;

    GitHunkFormatter(OutputStream out) {
        super(out);
    }

    void beginFile(RawText oldText) {
        old = oldText;
        previousStart = -1;
        func = null;
    }

    @Override
    protected void writeHunkHeader(int aStartLine, int aEndLine, int bStartLine, int bEndLine, String ignored)
            throws IOException {
        findFunctionLine(aStartLine - 1);
        OutputStream o = getOutputStream();
        StringBuilder h = new StringBuilder(32).append("@@");
        range(h, '-', aStartLine + 1, aEndLine - aStartLine);
        range(h, '+', bStartLine + 1, bEndLine - bStartLine);
        h.append(" @@");
        o.write(h.toString().getBytes(StandardCharsets.US_ASCII));
        if (func != null && func.length > 0) {
            o.write(' ');
            o.write(func);
        }
        o.write('\n');
    }

    private void findFunctionLine(int start) {
        if (old != null) {
            for (int line = start; line > previousStart && line >= 0 && line < old.size(); line--) {
                java.nio.ByteBuffer raw = old.getRawString(line);
                byte[] rec = new byte[raw.remaining()];
                raw.get(rec);
                if (rec.length > 0 && (Character.isLetter(rec[0] & 0xff) && (rec[0] & 0xff) < 0x80 || rec[0] == '_' || rec[0] == '$')) {
                    int len = Math.min(rec.length, FUNC_MAX);
                    while (len > 0 && isSpace(rec[len - 1])) {
                        len--;
                    }
                    func = java.util.Arrays.copyOf(rec, len);
                    break;
                }
            }
        }
        previousStart = start;
    }

    private static void range(StringBuilder h, char prefix, int begin, int count) {
        h.append(' ').append(prefix);
        if (count == 0) {
            h.append(begin - 1).append(",0");
        } else if (count == 1) {
            h.append(begin);
        } else {
            h.append(begin).append(',').append(count);
        }
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == 0x0b || b == '\f' || b == '\r';
    }
}
