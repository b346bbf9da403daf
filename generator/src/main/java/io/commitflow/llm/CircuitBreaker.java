package io.commitflow.llm;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * One endpoint's circuit breaker: after {@code threshold} failures in a row it opens and refuses calls for
 * {@code openFor}; then it lets one call through (half-open) — a success closes it, a failure opens it again.
 * Thread-safe.
 */
public final class CircuitBreaker {
    public enum State { CLOSED, OPEN, HALF_OPEN }

    private final int threshold;
    private final long openForNanos;
    private final LongSupplier clock;
    private int failures;
    private long openedAt;
    private State state = State.CLOSED;
    private boolean trialOut;

    public CircuitBreaker(int threshold, Duration openFor) {
        this(threshold, openFor, System::nanoTime);
    }

    CircuitBreaker(int threshold, Duration openFor, LongSupplier clock) {
        if (threshold < 1) {
            throw new IllegalArgumentException("threshold must be at least 1: " + threshold);
        }
        this.threshold = threshold;
        this.openForNanos = openFor.toNanos();
        this.clock = clock;
    }

    /** May a call go now? In half-open, only one may. */
    public synchronized boolean allow() {
        if (state == State.OPEN && clock.getAsLong() - openedAt >= openForNanos) {
            state = State.HALF_OPEN;
            trialOut = false;
        }
        if (state == State.HALF_OPEN) {
            if (trialOut) {
                return false;
            }
            trialOut = true;
            return true;
        }
        return state == State.CLOSED;
    }

    public synchronized void success() {
        failures = 0;
        state = State.CLOSED;
    }

    public synchronized void failure() {
        failures++;
        if (state == State.HALF_OPEN || failures >= threshold) {
            state = State.OPEN;
            openedAt = clock.getAsLong();
        }
    }

    public synchronized State state() {
        return state;
    }
}
