package io.commitflow.git;

import java.io.OutputStream;

/**
 * Reads the patch text of one file as it is written and counts what a reviewer counts: lines added and deleted
 * inside hunks, and whether git called the file binary. Lets the diff be computed once, for text, counts and
 * patch-id together.
 */
final class FileStats extends OutputStream {
    private boolean lineStart = true;
    private boolean inHunks;
    private boolean binary;
    private int added;
    private int deleted;
    private final byte[] head = new byte[16];
    private int headLength;

    void reset() {
        lineStart = true;
        inHunks = false;
        binary = false;
        added = 0;
        deleted = 0;
        headLength = 0;
    }

    boolean binary() {
        return binary;
    }

    int added() {
        return added;
    }

    int deleted() {
        return deleted;
    }

    @Override
    public void write(int b) {
        if (lineStart) {
            lineStart = false;
            headLength = 0;
            if (inHunks) {
                if (b == '+') {
                    added++;
                } else if (b == '-') {
                    deleted++;
                }
            }
        }
        if (headLength < head.length) {
            head[headLength++] = (byte) b;
            if (headLength == 3 && head[0] == '@' && head[1] == '@' && head[2] == ' ') {
                inHunks = true;
            } else if (!inHunks && headLength == 12 && startsWith("Binary files")) {
                binary = true;
            } else if (!inHunks && headLength == 16 && startsWith("GIT binary patch")) {
                binary = true;
            }
        }
        if (b == '\n') {
            lineStart = true;
        }
    }

    @Override
    public void write(byte[] b, int off, int len) {
        for (int i = off; i < off + len; i++) {
            // a fast path for the middle of long lines: only line starts matter
            if (!lineStart && headLength >= head.length) {
                int nl = i;
                while (nl < off + len && b[nl] != '\n') {
                    nl++;
                }
                if (nl == off + len) {
                    return;
                }
                i = nl;
            }
            write(b[i]);
        }
    }

    private boolean startsWith(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (head[i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
