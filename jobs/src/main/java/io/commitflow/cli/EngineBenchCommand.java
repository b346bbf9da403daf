package io.commitflow.cli;

import io.commitflow.gpu.CpuEngine;
import io.commitflow.gpu.RetrievalEngine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.Callable;

/** {@code commitflow bench engine}: the retrieval engine's batched top-k on random unit vectors. */
@Command(name = "engine", mixinStandardHelpOptions = true,
        description = "Fills the CPU retrieval engine with random unit rows (one repository) and times batched top-k "
                + "queries: queries per second and latency, medians over the runs. One thread, as in a Flink task.",
        footer = {"", "Example: ./commitflow bench engine --rows 100000 --batch 256"})
public final class EngineBenchCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--rows", defaultValue = "100000", paramLabel = "N", description = "Rows in the index (default: ${DEFAULT-VALUE}).")
    int rows;

    @Option(names = "--batch", defaultValue = "256", paramLabel = "N", description = "Queries per batch (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--dim", defaultValue = "1024", paramLabel = "N", description = "Vector width (default: ${DEFAULT-VALUE}).")
    int dim;

    @Option(names = "--k", defaultValue = "10", paramLabel = "N", description = "Neighbours per query (default: ${DEFAULT-VALUE}).")
    int k;

    @Option(names = "--runs", defaultValue = "5", paramLabel = "N", description = "Timed batches (default: ${DEFAULT-VALUE}).")
    int runs;

    @Override
    public Integer call() {
        if (rows < 1 || batch < 1 || dim < 1 || k < 1 || runs < 1) {
            throw new UserError("--rows, --batch, --dim, --k and --runs must be at least 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Random random = new Random(7);
        try (RetrievalEngine engine = new CpuEngine(dim)) {
            long t = System.nanoTime();
            for (int i = 0; i < rows; i++) {
                engine.add(0, unit(random, dim));
            }
            err.printf("bench engine: %d rows of %d floats loaded in %.1f s%n", rows, dim, (System.nanoTime() - t) / 1e9);
            int[] groups = new int[batch];
            float[][] queries = new float[batch][];
            for (int i = 0; i < batch; i++) {
                queries[i] = unit(random, dim);
            }
            engine.search(groups, queries, k); // warm-up
            double[] seconds = new double[runs];
            for (int r = 0; r < runs; r++) {
                long s = System.nanoTime();
                engine.search(groups, queries, k);
                seconds[r] = (System.nanoTime() - s) / 1e9;
                err.printf("  batch %d: %.3f s%n", r + 1, seconds[r]);
            }
            Arrays.sort(seconds);
            double median = seconds[runs / 2];
            double bytes = (double) rows * dim * 4 * batch; // each query reads every row once
            out.printf("{\"engine\":\"%s\",\"rows\":%d,\"dim\":%d,\"batch\":%d,\"k\":%d,\"queries_per_s\":%.1f,"
                            + "\"batch_ms\":%.1f,\"per_query_ms\":%.3f,\"gb_per_s\":%.1f}%n",
                    engine.name(), rows, dim, batch, k, batch / median, median * 1000, median * 1000 / batch, bytes / median / 1e9);
            return 0;
        }
    }

    static float[] unit(Random r, int dim) {
        float[] v = new float[dim];
        double n = 0;
        for (int i = 0; i < dim; i++) {
            v[i] = (float) r.nextGaussian();
            n += (double) v[i] * v[i];
        }
        float inv = (float) (1 / Math.sqrt(n));
        for (int i = 0; i < dim; i++) {
            v[i] *= inv;
        }
        return v;
    }
}
