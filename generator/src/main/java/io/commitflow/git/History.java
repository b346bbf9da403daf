package io.commitflow.git;

import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevSort;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A real repository's history, read with JGit, in the order it was written (parents before children). */
public final class History {
    private History() {}

    /** One commit as the replay publishes it. */
    public record Commit(String sha, List<String> parents, String author, long commitTimeMs, String message) {
        /** The first line of the message. */
        public String subject() {
            int nl = message.indexOf('\n');
            return (nl < 0 ? message : message.substring(0, nl)).strip();
        }
    }

    /**
     * Where a repository lies as a mirror: the folder that holds it and its name there. A work tree
     * {@code /src/app} (with {@code .git}) is {@code ("/src", "app")}; a bare {@code /m/app.git} is
     * {@code ("/m", "app.git")}.
     */
    public record Location(Path root, String name) {}

    /**
     * Opens the repository at {@code path}: a work tree, its {@code .git} folder, or a bare repository.
     *
     * @throws IllegalArgumentException when {@code path} holds no Git repository
     */
    public static Repository open(Path path) throws IOException {
        File dir = path.toFile();
        if (!Files.isDirectory(path)) {
            throw new IllegalArgumentException(path + " is not a directory");
        }
        FileRepositoryBuilder b = new FileRepositoryBuilder().setMustExist(true);
        if (Files.isDirectory(path.resolve(".git"))) {
            b.setWorkTree(dir);
        } else if (Files.isRegularFile(path.resolve("HEAD")) && Files.isDirectory(path.resolve("objects"))) {
            b.setGitDir(dir).setBare();
        } else {
            throw new IllegalArgumentException(path + " is not a Git repository (no .git folder, and not a bare repository)");
        }
        return b.build();
    }

    public static Location location(Repository repo) throws IOException {
        Path gitDir = repo.getDirectory().toPath().toRealPath();
        Path repoDir = gitDir.getFileName().toString().equals(".git") ? gitDir.getParent() : gitDir;
        Path root = repoDir.getParent() == null ? repoDir : repoDir.getParent();
        return new Location(root, repoDir.getFileName().toString());
    }

    /**
     * The first {@code max} commits reachable from {@code rev}, oldest first (parents before children).
     *
     * @throws IllegalArgumentException when {@code rev} does not resolve to a commit
     */
    public static List<Commit> oldestFirst(Repository repo, String rev, int max) throws IOException {
        ObjectId start = resolve(repo, rev);
        List<Commit> out = new ArrayList<>();
        try (RevWalk walk = new RevWalk(repo)) {
            walk.sort(RevSort.TOPO, true);
            walk.sort(RevSort.REVERSE, true);
            walk.markStart(walk.parseCommit(start));
            for (RevCommit c : walk) {
                if (out.size() >= max) {
                    break;
                }
                out.add(toCommit(c));
            }
        }
        return out;
    }

    /**
     * Resolves {@code rev}; a {@code HEAD} that names no commit (a bare mirror whose HEAD points at a branch it
     * does not have) falls back to {@code main}, {@code master}, or the only branch.
     */
    public static ObjectId resolve(Repository repo, String rev) throws IOException {
        ObjectId id = repo.resolve(rev);
        if (id == null && rev.equals(Constants.HEAD)) {
            for (String b : List.of("refs/heads/main", "refs/heads/master")) {
                if ((id = repo.resolve(b)) != null) {
                    return id;
                }
            }
            List<Ref> branches = repo.getRefDatabase().getRefsByPrefix(Constants.R_HEADS);
            if (branches.size() == 1) {
                id = branches.get(0).getObjectId();
            }
        }
        if (id == null) {
            throw new IllegalArgumentException("no commit " + rev + " in " + repo.getDirectory() + " (an empty repository?)");
        }
        return id;
    }

    private static Commit toCommit(RevCommit c) {
        List<String> parents = new ArrayList<>(c.getParentCount());
        for (RevCommit p : c.getParents()) {
            parents.add(p.name());
        }
        return new Commit(c.name(), List.copyOf(parents), author(c), c.getCommitTime() * 1000L, c.getFullMessage());
    }

    /** A commit's author as the replayed events name it: {@code Name <email>}. */
    public static String author(RevCommit c) {
        PersonIdent a = c.getAuthorIdent();
        return a.getName() + " <" + a.getEmailAddress() + ">";
    }
}
