package io.commitflow.cli;

import io.commitflow.eval.Evaluation;
import io.commitflow.event.Json;
import io.commitflow.generate.RetrievalGenerator;
import io.commitflow.git.History;
import org.eclipse.jgit.lib.Repository;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code commitflow eval}: the built-in generator against NNGen on a repository's own history. */
@Command(name = "eval", mixinStandardHelpOptions = true,
        description = "Runs the online chronological protocol over the first-parent chain without merges: each of "
                + "the last N commits by people (bots' commits are learned from, not scored) is generated from only the H commits before it, by commitflow's generator and by "
                + "the NNGen baseline, and both subjects are scored against the real subject (B-Norm, ROUGE-L).",
        footer = {"", "Example: ./commitflow eval --repo ~/src/jgit --test 1000 --history 3000 --out jgit-eval.jsonl",
                "Learning curve: ./commitflow eval --repo ~/src/jgit --test 300 --history 20,50,200,1000,3000",
                "Young repository with a fleet: ./commitflow eval --repo ~/src/jgit --test 300 --history 20 "
                        + "--fleet ~/src/egit,~/src/lfs",
                "Ceiling of choosing: ./commitflow eval --repo ~/src/jgit --test 1000 --history 3000 --hindsight"})
public final class EvalCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    RepositoryPath repository = new RepositoryPath();

    @Option(names = "--test", defaultValue = "1000", paramLabel = "N", description = "Test commits, the last N (default: ${DEFAULT-VALUE}).")
    int test;

    @Option(names = "--history", defaultValue = "3000", paramLabel = "H[,H…]", split = ",",
            description = {"Commits before each test commit it may learn from (default: ${DEFAULT-VALUE}); a shorter "
                    + "history is used whole, and the report says how many commits it had.",
                    "Several, comma-separated, give the learning curve in one run: the same test commits, each size "
                            + "in turn (e.g. 20,50,200,1000,3000)."})
    List<Integer> histories;

    @Option(names = "--fleet", paramLabel = "PATH[,PATH…]", split = ",",
            description = {"The tenant's other repositories: while the evaluated one has learned fewer than "
                    + RetrievalGenerator.YOUNG + " commits, commitflow also draws exemplars from theirs (in this "
                    + "repository's own form), and NNGen is given the same commits. Only commits older than the first "
                    + "one learned from are used."})
    List<Path> fleet = new ArrayList<>();

    @Option(names = "--fleet-commits", defaultValue = "1000", paramLabel = "N",
            description = "Commits per fleet repository, the last N before the evaluated history (default: ${DEFAULT-VALUE}).")
    int fleetCommits;

    @Option(names = "--hindsight",
            description = {"Also writes each test commit with the exemplar chosen knowing its real subject (of those "
                    + "the generator would accept, edited as it edits them, the one that scores best) and reports "
                    + "that B-Norm: how far a perfect ranker would get with the same exemplars and edits. Costs a "
                    + "second draft per test commit.",
                    "Also reports \"real form\": the B-Norm of the generator's subjects with the real subject's "
                            + "conventional type and scope and Area: prefix in place of their own."})
    boolean hindsight;

    @Option(names = "--reuse-floor", paramLabel = "F",
            description = {"How alike (retrieval score, 0-1) a neighbour's diff must be for its subject to be suggested; "
                    + "below it the diff's own description is written (default: ${DEFAULT-VALUE}, the job's). 0 suggests "
                    + "any neighbour's subject that passes the checks: more B-Norm, more subjects of another change."})
    double reuseFloor = RetrievalGenerator.DEFAULT_REUSE_FLOOR;

    @Option(names = "--out", paramLabel = "FILE.jsonl",
            description = "One JSON line per test commit (and history size): sha, messages, scores, unsupported names.")
    Path out;

    @Override
    public Integer call() throws Exception {
        Path repo = repository.path;
        if (test < 1 || histories.stream().anyMatch(h -> h < 1)) {
            throw new UserError("--test and every --history must be at least 1");
        }
        if (fleetCommits < 1) {
            throw new UserError("--fleet-commits must be at least 1");
        }
        if (!(reuseFloor >= 0 && reuseFloor <= 1)) {
            throw new UserError("--reuse-floor is a retrieval score, 0 to 1: " + reuseFloor);
        }
        for (Path f : fleet) {
            if (!Files.isDirectory(f)) {
                throw new UserError("--fleet " + f + ": no such directory");
            }
            if (Files.isDirectory(repo) && Files.isSameFile(f, repo)) {
                throw new UserError("--fleet " + f + " is the evaluated repository itself");
            }
        }
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        BufferedWriter jsonl = out == null ? null : Files.newBufferedWriter(out, StandardCharsets.UTF_8);
        List<String> summaries = new ArrayList<>();
        List<Repository> fleetRepos = new ArrayList<>();
        try (Repository r = History.open(repo)) {
            for (Path f : fleet) {
                fleetRepos.add(History.open(f));
            }
            Evaluation.Fleet withFleet = fleetRepos.isEmpty() ? null
                    : new Evaluation.Fleet(fleetRepos, fleetCommits);
            o.printf("history   B-Norm  NNGen  ratio   without (#n): ours  NNGen  ratio   ROUGE-L ours  NNGen   "
                    + "without (#n): ours  NNGen   "
                    + "unfaithful ours  NNGen   real   old numbers ours  NNGen   20-72 chars ours  NNGen   real"
                    + (hindsight ? "   hindsight  ratio   without (#n)  ratio   real form" : "") + "%n");
            // every point of a learning curve scores the same commits: those the longest history allows
            int longest = histories.stream().mapToInt(Integer::intValue).max().orElseThrow();
            for (int history : histories) {
                err.printf("eval: %s, last %d commits, each from the %d before it%n", repo, test, history);
                long start = System.nanoTime();
                Evaluation.Summary s = new Evaluation(test, history, longest, hindsight, reuseFloor).run(r, withFleet,
                        row -> write(jsonl, history, row), err::println);
                double seconds = (System.nanoTime() - start) / 1e9;
                o.printf("%7d   %6.2f %6.2f  %5.2f   %18.2f %6.2f  %5.2f   %12.2f %6.2f   %18.2f %6.2f   "
                                + "%14.1f%% %5.1f%% %5.1f%%   "
                                + "%15.1f%% %5.1f%%   %15.1f%% %5.1f%% %5.1f%%"
                                + (hindsight ? String.format(Locale.ROOT, "   %9.2f  %5.2f   %12.2f  %5.2f   %9.2f",
                                        s.hindsight(), s.hindsightRatio(), s.hindsightNoSuffix(),
                                        s.hindsightRatioNoSuffix(), s.realForm()) : "") + "%n",
                        s.history(), s.bnorm(), s.nngenBnorm(), s.ratio(), s.bnormNoSuffix(), s.nngenBnormNoSuffix(),
                        s.ratioNoSuffix(), s.rougeL(), s.nngenRougeL(), s.rougeLNoSuffix(), s.nngenRougeLNoSuffix(),
                        s.unfaithful(), s.nngenUnfaithful(), s.referenceUnfaithful(), s.carried(), s.nngenCarried(),
                        s.conforming(), s.nngenConforming(), s.referenceConforming());
                if (s.bots() > 0) {
                    err.printf("eval: %d bot commits among the last ones were learned from, not scored%n", s.bots());
                }
                o.flush();
                summaries.add(String.format(Locale.ROOT, "{\"repo\":%s,\"commits\":%d,\"history\":%d,\"bnorm\":%.2f,"
                                + "\"nngen_bnorm\":%.2f,\"ratio\":%.2f,\"bnorm_no_suffix\":%.2f,\"nngen_bnorm_no_suffix\":%.2f,"
                                + "\"ratio_no_suffix\":%.2f,\"rouge_l\":%.2f,\"nngen_rouge_l\":%.2f,\"rouge_l_no_suffix\":%.2f,"
                                + "\"nngen_rouge_l_no_suffix\":%.2f,\"unfaithful_pct\":%.1f,"
                                + "\"nngen_unfaithful_pct\":%.1f,\"real_unfaithful_pct\":%.1f,\"old_numbers_pct\":%.1f,"
                                + "\"nngen_old_numbers_pct\":%.1f,\"conforming_pct\":%.1f,\"nngen_conforming_pct\":%.1f,"
                                + "\"real_conforming_pct\":%.1f,\"bots_not_scored\":%d,\"fleet_commits\":%d,"
                                + "\"reuse_floor\":%.2f,"
                                + (hindsight ? String.format(Locale.ROOT, "\"hindsight_bnorm\":%.2f,"
                                        + "\"hindsight_ratio\":%.2f,\"hindsight_bnorm_no_suffix\":%.2f,"
                                        + "\"hindsight_ratio_no_suffix\":%.2f,\"real_form_bnorm\":%.2f,", s.hindsight(),
                                        s.hindsightRatio(), s.hindsightNoSuffix(), s.hindsightRatioNoSuffix(),
                                        s.realForm()) : "")
                                + "\"seconds\":%.1f}",
                        Json.string(name(repo)), s.commits(), s.history(), s.bnorm(), s.nngenBnorm(), s.ratio(),
                        s.bnormNoSuffix(), s.nngenBnormNoSuffix(), s.ratioNoSuffix(), s.rougeL(), s.nngenRougeL(),
                        s.rougeLNoSuffix(), s.nngenRougeLNoSuffix(), s.unfaithful(), s.nngenUnfaithful(),
                        s.referenceUnfaithful(), s.carried(), s.nngenCarried(),
                        s.conforming(), s.nngenConforming(), s.referenceConforming(), s.bots(), s.fleet(), reuseFloor,
                        seconds));
            }
            summaries.forEach(o::println);
            return 0;
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        } finally {
            fleetRepos.forEach(Repository::close);
            if (jsonl != null) {
                jsonl.close();
            }
        }
    }

    private static void write(BufferedWriter jsonl, int history, Evaluation.Row row) {
        if (jsonl == null) {
            return;
        }
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("history", history);
        line.put("sha", row.sha());
        line.put("message", row.commitflow());
        line.put("reference", row.reference());
        line.put("nngen", row.nngen());
        line.put("bnorm", round(100 * row.bnorm()));
        line.put("nngen_bnorm", round(100 * row.nngenBnorm()));
        line.put("similarity", round(row.similarity()));
        line.put("bnorm_no_suffix", round(100 * row.bnormNoSuffix()));
        line.put("nngen_bnorm_no_suffix", round(100 * row.nngenBnormNoSuffix()));
        line.put("unsupported", row.unsupported());
        line.put("nngen_unsupported", row.nngenUnsupported());
        line.put("reference_unsupported", row.referenceUnsupported());
        line.put("old_numbers", row.carried());
        line.put("nngen_old_numbers", row.nngenCarried());
        line.put("conforms", row.conforms());
        if (row.hindsight() != null) {
            line.put("hindsight", row.hindsight());
            line.put("hindsight_bnorm", round(100 * row.hindsightBnorm()));
            line.put("hindsight_bnorm_no_suffix", round(100 * row.hindsightBnormNoSuffix()));
            line.put("real_form_bnorm", round(100 * row.realFormBnorm()));
        }
        try {
            jsonl.write(Json.string(line));
            jsonl.newLine();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The repository's name: its folder, or the one above a {@code .git} folder or a mirror's {@code repo}. */
    static String name(Path repo) {
        Path p = repo.toAbsolutePath().normalize();
        String n = p.getFileName() == null ? p.toString() : p.getFileName().toString();
        if ((n.equals(".git") || n.equals("repo")) && p.getParent() != null && p.getParent().getFileName() != null) {
            return p.getParent().getFileName().toString();
        }
        return n;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
