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
        Repository repo = new FileRepositoryBuilder().setGitDir(root.resolve(name).toFile()).setBare().build();
        repo.create(true);
        try (TestRepository<Repository> git = new TestRepository<>(repo)) { // closes the repository too
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

    /**
     * Adds {@code n} commits on {@code refs/heads/feature} of {@code root/name}, from {@code base}: commit i adds
     * {@code docs/<file>-i.md} holding {@code "# <File> i"} with the subject {@code "<subject> i"}; oldest first.
     */
    public static List<RevCommit> featureBranch(Path root, String name, RevCommit base, int n, String file,
                                                String subject) throws Exception {
        try (Repository repo = new FileRepositoryBuilder().setGitDir(root.resolve(name).toFile()).build();
             TestRepository<Repository> git = new TestRepository<>(repo)) {
            List<RevCommit> out = new ArrayList<>();
            RevCommit parent = base;
            for (int i = 0; i < n; i++) {
                parent = git.commit().parent(parent).add("docs/" + file + "-" + i + ".md",
                                "# " + Character.toUpperCase(file.charAt(0)) + file.substring(1) + " " + i + "\n")
                        .message(subject + " " + i).create();
                out.add(parent);
            }
            git.update("refs/heads/feature", parent);
            return out;
        }
    }

    /** A native commit event of tenant {@code acme} for {@code c} in repository {@code repo}, with its parents. */
    public static byte[] commitEvent(String repo, RevCommit c) {
        return commitEvent("acme", repo, c);
    }

    /** A native commit event of {@code tenant} for {@code c} in repository {@code repo}, with its parents. */
    public static byte[] commitEvent(String tenant, String repo, RevCommit c) {
        List<String> parents = new ArrayList<>();
        for (RevCommit p : c.getParents()) {
            parents.add(p.name());
        }
        return io.commitflow.event.WireFormat.commit(tenant, repo, c.name(), parents, "A <a@example.com>", 1L,
                c.getFullMessage(), null);
    }

    /** {@link #commitEvent} of each commit, in order. */
    public static List<byte[]> commitEvents(String repo, List<RevCommit> commits) {
        return commits.stream().map(c -> commitEvent(repo, c)).toList();
    }
}
