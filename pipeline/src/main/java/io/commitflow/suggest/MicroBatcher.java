package io.commitflow.suggest;

import io.commitflow.gpu.Tier;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Coalesces single requests into batches for the engine: a batch is handed to a worker when it holds
 * {@code maxBatch} requests or its oldest request has waited {@code maxWait}. One queue per {@link Tier}; a worker
 * always takes the most urgent tier whose batch is due, so gold requests never wait behind bronze ones, and each batch
 * holds one tier (it runs on that tier's CUDA stream). Workers serve from {@link #start()} on: what was submitted
 * before (requests restored from a checkpoint) is batched in the same order of urgency.
 */
final class MicroBatcher<T> implements AutoCloseable {
    /** Answers a batch. Must answer every item, also when it fails. */
    interface Handler<T> {
        void handle(Tier tier, List<T> batch);
    }

    private record Item<T>(T value, long enqueuedNanos) {}

    private final int maxBatch;
    private final long maxWaitNanos;
    private final Handler<T> handler;
    @SuppressWarnings("unchecked")
    private final ArrayDeque<Item<T>>[] queues = new ArrayDeque[Tier.values().length];
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean closed;
    private int queued;

    MicroBatcher(String name, int workerCount, int maxBatch, long maxWaitNanos, Handler<T> handler) {
        this.maxBatch = maxBatch;
        this.maxWaitNanos = maxWaitNanos;
        this.handler = handler;
        for (int i = 0; i < queues.length; i++) {
            queues[i] = new ArrayDeque<>();
        }
        for (int i = 0; i < workerCount; i++) {
            Thread t = new Thread(this::work, name + "-" + i);
            t.setDaemon(true);
            workers.add(t);
        }
    }

    /** Starts the workers. */
    void start() {
        workers.forEach(Thread::start);
    }

    void submit(Tier tier, T value) {
        synchronized (queues) {
            if (closed) {
                throw new IllegalStateException("the batcher is closed");
            }
            queues[tier.ordinal()].add(new Item<>(value, System.nanoTime()));
            queued++;
            queues.notifyAll();
        }
    }

    /** Takes back a request not yet in a batch (its timeout answers it instead); false when a worker has it. */
    boolean remove(Predicate<T> which) {
        synchronized (queues) {
            for (ArrayDeque<Item<T>> q : queues) {
                for (Iterator<Item<T>> it = q.iterator(); it.hasNext(); ) {
                    if (which.test(it.next().value())) {
                        it.remove();
                        queued--;
                        return true;
                    }
                }
            }
            return false;
        }
    }

    int queued() {
        synchronized (queues) {
            return queued;
        }
    }

    private void work() {
        try {
            while (!closed) {
                Tier tier = null;
                List<T> batch = new ArrayList<>();
                synchronized (queues) {
                    while (!closed && tier == null) {
                        long now = System.nanoTime();
                        long nextDue = Long.MAX_VALUE;
                        for (Tier t : Tier.values()) {
                            ArrayDeque<Item<T>> q = queues[t.ordinal()];
                            if (q.isEmpty()) {
                                continue;
                            }
                            long due = q.peek().enqueuedNanos() + maxWaitNanos;
                            if (q.size() >= maxBatch || due - now <= 0) {
                                tier = t;
                                break;
                            }
                            nextDue = Math.min(nextDue, due - now);
                        }
                        if (tier == null) {
                            if (nextDue == Long.MAX_VALUE) {
                                queues.wait();
                            } else {
                                TimeUnit.NANOSECONDS.timedWait(queues, nextDue);
                            }
                        }
                    }
                    if (tier == null) {
                        return;
                    }
                    ArrayDeque<Item<T>> q = queues[tier.ordinal()];
                    while (!q.isEmpty() && batch.size() < maxBatch) {
                        batch.add(q.poll().value());
                    }
                    queued -= batch.size();
                }
                handler.handle(tier, batch);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the workers; requests still queued are dropped (they are in the last checkpoint, or came after it). */
    @Override
    public void close() {
        synchronized (queues) {
            closed = true;
            queues.notifyAll();
        }
        for (Thread t : workers) {
            t.interrupt();
        }
        for (Thread t : workers) {
            if (t.getState() == Thread.State.NEW) {
                continue;
            }
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
