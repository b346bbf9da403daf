package io.commitflow.gpu;

import java.util.Locale;

/** Which retrieval engine {@link Engines#open} builds; the job's {@code --engine} option names one. */
public enum EngineMode {
    /** CUDA where the probe finds a device and the engine starts, else the CPU. */
    AUTO,
    /** The CPU engine; never touches JCuda. */
    CPU,
    /** The CUDA engine, or an {@link IllegalStateException} with the probe's reason where CUDA is unavailable. */
    CUDA;

    /** {@code auto}, {@code cpu} or {@code cuda}, any case, surrounding blanks ignored. */
    public static EngineMode parse(String mode) {
        if (mode != null) {
            String wanted = mode.trim().toUpperCase(Locale.ROOT);
            for (EngineMode m : values()) {
                if (m.name().equals(wanted)) {
                    return m;
                }
            }
        }
        throw new IllegalArgumentException("engine must be auto, cpu or cuda, not '" + mode + "'");
    }

    /** {@code auto}, {@code cpu} or {@code cuda}: the name {@link #parse} takes. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
