package io.commitflow.cli;

import io.commitflow.git.History;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code commitflow bench diff}: the pipeline's diff code against {@code git log -p -M} on the same commits.
 * Pin it to one core with {@code taskset -c 0 ./commitflow bench diff …} (git inherits the pinning).
 */
@Command(name = "diff", mixinStandardHelpOptions = true,
        description = "Diffs the last N first-parent commits with the pipeline's diff code (JGit, with patch text, "
                + "counts and patch-id), then runs git log -p -M over the same commits, and prints one JSON line. "
                + "Each side runs --runs times, alternating, after warm-up passes (a streaming job runs warm); "
                + "the medians are reported.",
        footer = {"", "Example: taskset -c 0 ./commitflow bench diff --repo ~/src/jgit --commits 2000"})
public final class DiffBenchCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    RepositoryPath repository = new RepositoryPath();

    @Option(names = "--commits", defaultValue = "2000", paramLabel = "N", description = "Commits to diff (default: ${DEFAULT-VALUE}).")
    int commits;

    @Option(names = "--runs", defaultValue = "5", paramLabel = "N", description = "Timed runs per side (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--git", defaultValue = "git", paramLabel = "PATH", description = "The git binary (default: ${DEFAULT-VALUE}).")
    String git;

    @Option(names = "--check", description = "Also compare each commit's patch-id with git patch-id --stable and report mismatches.")
    boolean check;

    @Override
    public Integer call() throws Exception {
        Path repo = repository.path;
        if (commits < 1 || runs < 1) {
            throw new UserError("--commits and --runs must be at least 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Repository r = openRepository(repo); DiffReference reference = new DiffReference(r, git)) {
            Map<String, String> patchIds = new LinkedHashMap<>();
            List<RevCommit> all = firstParentChain(r);
            List<RevCommit> chain = reference.complete(all, patchIds); // also the JIT's and the pack caches' warm-up
            err.printf("bench diff: %d first-parent commits of %s (%d left out: blobs missing from a partial clone), "
                    + "%d timed runs per side%n", chain.size(), repo, all.size() - chain.size(), runs);
            DiffReference.Rates rates = reference.measure(chain, runs, err);
            if (Double.isNaN(rates.gitCommitsPerS())) {
                throw new UserError("cannot run '" + git + "' (set --git PATH)");
            }
            String mismatch = "";
            if (check) {
                long notComputed = patchIds.values().stream().filter(java.util.Objects::isNull).count();
                int bad = checkPatchIds(r, chain, patchIds, err);
                mismatch = String.format(",\"patch_ids_compared\":%d,\"patch_id_mismatches\":%d,\"patch_ids_over_budget\":%d",
                        patchIds.size() - notComputed, bad, notComputed);
            }
            out.printf("{\"commits\":%d,\"jgit_commits_per_s\":%.1f,\"git_commits_per_s\":%.1f,\"ratio\":%.2f,"
                            + "\"patch_bytes\":%d,\"cpus\":%d%s}%n",
                    chain.size(), rates.diffCommitsPerS(), rates.gitCommitsPerS(), rates.ratio(), rates.patchBytes(),
                    Runtime.getRuntime().availableProcessors(), mismatch);
            return 0;
        }
    }

    /** The repository at {@code repo}, or a {@link UserError} saying why there is none. */
    static Repository openRepository(Path repo) throws IOException {
        try {
            return History.open(repo);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
    }

    /** The last {@code commits} commits on HEAD's first-parent chain, newest first (git log's order). */
    private List<RevCommit> firstParentChain(Repository r) throws IOException {
        List<RevCommit> chain = new ArrayList<>();
        try (RevWalk walk = new RevWalk(r)) {
            walk.setFirstParent(true);
            ObjectId head = r.resolve("HEAD");
            if (head == null) {
                throw new UserError("no HEAD commit in " + repository.path);
            }
            walk.markStart(walk.parseCommit(head));
            for (RevCommit c : walk) {
                chain.add(c);
                if (chain.size() >= commits) {
                    break;
                }
            }
        }
        return chain;
    }

    /** Compares our patch-ids with {@code git diff-tree -p | git patch-id --stable}, one git call pair for all. */
    private int checkPatchIds(Repository r, List<RevCommit> chain, Map<String, String> ours, PrintWriter err)
            throws IOException, InterruptedException {
        List<String> log = List.of(git, "--git-dir=" + r.getDirectory(), "log", "-p", "-M", "--histogram",
                "--no-indent-heuristic", "--full-index", "--diff-merges=first-parent", "--no-color", "--no-walk=unsorted",
                "--stdin");
        Process logP = new ProcessBuilder(log).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        DiffReference.feed(logP, chain);
        Process idP = new ProcessBuilder(git, "patch-id", "--stable").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Thread pump = new Thread(() -> {
            try (InputStream in = logP.getInputStream(); var o = idP.getOutputStream()) {
                in.transferTo(o);
            } catch (IOException e) {
                // reported through the exit codes
            }
        });
        pump.start();
        String ids = new String(idP.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        pump.join();
        logP.waitFor();
        idP.waitFor();
        Map<String, String> theirs = new LinkedHashMap<>();
        for (String line : ids.split("\n")) {
            String[] f = line.split(" ");
            if (f.length == 2) {
                theirs.put(f[1], f[0]);
            }
        }
        int bad = 0;
        for (var e : ours.entrySet()) {
            if (e.getValue() == null) {
                continue; // over the diff budget: no patch-id by design
            }
            String expected = theirs.get(e.getKey());
            if (!java.util.Objects.equals(expected, e.getValue())) {
                bad++;
                if (bad <= 10) {
                    err.printf("  patch-id differs for %s: ours %s, git %s%n", e.getKey(), e.getValue(), expected);
                }
            }
        }
        return bad;
    }
}
