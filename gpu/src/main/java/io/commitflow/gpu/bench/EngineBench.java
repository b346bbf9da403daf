package io.commitflow.gpu.bench;

import io.commitflow.gpu.CpuEngine;
import io.commitflow.gpu.CudaEngine;
import io.commitflow.gpu.EngineChoice;
import io.commitflow.gpu.Engines;
import io.commitflow.gpu.Neighbors;
import io.commitflow.gpu.RetrievalEngine;
import io.commitflow.gpu.Tier;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * Times the retrieval engines' batched top-k on random unit rows (one group, stamps 0..N-1): CUDA and CPU in the
 * same run, for each row count and batch size, medians over the runs after a warm-up. Prints one JSON line per
 * (engine, rows, batch), one per parity spot-check, and progress on stderr. Runs without Maven or Flink:
 *
 * <pre>{@code
 * java -cp 'lib/*' io.commitflow.gpu.bench.EngineBench --rows 100000,1000000 --batch 1,32,256,1024
 * }</pre>
 *
 * <p>Where CUDA runs, each row count also times the CUDA engine on both of its {@link CudaEngine.SmallBatchPath
 * small-batch paths} at {@code --path-batches} (one {@code "compare":"small_batch_paths"} line per batch, with the
 * speed-up of the default path over the first kernels), and checks both against the CPU engine.
 *
 * <p>The CPU engine needs minutes for large batches over a million rows, so each CPU measurement is held to
 * {@code --cpu-max-seconds}: where the full batch would take longer, the bench times as many queries as fit and
 * scales to the batch (the CPU engine's time is linear in the batch: it scans the rows once per four queries), and
 * says so ({@code "cpu_mode":"extrapolated"} with the batch it measured); where not even one query fits, it skips.
 */
public final class EngineBench {
    private static final String USAGE = String.join("\n",
            "usage: EngineBench [options]",
            "  --engine auto|cpu|cuda|both  auto: CUDA and CPU where CUDA works, else CPU (default auto)",
            "  --rows N[,N...]              row counts, ascending fills (default 100000,1000000)",
            "  --batch N[,N...]             queries per batch (default 1,32,256,1024)",
            "  --path-batches N[,N...]|none batches timed on both CUDA small-batch paths, few and narrow",
            "                               (default 1,2,4,8; at most 8)",
            "  --dim N                      floats per row (default 1024)",
            "  --k N                        neighbours per query, at most 64 on CUDA (default 10)",
            "  --runs N                     timed batches per measurement, after one warm-up (default 5)",
            "  --cpu-runs N                 timed CPU batches (default 3)",
            "  --cpu-max-seconds S          time one CPU measurement may take; beyond, extrapolate (default 60)",
            "  --peak-gbps G                peak bandwidth where the device does not report it (default 4800, H200)",
            "  --device-budget-mib N        the CUDA engine's device memory (default: 80% of the device's)",
            "  --seed N                     random seed (default 7)",
            "  --help                       this text");

    /** What to measure; see {@link #USAGE}. */
    public record Settings(String engine, List<Integer> rows, List<Integer> batches, List<Integer> pathBatches,
                           int dim, int k, int runs, int cpuRuns, double cpuMaxSeconds, double peakGbps,
                           long deviceBudgetMiB, long seed) {
        public Settings {
            if (!List.of("auto", "cpu", "cuda", "both").contains(engine)) {
                throw new IllegalArgumentException("--engine must be auto, cpu, cuda or both, not '" + engine + "'");
            }
            rows = List.copyOf(rows).stream().sorted().toList();
            batches = List.copyOf(batches);
            pathBatches = List.copyOf(pathBatches);
            if (rows.isEmpty() || batches.isEmpty() || rows.get(0) < 1 || batches.stream().anyMatch(b -> b < 1)
                    || dim < 1 || k < 1 || runs < 1 || cpuRuns < 1 || cpuMaxSeconds <= 0 || peakGbps <= 0
                    || deviceBudgetMiB < 0) {
                throw new IllegalArgumentException("rows, batches, --dim, --k, --runs, --cpu-runs, --cpu-max-seconds "
                        + "and --peak-gbps must be positive, --device-budget-mib not negative");
            }
            if (pathBatches.stream().anyMatch(b -> b < 1 || b > MAX_PATH_BATCH)) {
                throw new IllegalArgumentException("--path-batches must be between 1 and " + MAX_PATH_BATCH
                        + " (the small-batch paths' reach): " + pathBatches);
            }
        }

        /** The settings of earlier versions: batches timed on the default path only. */
        public Settings(String engine, List<Integer> rows, List<Integer> batches, int dim, int k, int runs,
                        int cpuRuns, double cpuMaxSeconds, double peakGbps, long deviceBudgetMiB, long seed) {
            this(engine, rows, batches, List.of(), dim, k, runs, cpuRuns, cpuMaxSeconds, peakGbps, deviceBudgetMiB,
                    seed);
        }

        public static Settings defaults() {
            return new Settings("auto", List.of(100_000, 1_000_000), List.of(1, 32, 256, 1024), List.of(1, 2, 4, 8),
                    1024, 10, 5, 3, 60, 4800, 0, 7);
        }
    }

    /** The largest batch the small-batch paths take (score_few's and score_narrow's queries per block). */
    static final int MAX_PATH_BATCH = 8;
    /** Timed searches per path and batch in a path comparison: fast on a GPU, and a steadier median than --runs. */
    private static final int PATH_RUNS = 25;
    /** Queries of each parity spot-check. */
    private static final int PARITY_QUERIES = 8;

    private EngineBench() {
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        Settings s;
        try {
            s = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("EngineBench: " + e.getMessage());
            err.println(USAGE);
            System.exit(2);
            return;
        }
        if (s == null) {
            out.println(USAGE);
            return;
        }
        System.exit(run(s, out, err));
    }

    /** The settings {@code args} ask for, or null for {@code --help}. */
    static Settings parse(String... args) {
        Settings d = Settings.defaults();
        String engine = d.engine();
        List<Integer> rows = d.rows();
        List<Integer> batches = d.batches();
        List<Integer> pathBatches = d.pathBatches();
        int dim = d.dim();
        int k = d.k();
        int runs = d.runs();
        int cpuRuns = d.cpuRuns();
        double cpuMax = d.cpuMaxSeconds();
        double peak = d.peakGbps();
        long budget = d.deviceBudgetMiB();
        long seed = d.seed();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                return null;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("unknown option or missing value: " + a);
            }
            String v = args[++i];
            try {
                switch (a) {
                    case "--engine" -> engine = v;
                    case "--rows" -> rows = ints(v);
                    case "--batch", "--batches" -> batches = ints(v);
                    case "--path-batches" -> pathBatches = v.equals("none") ? List.of() : ints(v);
                    case "--dim" -> dim = Integer.parseInt(v);
                    case "--k" -> k = Integer.parseInt(v);
                    case "--runs" -> runs = Integer.parseInt(v);
                    case "--cpu-runs" -> cpuRuns = Integer.parseInt(v);
                    case "--cpu-max-seconds" -> cpuMax = Double.parseDouble(v);
                    case "--peak-gbps" -> peak = Double.parseDouble(v);
                    case "--device-budget-mib" -> budget = Long.parseLong(v);
                    case "--seed" -> seed = Long.parseLong(v);
                    default -> throw new IllegalArgumentException("unknown option: " + a);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(a + " wants a number, not '" + v + "'");
            }
        }
        return new Settings(engine, rows, batches, pathBatches, dim, k, runs, cpuRuns, cpuMax, peak, budget, seed);
    }

    private static List<Integer> ints(String csv) {
        List<Integer> out = new ArrayList<>();
        for (String p : csv.split(",")) {
            out.add(Integer.parseInt(p.trim()));
        }
        return out;
    }

    /** Runs the benchmark; returns the exit status (0, or 2 when CUDA was asked for and is unavailable). */
    public static int run(Settings s, PrintWriter out, PrintWriter err) {
        return run(s, out, err, Engines::probe, budget -> new CudaEngine(s.dim(), budget));
    }

    /**
     * {@link #run(Settings, PrintWriter, PrintWriter)} with the probe and the CUDA engine given (a simulated device in
     * tests); {@code openCuda} takes the device memory budget in bytes.
     */
    static int run(Settings s, PrintWriter out, PrintWriter err, Supplier<EngineChoice> probe,
                   LongFunction<CudaEngine> openCuda) {
        boolean cuda = false;
        double peak = 0;
        String peakSource = "";
        long budget = 0;
        if (!s.engine().equals("cpu")) {
            EngineChoice choice = probe.get();
            out.println("{\"probe\":" + choice.toJson() + "}");
            cuda = choice.cudaAvailable();
            if (!cuda && !s.engine().equals("auto")) {
                err.println("EngineBench: --engine " + s.engine() + " but " + choice.describe());
                return 2;
            }
            if (!cuda) {
                err.println("EngineBench: " + choice.describe() + "; timing the CPU engine only");
            }
            peak = choice.peakBytesPerSecond() > 0 ? choice.peakBytesPerSecond() : s.peakGbps() * 1e9;
            peakSource = choice.peakBytesPerSecond() > 0 ? "device" : "--peak-gbps";
            budget = s.deviceBudgetMiB() > 0 ? s.deviceBudgetMiB() << 20 : (long) (choice.totalMemoryBytes() * 0.8);
        }
        if (cuda && s.k() > CudaEngine.MAX_K) {
            err.println("EngineBench: --k " + s.k() + " is above the CUDA engine's " + CudaEngine.MAX_K);
            return 2;
        }
        boolean cpu = !s.engine().equals("cuda");

        try (CudaEngine gpuEngine = cuda ? openCuda.apply(budget) : null;
             RetrievalEngine cpuEngine = cpu ? new CpuEngine(s.dim()) : null) {
            CudaEngine.SmallBatchPath defaultPath = gpuEngine == null ? null : gpuEngine.smallBatchPath();
            SplittableRandom random = new SplittableRandom(s.seed());
            int loaded = 0;
            for (int rows : s.rows()) {
                long t = System.nanoTime();
                for (; loaded < rows; loaded++) {
                    float[] v = unit(random, s.dim());
                    if (gpuEngine != null) {
                        gpuEngine.add(0, loaded, v);
                    }
                    if (cpuEngine != null) {
                        cpuEngine.add(0, loaded, v);
                    }
                }
                err.printf(Locale.ROOT, "bench engine: %d rows of %d floats loaded in %.1f s%n", rows, s.dim(),
                        (System.nanoTime() - t) / 1e9);
                if (gpuEngine != null && cpuEngine != null) {
                    parity(out, gpuEngine, cpuEngine, rows, s, random.split());
                    gpuEngine.smallBatchPath(defaultPath);
                }
                for (int batch : s.batches()) {
                    float[][] queries = new float[batch][];
                    for (int i = 0; i < batch; i++) {
                        queries[i] = unit(random, s.dim());
                    }
                    Measurement c = cpuEngine == null ? null : measureCpu(cpuEngine, queries, s, err);
                    if (c != null) {
                        out.println(c.json("cpu", rows, s, 0, "") + "}");
                    }
                    if (gpuEngine != null) {
                        Measurement g = measure(gpuEngine, queries, queries.length, s.k(), s.runs(), err);
                        String path = batch <= MAX_PATH_BATCH ? defaultPath.label() : "wide";
                        out.println(g.json("cuda", rows, s, peak, peakSource) + ",\"path\":\"" + path + "\""
                                + cudaExtras(c, g));
                    }
                }
                if (gpuEngine != null) {
                    for (int batch : s.pathBatches()) {
                        comparePaths(out, err, gpuEngine, rows, batch, s, peak, peakSource, random.split());
                    }
                    gpuEngine.smallBatchPath(defaultPath);
                }
            }
        }
        return 0;
    }

    /**
     * Times one batch on each small-batch path of {@code cuda} (the first kernels, then the default) and prints one
     * line with both and the ratio {@code few_over_narrow} of their speeds.
     */
    private static void comparePaths(PrintWriter out, PrintWriter err, CudaEngine cuda, int rows, int batch,
                                     Settings s, double peak, String peakSource, SplittableRandom random) {
        float[][] queries = new float[batch][];
        for (int i = 0; i < batch; i++) {
            queries[i] = unit(random, s.dim());
        }
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "{\"compare\":\"small_batch_paths\",\"rows\":%d,\"dim\":%d,\"batch\":%d,\"k\":%d,\"runs\":%d",
                rows, s.dim(), batch, s.k(), PATH_RUNS));
        double[] perSecond = new double[2];
        CudaEngine.SmallBatchPath[] order = {CudaEngine.SmallBatchPath.NARROW, CudaEngine.SmallBatchPath.FEW};
        for (int i = 0; i < order.length; i++) {
            cuda.smallBatchPath(order[i]);
            Measurement m = measure(cuda, queries, batch, s.k(), PATH_RUNS, err);
            double t = m.batchSeconds();
            double bytes = (double) rows * s.dim() * Float.BYTES;
            perSecond[i] = batch / t;
            line.append(String.format(Locale.ROOT, ",\"%s\":{\"queries_per_s\":%.1f,\"batch_ms\":%.3f,"
                            + "\"effective_gb_per_s\":%.1f,\"fraction_of_peak\":%.3f}",
                    order[i].label(), batch / t, t * 1000, bytes / t / 1e9, peak > 0 ? bytes / t / peak : 0));
        }
        line.append(String.format(Locale.ROOT, ",\"few_over_narrow\":%.2f,\"peak_gb_per_s\":%.1f,"
                + "\"peak_source\":\"%s\"}", perSecond[1] / perSecond[0], peak / 1e9, peakSource));
        out.println(line);
    }

    /** The times of one engine, rows and batch. */
    private record Measurement(int batch, int measuredBatch, double medianSeconds, String mode, String note) {
        /** Seconds for the whole batch (scaled when a smaller batch was measured). */
        double batchSeconds() {
            return medianSeconds * batch / measuredBatch;
        }

        String json(String engine, int rows, Settings s, double peak, String peakSource) {
            StringBuilder b = new StringBuilder();
            b.append(String.format(Locale.ROOT, "{\"engine\":\"%s\",\"rows\":%d,\"dim\":%d,\"batch\":%d,\"k\":%d",
                    engine, rows, s.dim(), batch, s.k()));
            if (mode.equals("skipped")) {
                return b.append(",\"mode\":\"skipped\",\"note\":\"").append(note).append("\"").toString();
            }
            double t = batchSeconds();
            double matrixBytes = (double) rows * s.dim() * Float.BYTES;
            b.append(String.format(Locale.ROOT, ",\"mode\":\"%s\",\"measured_batch\":%d,\"runs\":%d,"
                            + "\"queries_per_s\":%.1f,\"batch_ms\":%.3f,\"per_query_ms\":%.4f,\"effective_gb_per_s\":%.1f",
                    mode, measuredBatch, engine.equals("cpu") ? s.cpuRuns() : s.runs(), batch / t, t * 1000,
                    t * 1000 / batch, matrixBytes / t / 1e9));
            if (peak > 0) {
                b.append(String.format(Locale.ROOT, ",\"peak_gb_per_s\":%.1f,\"peak_source\":\"%s\",\"fraction_of_peak\":%.3f",
                        peak / 1e9, peakSource, matrixBytes / t / peak));
            }
            if (!note.isEmpty()) {
                b.append(",\"note\":\"").append(note).append("\"");
            }
            return b.toString();
        }
    }

    private static String cudaExtras(Measurement cpu, Measurement gpu) {
        if (cpu == null || cpu.mode().equals("skipped")) {
            return ",\"speedup_vs_cpu\":null}";
        }
        return String.format(Locale.ROOT, ",\"speedup_vs_cpu\":%.1f,\"cpu_mode\":\"%s\"}",
                cpu.batchSeconds() / gpu.batchSeconds(), cpu.mode());
    }

    /** One warm-up, then the median of {@code runs} timed searches of the first {@code n} queries. */
    private static Measurement measure(RetrievalEngine e, float[][] queries, int n, int k, int runs, PrintWriter err) {
        float[][] q = n == queries.length ? queries : Arrays.copyOf(queries, n);
        search(e, q, k);
        double[] seconds = new double[runs];
        for (int r = 0; r < runs; r++) {
            long t = System.nanoTime();
            search(e, q, k);
            seconds[r] = (System.nanoTime() - t) / 1e9;
        }
        err.printf(Locale.ROOT, "  %s, batch %d: %s s%n", e.name(), n, round(seconds));
        return new Measurement(queries.length, n, median(seconds), n == queries.length ? "measured" : "extrapolated", "");
    }

    /** The CPU measurement within --cpu-max-seconds: the whole batch, fewer queries scaled up, or none. */
    private static Measurement measureCpu(RetrievalEngine cpu, float[][] queries, Settings s, PrintWriter err) {
        int probe = Math.min(queries.length, 4);
        long t = System.nanoTime();
        search(cpu, Arrays.copyOf(queries, probe), s.k());
        double perQuery = (System.nanoTime() - t) / 1e9 / probe;
        double budget = s.cpuMaxSeconds();
        int runs = s.cpuRuns() + 1; // the warm-up too
        if (runs * perQuery * queries.length <= budget) {
            return measure(cpu, queries, queries.length, s.k(), s.cpuRuns(), err);
        }
        int fit = (int) (budget / (runs * perQuery));
        if (fit >= 4) {
            fit -= fit % 4; // the CPU engine scans the rows once per four queries
        }
        if (fit < 1) {
            return new Measurement(queries.length, 0, 0, "skipped", String.format(Locale.ROOT,
                    "one query takes %.2f s; %d runs would exceed --cpu-max-seconds %.3g", perQuery, runs, budget));
        }
        Measurement m = measure(cpu, queries, fit, s.k(), s.cpuRuns(), err);
        return new Measurement(m.batch(), m.measuredBatch(), m.medianSeconds(), "extrapolated", String.format(
                Locale.ROOT, "timed %d of %d queries per batch and scaled linearly (--cpu-max-seconds %.3g)", fit,
                queries.length, budget));
    }

    /**
     * Both engines on the same {@link #PARITY_QUERIES} queries, the CUDA engine on each small-batch path: slots equal,
     * scores bit for bit. One line per path.
     */
    private static void parity(PrintWriter out, CudaEngine gpu, RetrievalEngine cpu, int rows, Settings s,
                               SplittableRandom random) {
        int n = PARITY_QUERIES;
        float[][] q = new float[n][];
        for (int i = 0; i < n; i++) {
            q[i] = unit(random, s.dim());
        }
        Neighbors[] b = search(cpu, q, s.k());
        for (CudaEngine.SmallBatchPath path : CudaEngine.SmallBatchPath.values()) {
            gpu.smallBatchPath(path);
            out.println(parityLine(search(gpu, q, s.k()), b, rows, s) + ",\"path\":\"" + path.label() + "\"}");
        }
    }

    /** The comparison of the CUDA answers a with the CPU answers b, as a JSON object without its closing brace. */
    private static String parityLine(Neighbors[] a, Neighbors[] b, int rows, Settings s) {
        int n = b.length;
        boolean idsEqual = true;
        int identical = 0;
        int total = 0;
        double maxDiff = 0;
        for (int i = 0; i < n; i++) {
            idsEqual &= Arrays.equals(a[i].slots(), b[i].slots());
            for (int j = 0; j < Math.min(a[i].size(), b[i].size()); j++) {
                total++;
                if (Float.floatToRawIntBits(a[i].scores()[j]) == Float.floatToRawIntBits(b[i].scores()[j])) {
                    identical++;
                }
                maxDiff = Math.max(maxDiff, Math.abs(a[i].scores()[j] - b[i].scores()[j]));
            }
        }
        return String.format(Locale.ROOT, "{\"parity\":%b,\"rows\":%d,\"queries\":%d,\"k\":%d,\"ids_equal\":%b,"
                        + "\"bit_identical_scores\":%d,\"scores\":%d,\"max_abs_score_diff\":%.3g",
                idsEqual && identical == total, rows, n, s.k(), idsEqual, identical, total, maxDiff);
    }

    private static Neighbors[] search(RetrievalEngine e, float[][] q, int k) {
        int[] groups = new int[q.length];
        long[] from = new long[q.length];
        long[] to = new long[q.length];
        Arrays.fill(to, Long.MAX_VALUE);
        return e.search(Tier.SILVER, groups, from, to, q, k);
    }

    /** A random unit vector: uniform coordinates, normalised (fast enough for a million rows). */
    static float[] unit(SplittableRandom r, int dim) {
        float[] v = new float[dim];
        double n = 0;
        for (int i = 0; i < dim; i++) {
            v[i] = (float) (r.nextDouble() * 2 - 1);
            n += (double) v[i] * v[i];
        }
        float inv = (float) (1 / Math.sqrt(n));
        for (int i = 0; i < dim; i++) {
            v[i] *= inv;
        }
        return v;
    }

    private static double median(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    private static String round(double[] x) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < x.length; i++) {
            b.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.4f", x[i]));
        }
        return b.append("]").toString();
    }
}
