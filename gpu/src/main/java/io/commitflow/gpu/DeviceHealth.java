package io.commitflow.gpu;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether a sticky CUDA error has corrupted the device's primary context in this process. Every engine in a JVM
 * shares that context, and CUDA refuses every later call in it until the process ends, so a task that Flink
 * restarts in the same TaskManager must not open the device again (it would fail on its first call and be lost
 * again): {@link JCudaGpu#open} refuses at once, {@code --engine auto} then chooses the CPU engine and says why.
 */
final class DeviceHealth {
    private static final AtomicReference<String> POISONED = new AtomicReference<>();

    private DeviceHealth() {
    }

    /** Remembers the sticky error {@code e} names, if any; returns {@code e}. */
    static <T extends RuntimeException> T note(T e) {
        String code = GpuException.sticky(e);
        if (code != null) {
            POISONED.compareAndSet(null, code);
        }
        return e;
    }

    /** The sticky error that corrupted the context in this process, or null. */
    static String poisoned() {
        return POISONED.get();
    }

    /** Throws {@link GpuException} when the context was corrupted in this process. */
    static void checkUsable() {
        String code = POISONED.get();
        if (code != null) {
            throw new GpuException("the GPU's CUDA context in this process was corrupted by " + code
                    + " earlier, and CUDA refuses every call in it until the process ends: restart the TaskManager "
                    + "to use the GPU again");
        }
    }

    /** Forgets a noted error: tests only (a real process cannot recover its context). */
    static void resetForTests() {
        POISONED.set(null);
    }
}
