package io.commitflow.git;

import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Reason;
import io.commitflow.event.Validation;
import org.eclipse.jgit.lib.RepositoryCache;
import org.eclipse.jgit.util.FS;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The directory under which all mirrors live. Resolves a repository name from an event to a Git directory
 * and refuses every name that would leave the root: {@code ..}, absolute paths, and symlinks pointing out.
 *
 * <p>{@code repo} resolves to the first of {@code root/repo} (a bare repository), {@code root/repo.git}
 * and {@code root/repo/.git} that is a Git repository.
 */
public final class MirrorRoot {
    private final Path root;

    /** @throws IllegalArgumentException when {@code root} is not an existing directory */
    public MirrorRoot(Path root) {
        try {
            this.root = root.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException("mirror root " + root + " does not exist", e);
        }
        if (!Files.isDirectory(this.root)) {
            throw new IllegalArgumentException("mirror root " + root + " is not a directory");
        }
    }

    public Path path() {
        return root;
    }

    /** The Git directory of {@code repo}, checked to lie inside the root after following symlinks. */
    public File resolve(String repo) throws InvalidEventException {
        Validation.repo(repo);
        Path named;
        try {
            named = root.resolve(repo).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            throw new InvalidEventException(Reason.BAD_REPO_NAME, "repo is not a path on this system: " + e.getReason());
        }
        if (!named.startsWith(root)) {
            throw new InvalidEventException(Reason.BAD_REPO_NAME, "repo " + repo + " resolves outside the mirror root");
        }
        for (Path candidate : List.of(named, Path.of(named + ".git"), named.resolve(".git"))) {
            if (!Files.exists(candidate)) {
                continue;
            }
            Path real;
            try {
                real = candidate.toRealPath();
            } catch (IOException e) {
                continue;
            }
            if (!real.startsWith(root)) {
                throw new InvalidEventException(Reason.BAD_REPO_NAME,
                        "repo " + repo + " leads outside the mirror root through a symbolic link");
            }
            if (RepositoryCache.FileKey.isGitRepository(real.toFile(), FS.DETECTED)) {
                return real.toFile();
            }
        }
        throw new InvalidEventException(Reason.NO_MIRROR, "no Git repository named " + repo + " under the mirror root");
    }
}
