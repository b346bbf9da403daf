package io.commitflow.git;

import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevBlob;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ObjectCacheTest {
    @TempDir
    Path root;
    private GitFixture fx;

    @BeforeEach
    void setUp() throws Exception {
        fx = new GitFixture(root, "repo.git");
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void servesAnObjectOpenedBeforeFromMemory() throws Exception {
        RevBlob blob = fx.git.blob("hello\n");
        ObjectCache cache = new ObjectCache(1 << 20, 1 << 20);
        try (ObjectReader plain = fx.repo.newObjectReader()) {
            ObjectReader r = cache.reader(fx.repo, plain);
            assertThat(r.open(blob, Constants.OBJ_BLOB).getCachedBytes()).isEqualTo("hello\n".getBytes(StandardCharsets.UTF_8));
            assertThat(r.open(blob.copy(), Constants.OBJ_BLOB).getCachedBytes()).isEqualTo("hello\n".getBytes(StandardCharsets.UTF_8));
            assertThat(r.getObjectSize(blob, Constants.OBJ_BLOB)).isEqualTo(6);
            assertThat(cache.hits()).isEqualTo(1);
            assertThat(cache.misses()).isEqualTo(1);
        }
    }

    @Test
    void keepsTheTypeCheckOfTheRepository() throws Exception {
        RevBlob blob = fx.git.blob("not a tree\n");
        ObjectCache cache = new ObjectCache(1 << 20, 1 << 20);
        try (ObjectReader plain = fx.repo.newObjectReader()) {
            ObjectReader r = cache.reader(fx.repo, plain);
            r.open(blob, Constants.OBJ_BLOB);
            assertThatThrownBy(() -> r.open(blob, Constants.OBJ_TREE)).isInstanceOf(IncorrectObjectTypeException.class);
        }
    }

    @Test
    void neverServesOneRepositorysObjectsToAnother() throws Exception {
        RevBlob blob = fx.git.blob("shared content\n");
        ObjectCache cache = new ObjectCache(1 << 20, 1 << 20);
        try (ObjectReader plain = fx.repo.newObjectReader()) {
            cache.reader(fx.repo, plain).open(blob, Constants.OBJ_BLOB);
            cache.reader(new Object(), plain).open(blob, Constants.OBJ_BLOB);
            assertThat(cache.hits()).isZero();
        }
    }

    @Test
    void staysWithinItsBytesAndPassesLargeObjectsThrough() throws Exception {
        ObjectCache cache = new ObjectCache(4_000, 1_000);
        try (ObjectReader plain = fx.repo.newObjectReader()) {
            ObjectReader r = cache.reader(fx.repo, plain);
            for (int i = 0; i < 20; i++) {
                r.open(fx.git.blob(GitFixture.lines(50, "blob " + i)), Constants.OBJ_BLOB);
            }
            assertThat(cache.bytes()).isLessThanOrEqualTo(4_000);
            RevBlob big = fx.git.blob(GitFixture.lines(500, "big"));
            r.open(big, Constants.OBJ_BLOB);
            r.open(big, Constants.OBJ_BLOB);
            assertThat(cache.hits()).isZero();
        }
    }

    @Test
    void aDifferWithoutCacheWritesTheSameDiffs() throws Exception {
        var c1 = fx.git.commit().add("a.txt", GitFixture.lines(40, "a")).add("b.txt", "b\n").create();
        var c2 = fx.git.commit().parent(c1).add("a.txt", GitFixture.lines(41, "a")).rm("b.txt").add("c.txt", "b\n").create();
        var c3 = fx.git.commit().parent(c2).add("a.txt", GitFixture.lines(39, "a")).create();
        CommitDiffer cached = new CommitDiffer(DiffBudget.DEFAULT);
        CommitDiffer uncached = new CommitDiffer(DiffBudget.DEFAULT, 0);
        for (var c : new org.eclipse.jgit.revwalk.RevCommit[] {c1, c2, c3, c2, c1}) {
            var event = io.commitflow.event.TestEvents.commit("repo", c.name());
            assertThat(cached.diff(fx.repo, event)).isEqualTo(uncached.diff(fx.repo, event));
        }
    }
}
