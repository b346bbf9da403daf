package io.commitflow.git;

import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Reason;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MirrorRootTest {
    @TempDir
    Path tmp;
    private Path root;
    private MirrorRoot mirrors;

    @BeforeEach
    void setUp() throws Exception {
        root = Files.createDirectory(tmp.resolve("mirrors"));
        bare(root.resolve("team/app.git"));
        bare(root.resolve("plain"));
        try (Repository r = new FileRepositoryBuilder().setWorkTree(root.resolve("work").toFile()).build()) {
            r.create();
        }
        bare(tmp.resolve("outside.git"));
        Files.createSymbolicLink(root.resolve("escape.git"), tmp.resolve("outside.git"));
        Files.createSymbolicLink(root.resolve("alias.git"), root.resolve("team/app.git"));
        Files.createDirectories(root.resolve("not-a-repo"));
        mirrors = new MirrorRoot(root);
    }

    private static void bare(Path dir) throws Exception {
        try (Repository r = new FileRepositoryBuilder().setGitDir(dir.toFile()).setBare().build()) {
            r.create(true);
        }
    }

    @Test
    void resolvesBareRepositoryWithOrWithoutGitSuffix() throws Exception {
        File expected = root.resolve("team/app.git").toRealPath().toFile();
        assertThat(mirrors.resolve("team/app")).isEqualTo(expected);
        assertThat(mirrors.resolve("team/app.git")).isEqualTo(expected);
        assertThat(mirrors.resolve("plain")).isEqualTo(root.resolve("plain").toRealPath().toFile());
    }

    @Test
    void resolvesWorkingTreeToItsGitDirectory() throws Exception {
        assertThat(mirrors.resolve("work")).isEqualTo(root.resolve("work/.git").toRealPath().toFile());
    }

    @Test
    void followsSymlinkThatStaysInsideTheRoot() throws Exception {
        assertThat(mirrors.resolve("alias")).isEqualTo(root.resolve("team/app.git").toRealPath().toFile());
    }

    @ParameterizedTest
    @ValueSource(strings = {"../outside.git", "team/../../outside", "/etc", "a//b", "./plain"})
    void rejectsRepoOutsideMirrorRoot(String name) {
        assertReason(name, Reason.BAD_REPO_NAME);
    }

    @Test
    void rejectsSymlinkPointingOutOfTheRoot() {
        assertReason("escape", Reason.BAD_REPO_NAME);
    }

    @Test
    void rejectsDirectoryThatIsNoRepository() {
        assertReason("not-a-repo", Reason.NO_MIRROR);
        assertReason("missing", Reason.NO_MIRROR);
    }

    @Test
    void refusesMissingRoot() {
        assertThatThrownBy(() -> new MirrorRoot(tmp.resolve("nope"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not exist");
    }

    private void assertReason(String name, Reason reason) {
        assertThatThrownBy(() -> mirrors.resolve(name))
                .isInstanceOf(InvalidEventException.class)
                .satisfies(e -> assertThat(((InvalidEventException) e).reason()).isEqualTo(reason));
    }
}
