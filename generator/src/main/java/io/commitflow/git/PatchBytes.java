package io.commitflow.git;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes of one file's patch, appended in place: a growable array that a {@link CommitDiffer} reuses for every
 * file, so that the patch is written once and handed to the patch text and the patch-id as one block.
 */
final class PatchBytes {
    private static final int INITIAL = 64 << 10;
    /** A buffer grown past this by one huge file is dropped afterwards rather than kept for the next commit. */
    private static final int KEEP = 1 << 20;

    private byte[] buf = new byte[INITIAL];
    private int size;

    void clear() {
        size = 0;
    }

    /** Empties the buffer, and lets go of it when a huge file grew it. */
    void release() {
        size = 0;
        if (buf.length > KEEP) {
            buf = new byte[INITIAL];
        }
    }

    byte[] array() {
        return buf;
    }

    int size() {
        return size;
    }

    PatchBytes append(byte b) {
        if (size == buf.length) {
            grow(1);
        }
        buf[size++] = b;
        return this;
    }

    PatchBytes append(char ascii) {
        return append((byte) ascii);
    }

    PatchBytes append(byte[] b, int off, int len) {
        if (size + len > buf.length) {
            grow(len);
        }
        System.arraycopy(b, off, buf, size, len);
        size += len;
        return this;
    }

    PatchBytes append(byte[] b) {
        return append(b, 0, b.length);
    }

    /** Appends a string that is known to be ASCII (headers, modes, ids) without an encoder. */
    PatchBytes ascii(String s) {
        int n = s.length();
        if (size + n > buf.length) {
            grow(n);
        }
        for (int i = 0; i < n; i++) {
            buf[size++] = (byte) s.charAt(i);
        }
        return this;
    }

    /** Appends a string in UTF-8 (paths). */
    PatchBytes utf8(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return append(s.getBytes(StandardCharsets.UTF_8));
            }
        }
        return ascii(s);
    }

    /** Appends a non-negative decimal number. */
    PatchBytes number(int n) {
        if (n < 0) {
            return ascii(Integer.toString(n));
        }
        int digits = 1;
        for (int v = n; v >= 10; v /= 10) {
            digits++;
        }
        if (size + digits > buf.length) {
            grow(digits);
        }
        int end = size + digits;
        for (int i = end - 1, v = n; i >= size; i--, v /= 10) {
            buf[i] = (byte) ('0' + v % 10);
        }
        size = end;
        return this;
    }

    private void grow(int more) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
    }
}
