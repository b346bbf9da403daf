package io.commitflow.git;

import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Reason;
import io.commitflow.event.RepoKeys;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Open mirrors, least recently used first out. Opening a repository reads its config and pack index list,
 * so the operators keep a bounded number open instead of opening one per commit. Not thread-safe: one per
 * operator instance.
 */
public final class Mirrors implements AutoCloseable {
    private final MirrorRoot root;
    private final RepoKeys keys;
    private final Map<String, Repository> open;

    /** Mirrors named by repository alone: {@code root/repo}. */
    public Mirrors(MirrorRoot root, int maxOpen) {
        this(root, maxOpen, RepoKeys.GLOBAL);
    }

    /**
     * @param keys whose names repository names are: {@link RepoKeys#PER_TENANT}'s mirrors lie in a folder per tenant,
     *             {@code root/tenant/repo}, so that a tenant's event cannot name another's repository;
     *             {@link RepoKeys#GLOBAL}'s at {@code root/repo}
     */
    public Mirrors(MirrorRoot root, int maxOpen, RepoKeys keys) {
        JGitCaches.install();
        this.root = root;
        this.keys = keys;
        this.open = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Repository> eldest) {
                if (size() > maxOpen) {
                    eldest.getValue().close();
                    return true;
                }
                return false;
            }
        };
    }

    /** The mirror of the tenant's {@code repo}: {@code root/tenant/repo} or {@code root/repo} ({@link RepoKeys}). */
    public Repository open(String tenant, String repo) throws InvalidEventException {
        return open(keys.of(tenant, repo));
    }

    /** The mirror of {@code repo}; see {@link MirrorRoot#resolve} for the names it refuses. */
    public Repository open(String repo) throws InvalidEventException {
        Repository r = open.get(repo);
        if (r != null) {
            return r;
        }
        var gitDir = root.resolve(repo);
        try {
            r = new FileRepositoryBuilder().setGitDir(gitDir).setMustExist(true).build();
        } catch (IOException e) {
            throw new InvalidEventException(Reason.NO_MIRROR, "cannot open the mirror of " + repo + ": " + e.getMessage());
        }
        open.put(repo, r);
        return r;
    }

    @Override
    public void close() {
        open.values().forEach(Repository::close);
        open.clear();
    }
}
