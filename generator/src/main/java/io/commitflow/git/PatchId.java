package io.commitflow.git;

import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Computes git's stable patch-id ({@code git patch-id --stable}) from patch text, as the bytes are written: the
 * same state machine as git's {@code builtin/patch-id.c}. Each file's lines, whitespace removed and hunk line
 * numbers ignored, are hashed with SHA-1; the per-file hashes are summed as 20-byte little-endian numbers, so
 * the result does not depend on the order of the files. For a binary file git hashes the two object ids of the
 * {@code index} line, so the patch text must carry full ids (JGit: abbreviation length 40, git: {@code --full-index}).
 *
 * <pre>{@code
 * PatchId id = new PatchId();
 * diffFormatter(id).format(entries);    // or id.write(patchBytes)
 * String hex = id.hex();                // null when the patch was empty
 * }</pre>
 */
public final class PatchId extends OutputStream {
    private final MessageDigest file = sha1();
    private final byte[] sum = new byte[20];
    private byte[] line = new byte[256];
    private int length;
    /** The line being consumed: {@code cur[at, at + len)}, in the line buffer or where it lies in a written block. */
    private byte[] cur;
    private int at;
    private int len;
    private long hashed;
    private boolean done;

    // git's get_one_patchid() state
    private int before = -1;
    private int after = -1;
    private boolean binary;
    private String preId = "";
    private String postId = "";

    @Override
    public void write(int b) {
        if (length == line.length) {
            byte[] bigger = new byte[line.length * 2];
            System.arraycopy(line, 0, bigger, 0, length);
            line = bigger;
        }
        line[length++] = (byte) b;
        if (b == '\n') {
            endOfLine();
        }
    }

    @Override
    public void write(byte[] b, int off, int n) {
        int end = off + n;
        int start = off;
        for (int i = off; i < end; i++) {
            if (b[i] == '\n') {
                if (length == 0) {
                    consume(b, start, i + 1 - start); // a whole line in the block: read it where it is
                } else {
                    append(b, start, i + 1 - start);
                    endOfLine();
                }
                start = i + 1;
            }
        }
        append(b, start, end - start);
    }

    private void append(byte[] b, int off, int n) {
        if (length + n > line.length) {
            byte[] bigger = new byte[Math.max(line.length * 2, length + n)];
            System.arraycopy(line, 0, bigger, 0, length);
            line = bigger;
        }
        System.arraycopy(b, off, line, length, n);
        length += n;
    }

    /** The patch-id as 40 hex digits, or {@code null} when no patch line was hashed (git prints nothing then). */
    public String hex() {
        if (!done) {
            if (length > 0) {
                endOfLine();
            }
            flushFile();
            done = true;
        }
        return hashed == 0 ? null : HexFormat.of().formatHex(sum);
    }

    private void endOfLine() {
        try {
            consume(line, 0, length);
        } finally {
            length = 0;
        }
    }

    /** One line of git's loop, {@code b[off, off + n)} including its newline. */
    private void consume(byte[] b, int off, int n) {
        if (done) {
            return;
        }
        cur = b;
        at = off;
        len = n;
        if (startsWith("\\ ") && len > 12) {
            return; // "\ No newline at end of file"
        }
        if (hashed == 0 && !startsWith("diff ")) {
            return; // commit message or other preamble
        }
        if (before == -1) {
            if (startsWith("GIT binary patch") || startsWith("Binary files")) {
                binary = true;
                before = 0;
                update(preId);
                update(postId);
                flushFile();
                return;
            } else if (startsWith("index ")) {
                readIndexLine();
                return;
            } else if (startsWith("--- ")) {
                before = after = 1;
            } else if (!isAlpha(cur[at])) {
                done = true; // git stops reading this patch here
                flushFile();
                return;
            }
        }
        if (binary) {
            if (startsWith("diff ")) {
                binary = false;
                before = -1;
            }
            return;
        }
        if (before == 0 && after == 0) {
            if (startsWith("@@ -")) {
                scanHunkHeader();
                return;
            }
            if (!startsWith("diff ")) {
                done = true;
                flushFile();
                return;
            }
            flushFile();
            before = after = -1;
        }
        byte first = cur[at];
        if (first == '-' || first == ' ') {
            before--;
        }
        if (first == '+' || first == ' ') {
            after--;
        }
        hashWithoutSpace();
    }

    /**
     * Hashes the current line with C's white space left out, compacted into the line buffer (in place when the line
     * is there: nothing is written ahead of what is read).
     */
    private void hashWithoutSpace() {
        if (len > line.length) {
            line = new byte[Math.max(line.length * 2, len)];
        }
        byte[] l = line;
        int n = 0;
        for (int i = at, end = at + len; i < end; i++) {
            byte c = cur[i];
            if (!isSpace(c)) {
                l[n++] = c;
            }
        }
        hashed += n;
        file.update(l, 0, n);
    }

    private void readIndexLine() {
        String s = new String(cur, at + 6, len - 6, java.nio.charset.StandardCharsets.ISO_8859_1);
        int dots = s.indexOf("..");
        if (dots < 0) {
            return;
        }
        int end = s.indexOf(' ', dots);
        if (end < 0) {
            end = s.length() - 1; // git cuts the last character: the newline
        }
        preId = s.substring(0, dots);
        postId = s.substring(dots + 2, Math.max(dots + 2, end));
    }

    /** git's scan_hunk_header: the line counts of "@@ -a,b +c,d @@"; leaves the state alone when malformed. */
    private void scanHunkHeader() {
        int[] pos = {4};
        int b = countAt(pos);
        if (b < 0 || pos[0] >= len || cur[at + pos[0]] != ' ' || pos[0] + 1 >= len || cur[at + pos[0] + 1] != '+') {
            return;
        }
        pos[0] += 2;
        int a = countAt(pos);
        if (a < 0) {
            return;
        }
        before = b;
        after = a;
    }

    /** Reads "n" or "start,n" at pos; returns n, or -1 when there are no digits. */
    private int countAt(int[] pos) {
        int value = digits(pos);
        if (value < 0) {
            return -1;
        }
        if (pos[0] < len && cur[at + pos[0]] == ',') {
            pos[0]++;
            value = digits(pos);
        }
        return value;
    }

    private int digits(int[] pos) {
        int start = pos[0];
        int v = 0;
        while (pos[0] < len && cur[at + pos[0]] >= '0' && cur[at + pos[0]] <= '9') {
            v = v * 10 + (cur[at + pos[0]] - '0');
            pos[0]++;
        }
        return pos[0] == start ? -1 : v;
    }

    private void update(String ascii) {
        file.update(ascii.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    /** git's flush_one_hunk: adds this file's SHA-1 to the sum (20 bytes, carry upwards) and starts a new one. */
    private void flushFile() {
        byte[] h = file.digest();
        int carry = 0;
        for (int i = 0; i < sum.length; i++) {
            carry += (sum[i] & 0xff) + (h[i] & 0xff);
            sum[i] = (byte) carry;
            carry >>>= 8;
        }
    }

    private boolean startsWith(String prefix) {
        if (len < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (cur[at + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAlpha(byte b) {
        return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
    }

    /** C's isspace() in the C locale: space, \t, \n, \v, \f, \r, as one test of a bit mask. */
    private static boolean isSpace(byte b) {
        return b >= 0 && b <= ' ' && (SPACES & (1L << b)) != 0;
    }

    private static final long SPACES = 1L << ' ' | 1L << '\t' | 1L << '\n' | 1L << 0x0b | 1L << '\f' | 1L << '\r';

    private static MessageDigest sha1() {
        try {
            return MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JDK", e);
        }
    }
}
