package io.commitflow.testing;

import org.eclipse.jgit.junit.TestRepository;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A bare repository with a generated history of small Java changes, built with JGit's TestRepository. */
public final class GitHistory {
    private GitHistory() {}

    /**
     * Creates {@code root/name} with {@code n} commits on {@code refs/heads/main}, oldest first in the result;
     * each commit adds or edits a class and has a realistic subject.
     */
    public static List<RevCommit> create(Path root, String name, int n) throws Exception {
        try (Repository repo = new FileRepositoryBuilder().setGitDir(root.resolve(name).toFile()).setBare().build()) {
            repo.create(true);
            try (TestRepository<Repository> git = new TestRepository<>(repo)) {
                List<RevCommit> commits = new ArrayList<>();
                RevCommit parent = null;
                for (int i = 0; i < n; i++) {
                    String cls = "Widget" + (i % 7);
                    var b = parent == null ? git.commit() : git.commit().parent(parent);
                    parent = b.add("src/main/java/app/" + cls + ".java",
                                    "package app;\n\nclass " + cls + " {\n    int version = " + i + ";\n}\n")
                            .message((i % 7 == i ? "Add " : "Bump version of ") + cls + " to " + i + "\n")
                            .create();
                    commits.add(parent);
                }
                git.update("refs/heads/main", parent);
                return commits;
            }
        }
    }
}
