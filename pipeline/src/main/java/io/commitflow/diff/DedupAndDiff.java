package io.commitflow.diff;

import io.commitflow.cache.StateTtl;
import io.commitflow.event.CommitEvent;
import io.commitflow.event.RepoKeys;
import io.commitflow.keys.RepoKeySelector;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Reason;
import io.commitflow.git.DiffBudget;
import io.commitflow.git.DiffCommits.Waiting;
import io.commitflow.git.DiffCommits;
import io.commitflow.git.DiffedCommit;
import io.commitflow.ingest.DeadLetters;
import io.commitflow.push.RetryPolicy;
import io.commitflow.spans.StageTrace;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import java.io.IOException;
import java.time.Duration;

/**
 * Diffs each commit once ({@link DiffCommits}: from its inline patch when the event carries one, else from the
 * repository's mirror under the mirror root). Keyed by (repository, sha) with {@link #key}.
 *
 * <ul>
 *   <li><b>Dedup.</b> A commit is remembered when it is diffed, not when it arrives: a later delivery within the TTL
 *   is dropped ({@code dedupDropped}). A commit that ended in a dead letter is not remembered, so that a redelivery
 *   (after a transient {@code GIT_ERROR}, or once the mirror is fixed) is tried again and answered.</li>
 *   <li><b>Waiting for the mirror.</b> A commit that the mirror does not have yet (the server published the event
 *   before the mirror fetched it), or whose repository has no mirror yet (the mirror service clones it on first
 *   sight), waits and is retried with backoff ({@link RetryPolicy}, as pushes do); after the
 *   policy's maximum wait it becomes an {@code UNKNOWN_COMMIT} (or {@code NO_MIRROR}) dead letter. A delivery of a commit that is already
 *   waiting is dropped: the waiting one answers for both.</li>
 *   <li><b>Drafts</b> ({@link CommitEvent#draft()}) are diffed from their patch each time, neither dropped nor
 *   remembered.</li>
 *   <li>Every other failure is a dead letter at once, with its reason (no mirror, a name that leaves the root, a
 *   malformed patch, an object that is not a commit, a read error).</li>
 * </ul>
 *
 * <p>State per key: {@code first-seen} (the diffed delivery's Kafka timestamp; written once, cleared by RocksDB's
 * compaction filter a TTL after that, and never returned once expired, so the TTL must outlast the producers'
 * longest redelivery window, 24 h by default), and {@code waiting-for-mirror} (the commit and its retry schedule,
 * with a processing-time timer; it leaves when the commit is diffed or given up). The state name and the operator's
 * uid are those of the former dedup operator, so a savepoint taken before the two were one restores here.
 *
 * <p>Metrics: {@code dedupDropped}, {@code diffsFromMirror}, {@code diffsInline}, {@code diffsTruncated},
 * {@code mirrorRetries}, {@code commitsGivenUp} (counts), {@code diffMillisTotal} (milliseconds spent diffing, a
 * counter so that rates come out in ms/s).
 */
public class DedupAndDiff extends KeyedProcessFunction<String, CommitEvent, DiffedCommit> {
    private static final long serialVersionUID = 1L;

    public static final Duration DEFAULT_TTL = Duration.ofHours(24);
    private static final String SPAN = "dedup + diff";

    /** The key this function must be keyed by: (repository, sha) ({@link RepoKeys#GLOBAL}). */
    public static final KeySelector<CommitEvent, String> KEY = key(RepoKeys.GLOBAL);

    /** Keyed by (repository, sha), the repository named as {@code keys} names it. */
    public static KeySelector<CommitEvent, String> key(RepoKeys keys) {
        return RepoKeySelector.commits(keys);
    }

    private final String mirrorRoot;
    private final RepoKeys keys;
    private final DiffBudget budget;
    private final Duration ttl;
    private final RetryPolicy mirrorWait;

    private transient DiffCommits differ;
    private transient ValueState<Long> firstSeen;
    private transient ValueState<Waiting> waiting;
    private transient Counter dropped;
    private transient Counter fromMirror;
    private transient Counter fromInline;
    private transient Counter truncated;
    private transient Counter retries;
    private transient Counter givenUp;
    private transient Counter millis;
    private transient StageTrace tracing;

    /**
     * @param mirrorRoot the directory holding the mirrors, or {@code null} to accept inline patches only
     * @param ttl        how long a diffed commit is remembered, so that its redeliveries are dropped
     * @param mirrorWait how long a commit the mirror lacks waits for it, and how often it is tried meanwhile
     */
    public DedupAndDiff(String mirrorRoot, DiffBudget budget, Duration ttl, RetryPolicy mirrorWait) {
        this(mirrorRoot, budget, ttl, mirrorWait, RepoKeys.GLOBAL);
    }

