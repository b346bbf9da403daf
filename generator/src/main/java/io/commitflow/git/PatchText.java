package io.commitflow.git;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A byte sink for patch text that keeps at most a budget of bytes and lines and remembers that it cut.
 * Cut text ends at the last complete line, so a patch is never cut mid-line.
 */
final class PatchText extends OutputStream {
    private final int maxBytes;
    private final int maxLines;
    private byte[] buf = new byte[8192];
    private int size;
    private int lines;
    private boolean cutBytes;
    private boolean cutLines;

    PatchText(int maxBytes, int maxLines) {
        this.maxBytes = maxBytes;
        this.maxLines = maxLines;
    }

    boolean full() {
        return cutBytes || cutLines;
    }

    private final byte[] one = new byte[1];

    @Override
    public void write(int b) {
        if (full()) {
            return;
        }
        one[0] = (byte) b;
        write(one, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        int i = off;
        int end = off + len;
        while (i < end && !full()) {
            if (lines >= maxLines) {
                cutLines = true; // more text after the last line we keep
                return;
            }
            if (size >= maxBytes) {
                cutBytes = true;
                return;
            }
            int limit = Math.min(end, i + (maxBytes - size));
            int j = i;
            while (j < limit && b[j] != '\n') {
                j++;
            }
            boolean newline = j < limit;
            int n = (newline ? j + 1 : j) - i;
            ensure(size + n);
            System.arraycopy(b, i, buf, size, n);
            size += n;
            i += n;
            if (newline) {
                lines++;
            }
        }
    }

    private void ensure(int capacity) {
        if (capacity > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(capacity, Math.min(maxBytes, buf.length * 2)));
        }
    }

    String truncation() {
        if (cutBytes) {
            return "patch bytes>" + maxBytes;
        }
        return cutLines ? "patch lines>" + maxLines : "";
    }

    String text() {
        int end = size;
        if (full()) {
            while (end > 0 && buf[end - 1] != '\n') {
                end--;
            }
        }
        return new String(buf, 0, end, StandardCharsets.UTF_8);
    }
}
