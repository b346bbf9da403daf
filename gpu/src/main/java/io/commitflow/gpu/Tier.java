package io.commitflow.gpu;

import java.util.Locale;

/**
 * A tenant's priority class. On a GPU each tier has its own CUDA stream, created with the tier's priority
 * ({@link #cudaLevel}: gold −1, silver 0, bronze 1; lower runs first); the micro-batcher serves gold first.
 */
public enum Tier {
    GOLD(-1), SILVER(0), BRONZE(1);

    /** The tier's relative CUDA stream priority: −1, 0 or 1 (lower is more urgent). */
    public final int cudaLevel;

    Tier(int cudaLevel) {
        this.cudaLevel = cudaLevel;
    }

    /** {@code gold}, {@code silver} or {@code bronze}, any case. */
    public static Tier parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown tier '" + name + "': use gold, silver or bronze", e);
        }
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
