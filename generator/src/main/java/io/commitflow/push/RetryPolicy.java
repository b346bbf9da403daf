package io.commitflow.push;

import java.io.Serializable;
import java.time.Duration;

/**
 * How long a push, or a commit event, waits for its commits to reach the mirror: retries after {@code initial}, doubling up to
 * {@code maxDelay}, and gives up (dead letter) once {@code maxWait} has passed since the first try.
 */
public record RetryPolicy(Duration initial, Duration maxDelay, Duration maxWait) implements Serializable {

    public static final RetryPolicy DEFAULT = new RetryPolicy(Duration.ofMillis(500), Duration.ofSeconds(30), Duration.ofMinutes(5));

    /**
     * Whether a failure of this kind may go away by waiting: the mirror lacks the commits, or the whole repository
     * ({@code commitflow mirror} clones it on first sight). Every other failure is final.
     */
    public static boolean waitsForMirror(io.commitflow.event.Reason reason) {
        return reason == io.commitflow.event.Reason.UNKNOWN_COMMIT || reason == io.commitflow.event.Reason.NO_MIRROR;
    }

    public RetryPolicy {
        if (initial.isNegative() || initial.isZero() || maxDelay.compareTo(initial) < 0 || maxWait.isNegative()) {
            throw new IllegalArgumentException("retry policy needs 0 < initial <= maxDelay and maxWait >= 0: " + this);
        }
    }

    /**
     * After attempt number {@code attempts} (from 1) failed at {@code now}, for something first tried at
     * {@code firstTry}: when to try again, or -1 when the wait is over and it is given up.
     */
    public long nextTry(long firstTry, int attempts, long now) {
        return now - firstTry < maxWait.toMillis() ? now + delayMillis(attempts) : -1;
    }

    /** What the dead letter of something given up adds to its reason's message. */
    public static String gaveUp(long firstTry, int attempts, long now) {
        return " after " + attempts + " attempts over " + (now - firstTry) / 1000 + " s";
    }

    /** The delay before attempt number {@code attempts + 1}. */
    long delayMillis(int attempts) {
        long d = initial.toMillis() << Math.min(attempts - 1, 20);
        return Math.min(d, maxDelay.toMillis());
    }
}
