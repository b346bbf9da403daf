package io.commitflow.git;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The patch-id does not depend on how the text is cut into writes: a block, arbitrary pieces and single bytes (the
 * line-by-line reference path) give the same id, for well-formed patches and for any jumble of patch lines.
 */
class PatchIdTest {
    private static final String[] LINES = {
        "diff --git a/x b/x\n", "diff --git a/y z b/y z\n", "index 1111111..2222222 100644\n", "index 3..4\n",
        "--- a/x\n", "+++ b/x\n", "@@ -1,3 +1,4 @@ f()\n", "@@ -1 +1 @@\n", "@@ -0,0 +1,2 @@\n", "@@ -x +y @@\n",
        "+added line\n", "-deleted\tline \n", " context  line\n", "+\n", "-\n", " \n", "\\ No newline at end of file\n",
        "Binary files a/x and b/x differ\n", "new file mode 100644\n", "similarity index 90%\n", "From abc\n",
        "Subject: hi\n", "\n", "*weird\n", "+no newline at end", " \r\n",
    };

    @Test
    void sameIdHoweverTheTextIsWritten() {
        Random random = new Random(7);
        for (int round = 0; round < 5_000; round++) {
            StringBuilder s = new StringBuilder();
            if (round % 2 == 0) {
                s.append("diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n a\n-b\n+c\n+d\n");
            }
            for (int i = random.nextInt(40); i > 0; i--) {
                s.append(LINES[random.nextInt(LINES.length)]);
            }
            byte[] b = s.toString().getBytes(StandardCharsets.UTF_8);

            PatchId block = new PatchId();
            block.write(b, 0, b.length);
            PatchId bytes = new PatchId();
            for (byte x : b) {
                bytes.write(x);
            }
            PatchId pieces = new PatchId();
            for (int i = 0; i < b.length;) {
                int n = Math.min(b.length - i, 1 + random.nextInt(30));
                pieces.write(b, i, n);
                i += n;
            }
            String expected = bytes.hex();
            assertThat(block.hex()).as(s.toString()).isEqualTo(expected);
            assertThat(pieces.hex()).as(s.toString()).isEqualTo(expected);
        }
    }
}
