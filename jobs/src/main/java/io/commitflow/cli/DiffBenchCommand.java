package io.commitflow.cli;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.Origin;
import io.commitflow.git.CommitDiffer;
import io.commitflow.git.DiffBudget;
import io.commitflow.git.DiffedCommit;
import io.commitflow.replay.History;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

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

    @Option(names = "--repo", required = true, paramLabel = "PATH", description = "Repository (work tree or bare).")
    Path repo;

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
        if (commits < 1 || runs < 1) {
            throw new UserError("--commits and --runs must be at least 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Repository r = openRepository()) {
            CommitDiffer differ = new CommitDiffer(DiffBudget.DEFAULT);
            Map<String, String> patchIds = new LinkedHashMap<>();
            List<RevCommit> all = firstParentChain(r);
            List<RevCommit> chain = new ArrayList<>();
            long bytes = jgitPass(r, differ, all, patchIds, chain); // warm-up: JIT, pack and delta caches
            jgitPass(r, differ, chain, null, null); // on one core the JIT needs a second pass to settle
            err.printf("bench diff: %d first-parent commits of %s (%d left out: blobs missing from a partial clone), "
                    + "%d timed runs per side%n", chain.size(), repo, all.size() - chain.size(), runs);
            gitPass(r, chain); // warm-up: page cache
            // alternate the two sides, so that drift in the machine's speed hits both alike
            double[] jgit = new double[runs];
            double[] cgit = new double[runs];
            for (int i = 0; i < runs; i++) {
                long t = System.nanoTime();
                jgitPass(r, differ, chain, null, null);
                jgit[i] = (System.nanoTime() - t) / 1e9;
                t = System.nanoTime();
                gitPass(r, chain);
                cgit[i] = (System.nanoTime() - t) / 1e9;
                err.printf("  run %d: jgit %.2f s, git %.2f s%n", i + 1, jgit[i], cgit[i]);
            }
            double jgitRate = chain.size() / median(jgit);
            double gitRate = chain.size() / median(cgit);
            String mismatch = "";
            if (check) {
                long notComputed = patchIds.values().stream().filter(java.util.Objects::isNull).count();
                int bad = checkPatchIds(r, chain, patchIds, err);
                mismatch = String.format(",\"patch_ids_compared\":%d,\"patch_id_mismatches\":%d,\"patch_ids_over_budget\":%d",
                        patchIds.size() - notComputed, bad, notComputed);
            }
            out.printf("{\"commits\":%d,\"jgit_commits_per_s\":%.1f,\"git_commits_per_s\":%.1f,\"ratio\":%.2f,"
                            + "\"patch_bytes\":%d,\"cpus\":%d%s}%n",
                    chain.size(), jgitRate, gitRate, jgitRate / gitRate, bytes, Runtime.getRuntime().availableProcessors(), mismatch);
            return 0;
        }
    }

    private Repository openRepository() throws IOException {
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
                throw new UserError("no HEAD commit in " + repo);
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

    /** Diffs each commit; collects patch-ids and the commits whose blobs are all present, when asked. */
    private static long jgitPass(Repository r, CommitDiffer differ, List<RevCommit> chain, Map<String, String> patchIds,
                                 List<RevCommit> complete) throws IOException {
        long bytes = 0;
        try (ObjectReader reader = r.newObjectReader(); RevWalk walk = new RevWalk(reader)) {
            for (RevCommit c : chain) {
                RevCommit commit = walk.parseCommit(c);
                ObjectId parent = commit.getParentCount() == 0 ? null : walk.parseCommit(commit.getParent(0)).getTree();
                CommitEvent e = new CommitEvent("bench", "bench", commit.name(), List.of(), "", 0, null, null, "",
                        Origin.synthetic(0));
                DiffedCommit d = differ.diff(r, reader, e, parent, commit.getTree());
                bytes += d.patch().length();
                boolean missing = d.truncation().contains("blobs missing");
                if (patchIds != null && !missing) {
                    patchIds.put(commit.name(), d.patchId());
                }
                if (complete != null && !missing) {
                    complete.add(c);
                }
            }
        }
        return bytes;
    }

    /** {@code git log -p -M} over the same commits (same algorithm and index format as ours), output drained. */
    private void gitPass(Repository r, List<RevCommit> chain) throws IOException, InterruptedException {
        List<String> cmd = List.of(git, "--git-dir=" + r.getDirectory(), "log", "-p", "-M", "--histogram",
                "--full-index", "--diff-merges=first-parent", "--no-color", "--no-ext-diff", "--no-walk=unsorted", "--stdin");
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        feed(p, chain);
        try (InputStream in = p.getInputStream()) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
        }
        if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IOException("git log failed (exit " + p.exitValue() + ")");
        }
    }

    /** Compares our patch-ids with {@code git diff-tree -p | git patch-id --stable}, one git call pair for all. */
    private int checkPatchIds(Repository r, List<RevCommit> chain, Map<String, String> ours, PrintWriter err)
            throws IOException, InterruptedException {
        List<String> log = List.of(git, "--git-dir=" + r.getDirectory(), "log", "-p", "-M", "--histogram",
                "--no-indent-heuristic", "--full-index", "--diff-merges=first-parent", "--no-color", "--no-walk=unsorted",
                "--stdin");
        Process logP = new ProcessBuilder(log).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        feed(logP, chain);
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

    /** Writes the commit ids to git's standard input from a thread, so that its output can be read meanwhile. */
    private static void feed(Process p, List<RevCommit> chain) {
        Thread t = new Thread(() -> {
            try (var in = p.getOutputStream()) {
                for (RevCommit c : chain) {
                    in.write((c.name() + "\n").getBytes(StandardCharsets.US_ASCII));
                }
            } catch (IOException e) {
                // git exited early: its exit code says so
            }
        }, "bench-feed");
        t.setDaemon(true);
        t.start();
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
