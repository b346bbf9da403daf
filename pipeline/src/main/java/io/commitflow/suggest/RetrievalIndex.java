package io.commitflow.suggest;

import io.commitflow.generate.IndexedCommit;
import io.commitflow.generate.RepoKnowledge;
import io.commitflow.generate.RepoModel;
import io.commitflow.gpu.RetrievalEngine;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One task's retrieval index: the engine (CUDA or CPU) and the memory ({@link RepoKnowledge}) of each repository
 * whose key group the task owns, each repository one engine group. Built by its {@link SuggestOperator} from keyed
 * state when the task starts (so after a restore at another parallelism it holds exactly the task's repositories) and
 * kept in step with that state as commits are learned; closed with the operator.
 *
 * <p>The task thread changes it under the write lock (a commit arrives, is learned); the operator's workers read it
 * under the read lock (a batch is answered), as does the task thread's CPU scan after a timeout.
 */
final class RetrievalIndex implements AutoCloseable {
    private final RetrievalEngine engine;
    private final int maxRows;
    private final int retainExtra;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, RepoKnowledge> repos = new HashMap<>();
    private int nextGroup;

    /**
     * @param maxRows     rows a request may see per repository
     * @param retainExtra rows kept beyond them, so that a request still in flight finds its whole window
     */
    RetrievalIndex(RetrievalEngine engine, int maxRows, int retainExtra) {
        this.engine = engine;
        this.maxRows = maxRows;
        this.retainExtra = retainExtra;
    }

    RetrievalEngine engine() {
        return engine;
    }

    Lock readLock() {
        return lock.readLock();
    }

    Lock writeLock() {
        return lock.writeLock();
    }

    /** The repository's memory, or null. Call with a lock held. */
    RepoKnowledge repo(String repo) {
        return repos.get(repo);
    }

    /** The repository's memory, new and empty the first time. Call with the write lock held. */
    RepoKnowledge repoOrNew(String repo) {
        // group g holds the TF-IDF rows, its complement ~g the bag-of-words rows: 2^31 repositories per task
        return repos.computeIfAbsent(repo, r -> RepoKnowledge.fresh(engine, nextGroup++, maxRows, retainExtra));
    }

    /** Loads a repository from its persisted model and rows (in any order). */
    RepoKnowledge restore(String repo, RepoModel model, Iterable<IndexedCommit> rows) {
        writeLock().lock();
        try {
            RepoKnowledge k = RepoKnowledge.restore(engine, nextGroup++, model, rows, maxRows, retainExtra);
            repos.put(repo, k);
            return k;
        } finally {
            writeLock().unlock();
        }
    }

    /** Repositories in the index. */
    int repositories() {
        readLock().lock();
        try {
            return repos.size();
        } finally {
            readLock().unlock();
        }
    }

    /** Repositories whose rows the engine had no room for: the CPU scan answers them. */
    int offEngine() {
        return (int) sum(k -> k.onEngine() ? 0 : 1);
    }

    /** Rows of all repositories, on the engine or off it. */
    long rows() {
        return sum(RepoKnowledge::size);
    }

    private long sum(java.util.function.ToLongFunction<RepoKnowledge> count) {
        readLock().lock();
        try {
            long n = 0;
            for (RepoKnowledge k : repos.values()) {
                n += count.applyAsLong(k);
            }
            return n;
        } finally {
            readLock().unlock();
        }
    }

    @Override
    public void close() {
        engine.close();
    }
}
