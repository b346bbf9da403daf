package io.commitflow.git;

import org.eclipse.jgit.junit.TestRepository;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

import java.io.IOException;
import java.nio.file.Path;

/** A bare on-disk repository under a mirror root, built with JGit's {@link TestRepository}. */
public final class GitFixture implements AutoCloseable {
    public final Path root;
    public final Repository repo;
    public final TestRepository<Repository> git;

    public GitFixture(Path root, String name) throws IOException {
        this.root = root;
        this.repo = new FileRepositoryBuilder().setGitDir(root.resolve(name).toFile()).setBare().build();
        repo.create(true);
        this.git = new TestRepository<>(repo);
    }

    /** {@code n} numbered lines, each ending in a newline. */
    public static String lines(int n, String prefix) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            b.append(prefix).append(' ').append(i).append('\n');
        }
        return b.toString();
    }

    @Override
    public void close() {
        git.close(); // closes the repository too
    }
}
