package io.commitflow.git;

import org.eclipse.jgit.diff.RawText;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Our line index gives the same lines as JGit's own. */
class LineMapTest {
    @Test
    void splitsLikeJGit() {
        for (String s : new String[] {"", "a", "a\n", "a\nb", "a\nb\n", "\n\n", "x\r\ny\r\n", "no newline at end"}) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            RawText ours = new RawText(b, GitPatchWriter.lineMap(b));
            RawText theirs = new RawText(b);
            assertThat(ours.size()).as(s).isEqualTo(theirs.size());
            for (int i = 0; i < theirs.size(); i++) {
                assertThat(ours.getString(i)).as(s + " line " + i).isEqualTo(theirs.getString(i));
            }
            assertThat(ours.isMissingNewlineAtEnd()).isEqualTo(theirs.isMissingNewlineAtEnd());
        }
    }
}
