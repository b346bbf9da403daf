package io.commitflow.git;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A byte sink for patch text that keeps at most a budget of bytes and lines and remembers that it cut.
 * Cut text ends at the last complete line, so a patch is never cut mid-line.
 */
final class PatchText extends OutputStream {
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
    private final int maxBytes;
    private final int maxLines;
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

    @Override
    public void write(int b) {
        if (full()) {
            return;
        }
        if (buf.size() >= maxBytes) {
            cutBytes = true;
            return;
        }
        buf.write(b);
        if (b == '\n' && ++lines >= maxLines) {
            cutLines = true;
        }
    }

    @Override
    public void write(byte[] b, int off, int len) {
        for (int i = off; i < off + len && !full(); i++) {
            write(b[i]);
        }
    }

    String truncation() {
        if (cutBytes) {
            return "patch bytes>" + maxBytes;
        }
        return cutLines ? "patch lines>" + maxLines : "";
    }

    String text() {
        byte[] bytes = buf.toByteArray();
        int end = bytes.length;
        if (full()) {
            while (end > 0 && bytes[end - 1] != '\n') {
                end--;
            }
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8);
    }
}
