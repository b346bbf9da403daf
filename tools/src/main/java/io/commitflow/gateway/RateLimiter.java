package io.commitflow.gateway;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A token bucket per caller (an API key, a tenant's webhook): up to {@code burst} requests at once, refilled at
 * {@code perSecond}. The callers are the configured keys and secrets, so the buckets stay few.
 */
public final class RateLimiter {
    private final double perSecond;
    private final double burst;
    private final LongSupplier nanoTime;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    private final class Bucket {
        private double tokens = burst;
        private long updated = nanoTime.getAsLong();

        /** Zero when a token was taken, else how long until one is there. */
        synchronized long take() {
            long now = nanoTime.getAsLong();
            tokens = Math.min(burst, tokens + (now - updated) / 1e9 * perSecond);
            updated = now;
            if (tokens >= 1) {
                tokens -= 1;
                return 0;
            }
            return (long) Math.ceil((1 - tokens) / perSecond * 1e9);
        }
    }

    /** @throws IllegalArgumentException unless both are positive */
    public RateLimiter(double perSecond, int burst) {
        this(perSecond, burst, System::nanoTime);
    }

    RateLimiter(double perSecond, int burst, LongSupplier nanoTime) {
        if (!(perSecond > 0) || burst < 1) {
            throw new IllegalArgumentException("the rate must be positive and the burst at least 1, got " + perSecond
                    + "/s and " + burst);
        }
        this.perSecond = perSecond;
        this.burst = burst;
        this.nanoTime = nanoTime;
    }

    /** Duration.ZERO when {@code caller} may go on now, else how long until it may. */
    public Duration acquire(String caller) {
        return Duration.ofNanos(buckets.computeIfAbsent(caller, c -> new Bucket()).take());
    }

    /** The Retry-After header's whole seconds for a wait: rounded up, at least 1. */
    public static long retryAfterSeconds(Duration wait) {
        long s = wait.toSeconds() + (wait.toNanosPart() > 0 ? 1 : 0);
        return Math.max(1, s);
    }
}
