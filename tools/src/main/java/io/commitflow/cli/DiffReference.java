package io.commitflow.cli;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Origin;
import io.commitflow.git.CommitDiffer;
import io.commitflow.git.DiffBudget;
import io.commitflow.git.DiffedCommit;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The reference rates a diff is measured against, on one thread: the pipeline's diff code (JGit, with patch text,
 * counts and patch-id) and C git's {@code git log -p -M} over the same commits, each run {@code runs} times after
 * warm-up passes, the two sides alternating so that drift in the machine's speed hits both alike.
 * {@code bench diff} prints them; {@code loadtest} measures them after its profile, so that its figures have ratios
 * that survive a noisy machine.
 *
 * <pre>{@code
 * try (DiffReference ref = new DiffReference(repository, "git")) {
 *     DiffReference.Rates r = ref.measure(ref.complete(commits, null), 3, err);
 * }
 * }</pre>
 */
final class DiffReference implements AutoCloseable {
    /** Medians of the timed runs, in commits per second; {@code gitCommitsPerS} is NaN where git could not run. */
    record Rates(int commits, double diffCommitsPerS, double gitCommitsPerS, long patchBytes) {
        double ratio() {
            return diffCommitsPerS / gitCommitsPerS;
        }
    }

    private final Repository repository;
    private final String git;
    private final CommitDiffer differ = new CommitDiffer(DiffBudget.UNTIMED);

    DiffReference(Repository repository, String git) {
        this.repository = repository;
        this.git = git;
    }

    /**
     * The commits whose blobs are all present (a partial clone lacks some), after one pass that also warms the JIT
     * and the pack caches; their patch-ids go to {@code patchIds} when it is not null.
     */
    List<RevCommit> complete(List<RevCommit> commits, Map<String, String> patchIds) throws IOException {
        List<RevCommit> complete = new ArrayList<>();
        diffPass(commits, patchIds, complete);
        return complete;
    }

    /**
     * Times both sides over {@code commits}: one more warm-up pass of ours (on one core the JIT needs a second pass
     * to settle) and one of git's (the page cache), then {@code runs} alternating timed runs each.
     */
    Rates measure(List<RevCommit> commits, int runs, PrintWriter progress) throws IOException, InterruptedException {
        long bytes = diffPass(commits, null, null);
        boolean haveGit = gitPass(commits);
        double[] ours = new double[runs];
        double[] theirs = new double[runs];
        for (int i = 0; i < runs; i++) {
            long t = System.nanoTime();
            diffPass(commits, null, null);
            ours[i] = (System.nanoTime() - t) / 1e9;
            t = System.nanoTime();
            theirs[i] = haveGit && gitPass(commits) ? (System.nanoTime() - t) / 1e9 : Double.NaN;
            progress.printf(java.util.Locale.ROOT, "  run %d: diff code %.2f s, git %.2f s%n", i + 1, ours[i], theirs[i]);
        }
        return new Rates(commits.size(), commits.size() / median(ours), commits.size() / median(theirs), bytes);
    }

    /**
     * Diffs each commit as the job's dedup + diff stage does ({@link CommitDiffer#diff(Repository, CommitEvent)}: an
     * event naming the commit, read from the mirror); collects patch-ids and the commits whose blobs are all present,
     * when asked.
     */
    private long diffPass(List<RevCommit> commits, Map<String, String> patchIds, List<RevCommit> complete)
            throws IOException {
        long bytes = 0;
        for (RevCommit commit : commits) {
            CommitEvent e = new CommitEvent("bench", "bench", commit.name(), List.of(), "", 0, "", null, "",
                    Origin.synthetic(0));
            DiffedCommit d;
            try {
                d = differ.diff(repository, e);
            } catch (InvalidEventException notACommitHere) {
                throw new IOException(notACommitHere.getMessage(), notACommitHere);
            }
            bytes += d.patch().length();
            boolean missing = d.truncation().contains("blobs missing");
            if (patchIds != null && !missing) {
                patchIds.put(commit.name(), d.patchId());
            }
            if (complete != null && !missing) {
                complete.add(commit);
            }
        }
        return bytes;
    }

    /** Closes the readers the diff code keeps between commits. */
    @Override
    public void close() {
        differ.close();
    }

    /**
     * {@code git log -p -M} over the same commits (same algorithm and index format as ours), output drained.
     *
     * @return false where git is not installed
     * @throws IOException when git ran and failed
     */
    private boolean gitPass(List<RevCommit> commits) throws IOException, InterruptedException {
        List<String> cmd = List.of(git, "--git-dir=" + repository.getDirectory(), "log", "-p", "-M", "--histogram",
                "--full-index", "--diff-merges=first-parent", "--no-color", "--no-ext-diff", "--no-walk=unsorted", "--stdin");
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException notInstalled) {
            return false;
        }
        feed(p, commits);
        try (InputStream in = p.getInputStream()) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
        }
        if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IOException("git log failed (exit " + p.exitValue() + ")");
        }
        return true;
    }

    /** Writes the commit ids to git's standard input from a thread, so that its output can be read meanwhile. */
    static void feed(Process p, List<RevCommit> commits) {
        Thread t = new Thread(() -> {
            try (var in = p.getOutputStream()) {
                for (RevCommit c : commits) {
                    in.write((c.name() + "\n").getBytes(StandardCharsets.US_ASCII));
                }
            } catch (IOException e) {
                // git exited early: its exit code says so
            }
        }, "diff-reference-feed");
        t.setDaemon(true);
        t.start();
    }

    /** The median of {@code xs} (the mean of the middle two for an even count). */
    static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
