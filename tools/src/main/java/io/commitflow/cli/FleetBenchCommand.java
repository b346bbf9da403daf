package io.commitflow.cli;

import io.commitflow.generate.DiffFeatures;
import io.commitflow.generate.ExemplarRanker;
import io.commitflow.generate.FeatureSpace;
import io.commitflow.generate.RepoKnowledge;
import io.commitflow.generate.RetrievalGenerator;
import io.commitflow.git.DiffedCommit;
import io.commitflow.gpu.CpuEngine;
import io.commitflow.suggest.FleetMemory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code commitflow bench fleet}: what the fleet memory's stage costs per commit, on a real history: learning a
 * commit into a tenant's memory, and a young repository's lookup (the exact scan over the memory's rows), against
 * the suggest stage's own retrieval of the same commits from the same rows on the CPU engine.
 */
@Command(name = "fleet", mixinStandardHelpOptions = true,
        description = "Learns the first --rows of a repository's last --rows + --lookups first-parent commits into a "
                + "fleet memory (as the fleet stage does for a tenant) and into a repository memory on the CPU engine "
                + "(as the suggest stage does), and looks the last --lookups up in both. Prints one JSON line: "
                + "microseconds per learned commit and per lookup, and the fleet lookup's ratio to the other.",
        footer = {"", "Example: ./commitflow bench fleet --repo ~/src/jgit --rows 2000 --lookups 200"})
public final class FleetBenchCommand implements Callable<Integer> {
    @Mixin
    HistoryBench bench = new HistoryBench();

    @Option(names = "--rows", defaultValue = "2000", paramLabel = "N",
            description = "Commits in the memory: the job's --fleet-history (default: ${DEFAULT-VALUE}).")
    int rows;

    @Option(names = "--lookups", defaultValue = "200", paramLabel = "N",
            description = "Commits looked up (default: ${DEFAULT-VALUE}).")
    int lookups;

    @Override
    public Integer call() throws Exception {
        if (rows < 1 || lookups < 1) {
            throw new UserError("--rows and --lookups must be at least 1");
        }
        Path repo = bench.repo();
        int runs = bench.runs;
        PrintWriter out = bench.out();
        PrintWriter err = bench.err();
        BenchHistory history = bench.load(rows + lookups, lookups + 1);
        List<DiffedCommit> diffs = history.diffs();
        List<String> messages = history.messages();
        int learned = diffs.size() - lookups;
        err.printf("bench fleet: %d commits of %s in the memory, %d looked up, %d timed passes%n", learned, repo,
                lookups, runs);
        ExemplarRanker.Weights w = new RetrievalGenerator().weights();
        List<DiffFeatures> features = diffs.stream().map(DiffFeatures::of).toList();
        double[] learnUs = new double[runs];
        double[] fleetUs = new double[runs];
        double[] engineUs = new double[runs];
        long found = 0;
        for (int run = -1; run < runs; run++) { // pass -1 warms the JIT up
            RepoKnowledge fleet = RepoKnowledge.withoutEngine(FeatureSpace.DEFAULT_DIMENSION, learned);
            long t0 = System.nanoTime();
            for (int i = 0; i < learned; i++) {
                fleet.learn(diffs.get(i), features.get(i), fleet.vector(features.get(i).terms()), messages.get(i));
            }
            long t1 = System.nanoTime();
            long hits = 0;
            for (int i = learned; i < diffs.size(); i++) {
                DiffFeatures f = features.get(i);
                hits += FleetMemory.nearest(fleet, diffs.get(i), f, fleet.vector(f.terms()), w, row -> true).size();
            }
            long t2 = System.nanoTime();
            try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
                RepoKnowledge own = RepoKnowledge.fresh(engine, 0, learned);
                for (int i = 0; i < learned; i++) {
                    own.learn(diffs.get(i), features.get(i), own.vector(features.get(i).terms()), messages.get(i));
                }
                long t3 = System.nanoTime();
                for (int i = learned; i < diffs.size(); i++) {
                    DiffFeatures f = features.get(i);
                    own.neighbors(own.vector(f.terms()), own.bag(f.signature()), w.k(), w.kBag(), Long.MAX_VALUE,
                            own.window());
                }
                long t4 = System.nanoTime();
                if (run >= 0) {
                    learnUs[run] = (t1 - t0) / 1e3 / learned;
                    fleetUs[run] = (t2 - t1) / 1e3 / lookups;
                    engineUs[run] = (t4 - t3) / 1e3 / lookups;
                    err.printf("  pass %d: learn %.1f µs, fleet lookup %.1f µs, suggest-stage retrieval %.1f µs%n",
                            run + 1, learnUs[run], fleetUs[run], engineUs[run]);
                }
            }
            found = hits;
        }
        double learn = DiffReference.median(learnUs);
        double fleetLookup = DiffReference.median(fleetUs);
        double engineLookup = DiffReference.median(engineUs);
        out.printf("{\"rows\":%d,\"lookups\":%d,\"learn_us\":%.1f,\"fleet_lookup_us\":%.1f,\"suggest_retrieval_us\":%.1f,"
                        + "\"ratio\":%.2f,\"fleet_exemplars_per_lookup\":%.2f}%n", learned, lookups, learn, fleetLookup,
                engineLookup, fleetLookup / engineLookup, (double) found / lookups);
        return 0;
    }
}
