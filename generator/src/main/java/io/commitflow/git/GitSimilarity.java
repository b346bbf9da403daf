package io.commitflow.git;

import java.util.HashMap;
import java.util.Map;

/**
 * git's rename similarity ({@code diffcore-delta.c}): both files are cut into spans that end at a newline or
 * after 64 bytes (a CR before LF is skipped in text files), each span is hashed, and the score is the bytes the
 * destination shares with the source over the larger file size. JGit blends in 1% of path-name similarity, so
 * its percentages can be one off git's; the {@code similarity index} line, and the patch-id, need git's.
 */
final class GitSimilarity {
    private static final int HASHBASE = 107927;
    private static final long MAX_SCORE = 60000; // git's unit; percentages are score * 100 / MAX_SCORE

    private GitSimilarity() {}

    /** The similarity in percent (0–100) as git prints it in {@code similarity index N%}. */
    static int percent(byte[] src, byte[] dst) {
        long max = Math.max(src.length, dst.length);
        if (max == 0) {
            return 100;
        }
        Map<Integer, Long> s = spans(src);
        Map<Integer, Long> d = spans(dst);
        long copied = 0;
        for (var e : s.entrySet()) {
            Long other = d.get(e.getKey());
            if (other != null) {
                copied += Math.min(e.getValue(), other);
            }
        }
        long score = dst.length == 0 ? 0 : copied * MAX_SCORE / max;
        return (int) (score * 100 / MAX_SCORE);
    }

    private static Map<Integer, Long> spans(byte[] buf) {
        boolean text = !GitPatchWriter.isBinary(buf);
        Map<Integer, Long> counts = new HashMap<>();
        int n = 0;
        int accum1 = 0;
        int accum2 = 0;
        for (int i = 0; i < buf.length; i++) {
            int c = buf[i] & 0xff;
            int old1 = accum1;
            if (text && c == '\r' && i + 1 < buf.length && buf[i + 1] == '\n') {
                continue;
            }
            accum1 = (accum1 << 7) ^ (accum2 >>> 25);
            accum2 = (accum2 << 7) ^ (old1 >>> 25);
            accum1 += c;
            if (++n < 64 && c != '\n') {
                continue;
            }
            counts.merge(hash(accum1, accum2), (long) n, Long::sum);
            n = 0;
            accum1 = 0;
            accum2 = 0;
        }
        if (n > 0) {
            counts.merge(hash(accum1, accum2), (long) n, Long::sum);
        }
        return counts;
    }

    /** (accum1 + accum2 * 0x61) % HASHBASE in C's unsigned 32-bit arithmetic. */
    private static int hash(int accum1, int accum2) {
        long v = (accum1 + accum2 * 0x61) & 0xffffffffL;
        return (int) (v % HASHBASE);
    }
}
