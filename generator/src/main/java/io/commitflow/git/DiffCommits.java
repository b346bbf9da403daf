package io.commitflow.git;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Reason;
import io.commitflow.event.RepoKeys;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Diffs commits: from the event's inline patch when it carries one, else from its repository's mirror under the
 * mirror root (at most {@value #MAX_OPEN_MIRRORS} mirrors open at once). The dedup + diff stage of the pipeline runs
 * one per task and adds the dedup, the wait for a mirror that lacks a commit ({@link Waiting}), and the metrics.
 */
public final class DiffCommits implements AutoCloseable {
    private static final int MAX_OPEN_MIRRORS = 64;

    /**
     * A commit that its mirror did not have yet, waiting for a retry (the stage's keyed state
     * {@code waiting-for-mirror}).
     *
     * @param firstTry when it was first tried (processing time, ms)
     * @param attempts how often it was tried
     * @param nextTry  when to try again (processing time, ms)
     */
    public record Waiting(CommitEvent commit, long firstTry, int attempts, long nextTry) {}

    private final Mirrors mirrors;
    private final CommitDiffer differ;
    private final InlinePatch inline;

    /** @param mirrorRoot the directory holding the mirrors, or {@code null} to accept inline patches only */
    public DiffCommits(String mirrorRoot, DiffBudget budget) {
        this(mirrorRoot, budget, RepoKeys.GLOBAL);
    }

    /** @param keys whose names repository names are, and so where their mirrors lie ({@link Mirrors}) */
    public DiffCommits(String mirrorRoot, DiffBudget budget, RepoKeys keys) {
        mirrors = mirrorRoot == null ? null : new Mirrors(new MirrorRoot(Path.of(mirrorRoot)), MAX_OPEN_MIRRORS, keys);
        differ = new CommitDiffer(budget);
        inline = new InlinePatch(budget);
    }

    /**
     * The commit's diff, from its inline patch or from its mirror.
     *
     * @throws InvalidEventException with the reason the commit cannot be diffed (no mirror, a commit the mirror
     *                               lacks, a malformed patch, …)
     * @throws IOException           when the mirror cannot be read
     */
    public DiffedCommit diff(CommitEvent commit) throws InvalidEventException, IOException {
        if (commit.patch() != null) {
            return inline.parse(commit);
        }
        if (mirrors == null) {
            throw new InvalidEventException(Reason.NO_DIFF_SOURCE,
                    "the event has no inline patch and the job has no mirror root configured");
        }
        try {
            return differ.diff(mirrors.open(commit.tenant(), commit.repo()), commit);
        } catch (DiffTimeoutException e) {
            throw new InvalidEventException(Reason.DIFF_TIMEOUT, e.getMessage());
        }
    }

    /** The parser of inline patches, which drafts are always diffed from. */
    public InlinePatch inline() {
        return inline;
    }

    @Override
    public void close() {
        differ.close();
        if (mirrors != null) {
            mirrors.close();
        }
    }
}
