package io.commitflow.ingest;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.PushEvent;
import io.commitflow.event.RepoKeys;
import io.commitflow.keys.RepoKeySelector;
import io.commitflow.event.Reason;
import io.commitflow.git.MirrorRoot;
import io.commitflow.git.Mirrors;
import io.commitflow.push.PendingPush;
import io.commitflow.push.PushExpander;
import io.commitflow.push.RetryPolicy;
import io.commitflow.spans.StageTrace;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Expands pushes into commits with {@link PushExpander}, keyed by repository ({@link #KEY}). A push whose commits
 * the mirror does not have yet (the server published the event before the mirror fetched) waits and is retried with
 * backoff ({@link RetryPolicy}); after the policy's maximum wait it becomes a dead letter. Each waiting push retries
 * on its own schedule, so a push that will never resolve does not hold up the repository's other pushes; dedup
 * absorbs the overlap when pushes resolve out of order.
 *
 * <p>State: per repository, the {@link PendingPush}es, with processing-time timers for their next tries. Entries
 * leave as they succeed or give up, so they live at most {@code maxWait} plus one delay; no TTL is needed. A
 * bounded run ends without waiting for them (an unbounded job keeps them in its checkpoints).
 *
 * <p>Metrics (counts): {@code pushesExpanded}, {@code commitsFromPushes}, {@code refsDeleted},
 * {@code metadataRefsSkipped} (updates of refs that hold server metadata, see {@link PushEvent#metadataRef()}),
 * {@code pushRetries}, {@code pushesGivenUp}.
 */
public class ExpandPushes extends KeyedProcessFunction<String, PushEvent, CommitEvent> {
    private static final long serialVersionUID = 1L;

    /** Keyed by repository ({@link RepoKeys#GLOBAL}). */
    public static final KeySelector<PushEvent, String> KEY = key(RepoKeys.GLOBAL);

    /** Keyed by repository, named as {@code keys} names them. */
    public static KeySelector<PushEvent, String> key(RepoKeys keys) {
        return RepoKeySelector.pushes(keys);
    }

    private final String mirrorRoot;
    private final RepoKeys keys;
    private final RetryPolicy retry;
    private final int maxCommits;
    private transient Mirrors mirrors;
    private transient PushExpander expander;
    private transient ListState<PendingPush> waiting;
    private transient Counter pushes;
    private transient Counter commits;
    private transient Counter deletions;
    private transient Counter metadata;
    private transient Counter retries;
    private transient Counter givenUp;
    private transient StageTrace tracing;

    /** @param mirrorRoot the directory holding the mirrors, or {@code null}: then every push is a dead letter */
    public ExpandPushes(String mirrorRoot, RetryPolicy retry) {
        this(mirrorRoot, retry, PushExpander.DEFAULT_MAX_COMMITS);
    }

    /** @param maxCommits the most commits one push may bring; a larger push is one dead letter (TOO_MANY_COMMITS) */
    public ExpandPushes(String mirrorRoot, RetryPolicy retry, int maxCommits) {
        this(mirrorRoot, retry, maxCommits, RepoKeys.GLOBAL);
    }

    /** @param keys whose names repository names are: the keys of {@link #key} and where mirrors lie */
    public ExpandPushes(String mirrorRoot, RetryPolicy retry, int maxCommits, RepoKeys keys) {
        this.mirrorRoot = mirrorRoot;
        this.retry = retry;
        this.maxCommits = maxCommits;
        this.keys = keys;
    }

    @Override
    public void open(OpenContext openContext) {
        mirrors = mirrorRoot == null ? null : new Mirrors(new MirrorRoot(Path.of(mirrorRoot)), 64, keys);
        expander = new PushExpander(maxCommits);
        waiting = getRuntimeContext().getListState(
                new ListStateDescriptor<>("pushes-waiting-for-mirror", TypeInformation.of(PendingPush.class)));
        var metrics = getRuntimeContext().getMetricGroup();
        pushes = metrics.counter("pushesExpanded");
        commits = metrics.counter("commitsFromPushes");
        deletions = metrics.counter("refsDeleted");
        metadata = metrics.counter("metadataRefsSkipped");
        retries = metrics.counter("pushRetries");
        givenUp = metrics.counter("pushesGivenUp");
        tracing = StageTrace.acquire();
    }

    @Override
    public void processElement(PushEvent push, Context ctx, Collector<CommitEvent> out) throws Exception {
        if (push.deletesRef()) {
            deletions.inc();
            return;
        }
        if (push.metadataRef()) {
            metadata.inc();
            return;
        }
        long now = ctx.timerService().currentProcessingTime();
        PendingPush left = attempt(new PendingPush(push, now, 0, now), now, ctx, out);
        if (left != null) {
            waiting.add(left);
            ctx.timerService().registerProcessingTimeTimer(left.nextTry());
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<CommitEvent> out) throws Exception {
        long now = ctx.timerService().currentProcessingTime();
        List<PendingPush> keep = new ArrayList<>();
        for (PendingPush p : waiting.get()) {
            if (p.nextTry() > now) {
                keep.add(p); // its own timer comes later
                continue;
            }
            retries.inc();
            PendingPush left = attempt(p, now, ctx, out);
            if (left != null) {
                keep.add(left);
                ctx.timerService().registerProcessingTimeTimer(left.nextTry());
            }
        }
        waiting.update(keep);
    }

    /** Tries one push; returns it, counted, when the mirror still lacks its commits and it may wait longer. */
    private PendingPush attempt(PendingPush p, long now, Context ctx, Collector<CommitEvent> out) {
        long startNs = tracing.enabled() ? tracing.nowNs() : 0;
        PushEvent push = p.push();
        int expanded = 0;
        String error = null;
        try {
            if (mirrors == null) {
                throw new InvalidEventException(Reason.NO_DIFF_SOURCE, "a push needs a mirror, and the job has no mirror root");
            }
            expanded = expander.expand(mirrors.open(push.tenant(), push.repo()), push, out::collect);
            commits.inc(expanded);
            pushes.inc();
        } catch (InvalidEventException e) {
            if (RetryPolicy.waitsForMirror(e.reason())) {
                int attempts = p.attempts() + 1;
                long next = retry.nextTry(p.firstTry(), attempts, now);
                if (next >= 0) {
                    return new PendingPush(push, p.firstTry(), attempts, next);
                }
                givenUp.inc();
                error = e.reason().name();
                ctx.output(DeadLetters.TAG, DeadLetter.of(push, e.reason(),
                        e.getMessage() + RetryPolicy.gaveUp(p.firstTry(), attempts, now), "expand"));
            } else {
                error = e.reason().name();
                ctx.output(DeadLetters.TAG, DeadLetter.of(push, e.reason(), e.getMessage(), "expand"));
            }
        } catch (IOException | RuntimeException e) {
            error = Reason.GIT_ERROR.name();
            ctx.output(DeadLetters.TAG, DeadLetter.of(push, Reason.GIT_ERROR,
                    "expanding the push to " + push.ref() + " failed: " + e, "expand"));
        }
        trace(p, now, expanded, startNs, error);
        return null;
    }

    /** The push's expansion span: its last attempt, with how long it waited for the mirror before that. */
    private void trace(PendingPush p, long now, int expanded, long startNs, String error) {
        tracing.expanded(p.push(), startNs, error, expanded, p.attempts() + 1L, now - p.firstTry());
    }

    @Override
    public void close() {
        if (mirrors != null) {
            mirrors.close();
        }
        if (tracing != null) {
            tracing.close();
            tracing = null;
        }
    }
}
