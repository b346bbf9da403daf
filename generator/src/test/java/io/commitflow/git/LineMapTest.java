package io.commitflow.git;

import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.util.IntList;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Our line index gives the same lines as JGit's own, and equals the plain one-byte-at-a-time index below. */
class LineMapTest {
    @Test
    void splitsLikeJGit() {
        for (String s : new String[] {"", "a", "a\n", "a\nb", "a\nb\n", "\n\n", "x\r\ny\r\n", "no newline at end"}) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            RawText ours = new RawText(b, GitPatchWriter.textLineMap(b));
            RawText theirs = new RawText(b);
            assertThat(ours.size()).as(s).isEqualTo(theirs.size());
            for (int i = 0; i < theirs.size(); i++) {
                assertThat(ours.getString(i)).as(s + " line " + i).isEqualTo(theirs.getString(i));
            }
            assertThat(ours.isMissingNewlineAtEnd()).isEqualTo(theirs.isMissingNewlineAtEnd());
        }
    }

    /** The word-at-a-time scan equals the plain line index and git's binary rule, at every length and offset. */
    @Test
    void textLineMapIsLineMapOrBinary() {
        Random random = new Random(42);
        for (int round = 0; round < 20_000; round++) {
            int n = round < 100 ? round % 40 : random.nextInt(round % 3 == 0 ? 8_100 : 300);
            if (round % 50 == 0) {
                n = 7_990 + random.nextInt(24);
            }
            byte[] b = new byte[n];
            for (int i = 0; i < n; i++) {
                int r = random.nextInt(20);
                b[i] = (byte) (r == 0 ? '\n' : r == 1 ? '\r' : r == 2 ? 0x8a : r == 3 ? 0x0b : 'a' + r);
            }
            if (n > 0 && random.nextInt(4) == 0) {
                b[random.nextInt(n)] = 0; // a NUL somewhere: binary only within the first 8000 bytes
            }
            if (n > 0 && random.nextBoolean()) {
                b[n - 1] = '\n';
            }
            IntList fast = GitPatchWriter.textLineMap(b);
            if (GitPatchWriter.isBinary(b)) {
                assertThat(fast).as("length %d", n).isNull();
                continue;
            }
            IntList plain = lineMap(b);
            assertThat(fast).as("length %d", n).isNotNull();
            assertThat(fast.toString()).as("length %d", n).isEqualTo(plain.toString());
        }
    }

    /** The plain line index, one byte at a time: what the word-at-a-time scan must equal. */
    private static IntList lineMap(byte[] b) {
        IntList map = new IntList(b.length / 32 + 3);
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
}
