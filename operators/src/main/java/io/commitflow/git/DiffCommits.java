package io.commitflow.git;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.DeadLetters;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Reason;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Diffs each commit: from its inline patch when the event carries one, else from the repository's mirror
 * under the mirror root. A commit that cannot be diffed goes to {@link DeadLetters#TAG} with the reason
 * (no mirror, unknown commit, a name that leaves the root, a malformed patch). Stateless; the open mirrors
 * are a cache owned by this instance and closed with it.
 *
 * <p>Metrics: {@code diffsFromMirror}, {@code diffsInline}, {@code diffsTruncated} (counts),
 * {@code diffMillisTotal} (milliseconds spent diffing, a counter so that rates come out in ms/s).
 */
public class DiffCommits extends ProcessFunction<CommitEvent, DiffedCommit> {
    private static final long serialVersionUID = 1L;
    private static final int MAX_OPEN_MIRRORS = 64;

    private final String mirrorRoot;
    private final DiffBudget budget;

    private transient Mirrors mirrors;
    private transient CommitDiffer differ;
    private transient InlinePatch inline;
    private transient Counter fromMirror;
    private transient Counter fromInline;
    private transient Counter truncated;
    private transient Counter millis;

    /** @param mirrorRoot the directory holding the mirrors, or {@code null} to accept inline patches only */
    public DiffCommits(String mirrorRoot, DiffBudget budget) {
        this.mirrorRoot = mirrorRoot;
        this.budget = budget;
    }

    @Override
    public void open(OpenContext openContext) {
        mirrors = mirrorRoot == null ? null : new Mirrors(new MirrorRoot(Path.of(mirrorRoot)), MAX_OPEN_MIRRORS);
        differ = new CommitDiffer(budget);
        inline = new InlinePatch(budget);
        var metrics = getRuntimeContext().getMetricGroup();
        fromMirror = metrics.counter("diffsFromMirror");
        fromInline = metrics.counter("diffsInline");
        truncated = metrics.counter("diffsTruncated");
        millis = metrics.counter("diffMillisTotal");
    }

    @Override
    public void processElement(CommitEvent commit, Context ctx, Collector<DiffedCommit> out) {
        long start = System.nanoTime();
        try {
            DiffedCommit diffed = diff(commit);
            if (diffed.truncated()) {
                truncated.inc();
            }
            out.collect(diffed);
        } catch (InvalidEventException e) {
            ctx.output(DeadLetters.TAG, DeadLetter.of(commit, e.reason(), e.getMessage(), "diff"));
        } catch (IOException | RuntimeException e) {
            // A corrupt object or pack: the commit cannot be read, but the job must go on.
            ctx.output(DeadLetters.TAG, DeadLetter.of(commit, Reason.GIT_ERROR,
                    "reading " + commit.sha() + " from the mirror of " + commit.repo() + " failed: " + e, "diff"));
        } finally {
            millis.inc((System.nanoTime() - start) / 1_000_000);
        }
    }

    private DiffedCommit diff(CommitEvent commit) throws InvalidEventException, IOException {
        if (commit.patch() != null) {
            fromInline.inc();
            return inline.parse(commit);
        }
        if (mirrors == null) {
            throw new InvalidEventException(Reason.NO_DIFF_SOURCE,
                    "the event has no inline patch and the job has no mirror root configured");
        }
        fromMirror.inc();
        return differ.diff(mirrors.open(commit.repo()), commit);
    }

    @Override
    public void close() {
        if (mirrors != null) {
            mirrors.close();
        }
    }
}
