package io.commitflow.suggest;

import io.commitflow.generate.RepoKnowledge;
import io.commitflow.gpu.Engines;
import io.commitflow.gpu.RetrievalEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One task's retrieval index: the engine (CUDA or CPU) and each repository's {@link RepoKnowledge}, shared by the
 * two halves of the suggest stage running in the same task — {@link IndexCommits} (keyed: owns the state, learns,
 * rebuilds the index from RocksDB after a restore) and {@link SuggestAsync} (async: answers batches). Flink chains
 * the two (same parallelism, forward), so they run in one task and find each other here by job, subtask and attempt.
 *
 * <p>{@link IndexCommits} changes the index under the write lock; batches read it under the read lock. The index is
 * {@link #ready()} once {@link IndexCommits} has rebuilt it: until then (after a restore, Flink replays requests that
 * were in flight before {@link IndexCommits} is opened) batches wait.
 */
public final class TaskIndex {
    private static final Logger LOG = LoggerFactory.getLogger(TaskIndex.class);
    private static final Map<String, TaskIndex> OPEN = new ConcurrentHashMap<>();

    private final String key;
    private final RetrievalEngine engine;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, RepoKnowledge> repos = new HashMap<>();
    private final CountDownLatch ready = new CountDownLatch(1);
    private int users;
    private int nextGroup;

    private TaskIndex(String key, RetrievalEngine engine) {
        this.key = key;
        this.engine = engine;
    }

    /** The index of this job's subtask attempt, opened by whichever half comes first. */
    static TaskIndex acquire(String key, AsyncSettings settings, int dimension) {
        synchronized (OPEN) {
            TaskIndex index = OPEN.get(key);
            if (index == null) {
                RetrievalEngine engine = Engines.open(settings.engine(), dimension, settings.deviceBudgetMiB() << 20);
                index = new TaskIndex(key, engine);
                OPEN.put(key, index);
                LOG.info("retrieval index {} opened on the {} engine", key, engine.name());
            }
            index.users++;
            return index;
        }
    }

    /** An index on {@code engine} that nobody else shares (for tests). */
    static TaskIndex standalone(RetrievalEngine engine) {
        TaskIndex index = new TaskIndex("standalone", engine);
        index.users = 1;
        index.markReady();
        return index;
    }

    /** Closes the engine when both halves have let go. */
    void release() {
        synchronized (OPEN) {
            if (--users == 0) {
                OPEN.remove(key, this);
                engine.close();
            }
        }
    }

    static String key(String jobId, String name, int subtask, int attempt) {
        return jobId + "/" + name + "/" + subtask + "/" + attempt;
    }

    public RetrievalEngine engine() {
        return engine;
    }

    public ReadWriteLock lock() {
        return lock;
    }

    /** The repository's memory, or null. Call with a lock held. */
    public RepoKnowledge repo(String repo) {
        return repos.get(repo);
    }

    /** Adds a repository's memory, built by {@code make} with the next free group. Call with the write lock held. */
    RepoKnowledge add(String repo, java.util.function.IntFunction<RepoKnowledge> make) {
        // group g holds the TF-IDF rows, its complement ~g the bag-of-words rows: 2^31 repositories per task
        RepoKnowledge k = make.apply(nextGroup++);
        repos.put(repo, k);
        return k;
    }

    int repositories() {
        return repos.size();
    }

    void markReady() {
        ready.countDown();
    }

    boolean ready() {
        return ready.getCount() == 0;
    }

    boolean awaitReady(long millis) throws InterruptedException {
        return ready.await(millis, TimeUnit.MILLISECONDS);
    }
}
