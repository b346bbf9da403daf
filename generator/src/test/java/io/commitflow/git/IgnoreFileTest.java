package io.commitflow.git;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The ignore file matches as {@code git ls-files --ignored --exclude-from} does, which the hook uses. */
class IgnoreFileTest {
    private static IgnoreFile of(String text) throws Exception {
        return IgnoreFile.parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void matchesAsGitDoes() throws Exception {
        IgnoreFile f = of("# lock files\npackage-lock.json\n*.lock\n!keep.lock\ngen/\n/top.txt\ndocs/**/*.svg\n");
        assertThat(f.ignores("package-lock.json")).isTrue();
        assertThat(f.ignores("web/package-lock.json")).as("a name without a slash matches at any depth").isTrue();
        assertThat(f.ignores("a/b/yarn.lock")).isTrue();
        assertThat(f.ignores("keep.lock")).as("taken back by !").isFalse();
        assertThat(f.ignores("gen/Out.java")).as("under an ignored folder").isTrue();
        assertThat(f.ignores("src/gen/deep/Out.java")).isTrue();
        assertThat(f.ignores("gen")).as("a file named like the folder pattern").isFalse();
        assertThat(f.ignores("top.txt")).isTrue();
        assertThat(f.ignores("d/top.txt")).as("anchored at the top").isFalse();
        assertThat(f.ignores("docs/a/b/logo.svg")).isTrue();
        assertThat(f.ignores("src/Main.java")).isFalse();
    }

    @Test
    void nothingUnderAnIgnoredFolderIsTakenBack() throws Exception {
        IgnoreFile f = of("build/\n!build/keep.txt\n");
        assertThat(f.ignores("build/keep.txt")).isTrue();
    }
}
