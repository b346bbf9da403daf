package io.commitflow.cli;

import io.commitflow.generate.DiffFeatures;
import io.commitflow.generate.FeatureSpace;
import io.commitflow.generate.RankerChoice;
import io.commitflow.generate.RepoKnowledge;
import io.commitflow.generate.RetrievalGenerator;
import io.commitflow.gpu.CpuEngine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code commitflow bench generator}: what the built-in generator costs per commit on a real history, as the suggest
 * stage runs it on the CPU engine: writing a suggestion (retrieval, ranking, editing, style), learning the ranking
 * weights from the commit's real message ({@link RetrievalGenerator#observe}), and learning the commit.
 */
@Command(name = "generator", mixinStandardHelpOptions = true,
        description = "Diffs the last --commits first-parent commits of a repository and replays them, oldest first, "
                + "through the built-in generator on the CPU engine as the suggest stage does: for each, a suggestion "
                + "from what was learned before it, then the ranker's learning (observe) and the commit's (learn). "
                + "Prints one JSON line: microseconds (wall clock) per commit of each step over the last half of the "
                + "commits, and the ranker's learning as a share of the rest.",
        footer = {"", "Example: ./commitflow bench generator --repo ~/src/jgit --commits 2000"})
public final class GeneratorBenchCommand implements Callable<Integer> {
    @Mixin
    HistoryBench bench = new HistoryBench();

    @Option(names = "--commits", defaultValue = "2000", paramLabel = "N",
            description = "Commits replayed; the first half fills the memory, the second half is timed "
                    + "(default: ${DEFAULT-VALUE}).")
    int commits;

    @Override
    public Integer call() throws Exception {
        if (commits < 2) {
            throw new UserError("--commits must be at least 2");
        }
        Path repo = bench.repo();
        int runs = bench.runs;
        PrintWriter out = bench.out();
        PrintWriter err = bench.err();
        BenchHistory history = bench.load(commits, 2);
        int timedFrom = history.size() / 2;
        err.printf("bench generator: %d commits of %s, the last %d timed, %d timed passes%n", history.size(), repo,
                history.size() - timedFrom, runs);
        List<DiffFeatures> features = history.diffs().stream().map(DiffFeatures::of).toList();
        RetrievalGenerator generator = new RetrievalGenerator();
        double[][] us = new double[3][runs];
        int weighting = 0;
        for (int run = -1; run < runs; run++) { // pass -1 warms the JIT up
            long[] ns = new long[3];
            try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
                RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, history.size());
                for (int i = 0; i < history.size(); i++) {
                    var d = history.diffs().get(i);
                    DiffFeatures f = features.get(i);
                    String message = history.messages().get(i);
                    float[] q = memory.vector(f.terms());
                    long t0 = System.nanoTime();
                    generator.generate(d, f, memory, q);
                    long t1 = System.nanoTime();
                    generator.observe(d, f, memory, q, message);
                    long t2 = System.nanoTime();
                    memory.learn(d, f, q, message);
                    long t3 = System.nanoTime();
                    if (i >= timedFrom) {
                        ns[0] += t1 - t0;
                        ns[1] += t2 - t1;
                        ns[2] += t3 - t2;
                    }
                }
                weighting = RetrievalGenerator.ranker(memory.model());
            }
            if (run >= 0) {
                int timed = history.size() - timedFrom;
                for (int s = 0; s < 3; s++) {
                    us[s][run] = ns[s] / 1e3 / timed;
                }
                err.printf("  pass %d: suggest %.1f µs, observe %.1f µs, learn %.1f µs%n", run + 1, us[0][run],
                        us[1][run], us[2][run]);
            }
        }
        double suggest = DiffReference.median(us[0]);
        double observe = DiffReference.median(us[1]);
        double learn = DiffReference.median(us[2]);
        out.printf("{\"commits\":%d,\"timed\":%d,\"suggest_us\":%.1f,\"observe_us\":%.1f,\"learn_us\":%.1f,"
                        + "\"observe_share\":%.3f,\"weights\":\"%s\"}%n", history.size(), history.size() - timedFrom,
                suggest, observe, learn, observe / (suggest + learn),
                RankerChoice.GRID.get(weighting));
        return 0;
    }
}