    /** @param keys whose names repository names are: the keys of {@link #key} and where mirrors lie */
    public DedupAndDiff(String mirrorRoot, DiffBudget budget, Duration ttl, RetryPolicy mirrorWait, RepoKeys keys) {
        this.keys = keys;
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("dedup TTL must be positive, got " + ttl);
        }
        this.mirrorRoot = mirrorRoot;
        this.budget = budget;
        this.ttl = ttl;
        this.mirrorWait = mirrorWait;
    }

    @Override
    public void open(OpenContext openContext) {
        differ = new DiffCommits(mirrorRoot, budget, keys);
        ValueStateDescriptor<Long> seen = new ValueStateDescriptor<>("first-seen", Types.LONG);
        seen.enableTimeToLive(StateTtl.of(ttl));
        firstSeen = getRuntimeContext().getState(seen);
        waiting = getRuntimeContext().getState(
                new ValueStateDescriptor<>("waiting-for-mirror", TypeInformation.of(Waiting.class)));
        var metrics = getRuntimeContext().getMetricGroup();
        dropped = metrics.counter("dedupDropped");
        fromMirror = metrics.counter("diffsFromMirror");
        fromInline = metrics.counter("diffsInline");
        truncated = metrics.counter("diffsTruncated");
        retries = metrics.counter("mirrorRetries");
        givenUp = metrics.counter("commitsGivenUp");
        millis = metrics.counter("diffMillisTotal");
        tracing = StageTrace.acquire();
    }

    @Override
    public void processElement(CommitEvent commit, Context ctx, Collector<DiffedCommit> out) throws Exception {
        if (commit.draft()) {
            draft(commit, ctx, out);
            return;
        }
        if (firstSeen.value() != null || waiting.value() != null) {
            dropped.inc();
            tracing.duplicate(SPAN, commit);
            return;
        }
        long now = ctx.timerService().currentProcessingTime();
        attempt(new Waiting(commit, now, 0, now), now, ctx, out);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<DiffedCommit> out) throws Exception {
        Waiting w = waiting.value();
        long now = ctx.timerService().currentProcessingTime();
        if (w == null || w.nextTry() > now) {
            return; // answered meanwhile, or a timer of an earlier schedule
        }
        retries.inc();
        attempt(w, now, ctx, out);
    }

    /** Tries one commit: emits it and remembers it, or dead-letters it, or lets it wait for the mirror. */
    private void attempt(Waiting w, long now, Context ctx, Collector<DiffedCommit> out) throws IOException {
        CommitEvent commit = w.commit();
        long start = System.nanoTime();
        long startNs = tracing.enabled() ? tracing.nowNs() : 0;
        DiffedCommit diffed = null;
        String error = null;
        try {
            diffed = diff(commit);
            if (diffed.truncated()) {
                truncated.inc();
            }
            firstSeen.update(commit.origin().kafkaTs());
            waiting.clear();
            out.collect(diffed);
        } catch (InvalidEventException e) {
            int attempts = w.attempts() + 1;
            boolean mayArrive = RetryPolicy.waitsForMirror(e.reason());
            long next = mayArrive ? mirrorWait.nextTry(w.firstTry(), attempts, now) : -1;
            if (next >= 0) {
                waiting.update(new Waiting(commit, w.firstTry(), attempts, next));
                ctx.timerService().registerProcessingTimeTimer(next);
                startNs = 0; // no span for an attempt that waits: the last one has it
                return;
            }
            error = e.reason().name();
            waiting.clear();
            String detail = e.getMessage();
            if (mayArrive && w.attempts() > 0) {
                givenUp.inc();
                detail += RetryPolicy.gaveUp(w.firstTry(), attempts, now);
            }
            ctx.output(DeadLetters.TAG, DeadLetter.of(commit, e.reason(), detail, "diff"));
        } catch (IOException | RuntimeException e) {
            // A corrupt object or pack: the commit cannot be read now, but the job must go on; not remembered, so that
            // a redelivery is tried again.
            error = Reason.GIT_ERROR.name();
            waiting.clear();
            ctx.output(DeadLetters.TAG, DeadLetter.of(commit, Reason.GIT_ERROR,
                    "reading " + commit.sha() + " from the mirror of " + commit.repo() + " failed: " + e, "diff"));
        } finally {
            millis.inc((System.nanoTime() - start) / 1_000_000);
            if (startNs != 0) {
                tracing.diffed(SPAN, commit, diffed, startNs, error, w.attempts() + 1L, now - w.firstTry());
            }
        }
    }

    /**
     * A draft (a staged change that asks for a message) is diffed from its patch every time it comes: it is not a
     * commit yet, so dedup neither drops nor remembers it, and a redelivery gets its answer again.
     */
    private void draft(CommitEvent commit, Context ctx, Collector<DiffedCommit> out) {
        long start = System.nanoTime();
        try {
            fromInline.inc();
            DiffedCommit diffed = DiffDrafts.diffOrRefuse(differ.inline(), commit, tracing,
                    dead -> ctx.output(DeadLetters.TAG, dead));
            if (diffed != null) {
                if (diffed.truncated()) {
                    truncated.inc();
                }
                out.collect(diffed);
            }
        } finally {
            millis.inc((System.nanoTime() - start) / 1_000_000);
        }
    }

    private DiffedCommit diff(CommitEvent commit) throws InvalidEventException, IOException {
        boolean inline = commit.patch() != null;
        if (inline) {
            fromInline.inc();
        }
        DiffedCommit d = differ.diff(commit);
        if (!inline) {
            fromMirror.inc();
        }
        return d;
    }

    @Override
    public void close() {
        if (differ != null) {
            differ.close();
            differ = null;
        }
        if (tracing != null) {
            tracing.close();
            tracing = null;
        }
    }
}
