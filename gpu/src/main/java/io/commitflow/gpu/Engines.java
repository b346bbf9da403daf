package io.commitflow.gpu;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * Picks the retrieval engine. {@link #probe()} asks JCuda once per JVM whether a CUDA device is usable (a native
 * library that failed to load cannot be loaded again, so the answer is remembered, failure included);
 * {@link #open} builds the engine an {@link EngineMode} asks for.
 *
 * <pre>{@code
 * RetrievalEngine e = Engines.open(EngineMode.AUTO, 1024, 8L << 30);  // CUDA with 8 GiB where a GPU works, else CPU
 * }</pre>
 */
public final class Engines {
    private static final Logger LOG = LoggerFactory.getLogger(Engines.class);

    private static EngineChoice probed;
    private static String lastLogged;
    private static volatile String lastChoice = "none";

    private Engines() {
    }

    /** Whether CUDA is usable here, and on which device or why not. Probes on the first call only; never throws. */
    public static synchronized EngineChoice probe() {
        if (probed == null) {
            // a lambda, not a method reference: JCudaGpu (and JCuda) must load inside safely's try
            probed = safely(() -> loads(JCudaGpu.probe(), () -> {
                try (JCudaGpu gpu = JCudaGpu.open(0)) {
                    KernelCheck.run(gpu);
                }
            }));
        }
        return probed;
    }

    /**
     * {@code found}, if the kernels load and run on it: a device is reported only once {@code loadKernels} (the
     * engine's own module load, where the driver JIT-compiles the PTX, then one checked launch of its {@code topk}
     * kernel: {@link KernelCheck}) has worked, so that a driver too old for the PTX makes
     * {@code --engine auto} choose the CPU and the CUDA tests skip, with the reason, instead of failing later.
     */
    static EngineChoice loads(EngineChoice found, Runnable loadKernels) {
        if (!found.cudaAvailable()) {
            return found;
        }
        try {
            loadKernels.run();
            return found;
        } catch (RuntimeException | Error e) {
            return EngineChoice.unavailable("found " + found.describe() + ", but the kernels do not load on it: "
                    + reason(e));
        }
    }

    /** Runs a probe, turning anything it throws (missing natives, missing driver, CUDA errors) into an answer. */
    static EngineChoice safely(Supplier<EngineChoice> probe) {
        try {
            return probe.get();
        } catch (Throwable t) {
            return EngineChoice.unavailable(reason(t));
        }
    }

    /** A short reason from what JCuda threw; its load errors carry whole stack traces in their messages. */
    static String reason(Throwable t) {
        String m = String.valueOf(t.getMessage());
        if (m.contains("libcuda.so")) {
            return "no NVIDIA driver here: libcuda.so.1 was not found, so JCuda's driver library did not load";
        }
        if (t instanceof NoClassDefFoundError) {
            return "JCuda is missing or failed to initialise (" + firstLine(m) + ")";
        }
        if (t instanceof UnsatisfiedLinkError) {
            return "JCuda's driver library did not load: " + firstLine(m);
        }
        return t.getClass().getSimpleName() + ": " + firstLine(m);
    }

    private static String firstLine(String m) {
        int nl = m.indexOf('\n');
        String line = nl < 0 ? m : m.substring(0, nl);
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }

    /**
     * An engine of {@code dimension} floats per row. {@code mode}: {@link EngineMode#CPU CPU}; {@link EngineMode#CUDA
     * CUDA} (throws {@link IllegalStateException} with the probe's reason where CUDA is unavailable);
     * {@link EngineMode#AUTO AUTO} (CUDA where the probe finds a device and the engine starts, else the CPU, with the
     * reason logged). {@code deviceBudgetBytes} bounds the CUDA engine's device memory (rows and search scratch).
     */
    public static RetrievalEngine open(EngineMode mode, int dimension, long deviceBudgetBytes) {
        return switch (Objects.requireNonNull(mode, "mode")) {
            case CPU -> chose(new CpuEngine(dimension), "engine cpu asked for");
            case CUDA -> {
                EngineChoice c = probe();
                if (!c.cudaAvailable()) {
                    throw new IllegalStateException("engine cuda asked for, but " + c.describe()
                            + "; use --engine auto or cpu on machines without a GPU");
                }
                yield chose(new CudaEngine(dimension, deviceBudgetBytes), "engine cuda asked for, on " + c.describe());
            }
            case AUTO -> {
                EngineChoice c = probe();
                if (!c.cudaAvailable()) {
                    yield chose(new CpuEngine(dimension), "engine auto: " + c.describe());
                }
                try {
                    yield chose(new CudaEngine(dimension, deviceBudgetBytes), "engine auto, on " + c.describe());
                } catch (RuntimeException e) {
                    LOG.warn("retrieval engine: the CUDA engine did not start on {}: {}", c.describe(), e.getMessage(), e);
                    yield chose(new CpuEngine(dimension), "engine auto: the CUDA engine did not start: " + e.getMessage());
                }
            }
        };
    }

    private static RetrievalEngine chose(RetrievalEngine engine, String why) {
        lastChoice = engine.name();
        synchronized (Engines.class) {
            String line = engine.name() + " (" + why + ")";
            if (!line.equals(lastLogged)) {
                lastLogged = line;
                LOG.info("retrieval engine: {}", line);
            }
        }
        return engine;
    }

    /** The engine the last {@link #open} returned: {@code cuda}, {@code cpu}, or {@code none} before any. */
    public static String lastChoice() {
        return lastChoice;
    }

    /** 1 when the last engine opened is the CUDA engine, else 0: for an {@code engine} gauge. */
    public static int engineGauge() {
        return "cuda".equals(lastChoice) ? 1 : 0;
    }

    /** Prints the probe's answer as one JSON line: {@code java -cp … io.commitflow.gpu.Engines}. */
    public static void main(String[] args) {
        System.out.println(probe().toJson());
    }
}
