package io.commitflow.cli;

import io.commitflow.gpu.bench.EngineBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code commitflow bench engine}: the retrieval engines' batched top-k on random unit vectors, through the same code
 * as the GPU bundle's benchmark ({@link EngineBench}).
 */
@Command(name = "engine", mixinStandardHelpOptions = true,
        description = "Fills the retrieval engines with random unit rows (one repository) and times batched top-k "
                + "queries: queries per second, latency and effective bandwidth, medians over the runs after a "
                + "warm-up; CUDA and CPU side by side where a GPU works, with a parity spot-check. One JSON line per "
                + "engine, row count and batch. One thread, as in a Flink task.",
        footer = {"", "Example: ./commitflow bench engine --rows 100000 --batch 256",
                "         ./commitflow bench engine --engine both --rows 100000,1000000 --batch 1,32,256,1024"})
public final class EngineBenchCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--engine", defaultValue = "auto", paramLabel = "MODE",
            description = "auto (CUDA and CPU where a GPU works, else CPU), cpu, cuda or both (default: ${DEFAULT-VALUE}).")
    String engine;

    @Option(names = "--rows", defaultValue = "100000", split = ",", paramLabel = "N",
            description = "Rows in the index; a comma-separated list fills up step by step (default: ${DEFAULT-VALUE}).")
    List<Integer> rows;

    @Option(names = "--batch", defaultValue = "256", split = ",", paramLabel = "N",
            description = "Queries per batch; a comma-separated list for several (default: ${DEFAULT-VALUE}).")
    List<Integer> batch;

    @Option(names = "--dim", defaultValue = "1024", paramLabel = "N", description = "Vector width (default: ${DEFAULT-VALUE}).")
    int dim;

    @Option(names = "--k", defaultValue = "10", paramLabel = "N", description = "Neighbours per query (default: ${DEFAULT-VALUE}).")
    int k;

    @Option(names = "--runs", defaultValue = "5", paramLabel = "N", description = "Timed batches (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--cpu-runs", defaultValue = "3", paramLabel = "N",
            description = "Timed CPU batches (default: ${DEFAULT-VALUE}).")
    int cpuRuns;

    @Option(names = "--cpu-max-seconds", defaultValue = "60", paramLabel = "S",
            description = "Time one CPU measurement may take; beyond it the bench times fewer queries and scales up, "
                    + "and says so (default: ${DEFAULT-VALUE}).")
    double cpuMaxSeconds;

    @Option(names = "--peak-gbps", defaultValue = "4800", paramLabel = "G",
            description = "Peak memory bandwidth where the GPU does not report it (default: ${DEFAULT-VALUE}, H200).")
    double peakGbps;

    @Option(names = "--device-budget-mib", defaultValue = "0", paramLabel = "N",
            description = "Device memory for the CUDA engine; 0: 80%% of the GPU's (default: ${DEFAULT-VALUE}).")
    long deviceBudgetMiB;

    @Override
    public Integer call() {
        if (rows.stream().anyMatch(r -> r < 1) || batch.stream().anyMatch(b -> b < 1) || dim < 1 || k < 1 || runs < 1
                || cpuRuns < 1 || cpuMaxSeconds <= 0 || peakGbps <= 0 || deviceBudgetMiB < 0) {
            throw new UserError("--rows, --batch, --dim, --k, --runs, --cpu-runs, --cpu-max-seconds and --peak-gbps "
                    + "must be positive");
        }
        EngineBench.Settings settings;
        try {
            settings = new EngineBench.Settings(engine, rows, batch, dim, k, runs, cpuRuns, cpuMaxSeconds, peakGbps,
                    deviceBudgetMiB, 7);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        return EngineBench.run(settings, out, err);
    }
}
