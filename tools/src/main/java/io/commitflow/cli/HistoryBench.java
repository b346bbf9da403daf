package io.commitflow.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What the benches over a real history share ({@code bench generator}, {@code bench fleet}): the repository, the
 * number of timed passes after a warm-up pass, and the history's first-parent commits, diffed before the timing.
 */
final class HistoryBench {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Mixin
    RepositoryPath repository = new RepositoryPath();

    @Option(names = "--runs", defaultValue = "3", paramLabel = "N",
            description = "Timed passes after a warm-up pass; the figures are their medians, on one thread as in a "
                    + "Flink task, the diffs made before the timing (default: ${DEFAULT-VALUE}).")
    int runs;

    /** The command's standard output, for the figures; progress goes to {@link #err()}. */
    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    Path repo() {
        return repository.path;
    }

    /**
     * The repository's last {@code max} first-parent commits without merges, diffed.
     *
     * @throws UserError when {@code --runs} is below 1, or the history has fewer than {@code atLeast} such commits
     */
    BenchHistory load(int max, int atLeast) throws IOException {
        if (runs < 1) {
            throw new UserError("--runs must be at least 1");
        }
        BenchHistory history = BenchHistory.load(repo(), max);
        if (history.size() < atLeast) {
            throw new UserError(repo() + " has " + history.size() + " first-parent commits without merges: this bench "
                    + "needs at least " + atLeast);
        }
        return history;
    }
}
