package io.commitflow.spans;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.Origin;
import io.commitflow.event.PushEvent;
import io.commitflow.event.Suggestion;
import io.commitflow.git.DiffedCommit;
import io.commitflow.llm.LlmWriter;

import java.util.ServiceLoader;

/**
 * What the operators tell of each event's way through them: one span per stage of its trace. The operators own
 * this interface and name no tracer; {@link #acquire} finds the one on the classpath (OpenTelemetry's, in the
 * {@code trace} package), which decides what is sampled and where spans go. Times are epoch nanoseconds
 * ({@link #nowNs}); a start of 0 means the event was not timed (tracing off).
 */
public interface StageTrace extends AutoCloseable {
    /** Whether any event may be traced; when not, the operators take no timings. */
    boolean enabled();

    /** Now, on the spans' clock (epoch ns). */
    long nowNs();

    /** A commit or draft read from Kafka and parsed. */
    void consumed(Origin o, CommitEvent e, long startNs);

    /** A push read from Kafka and parsed. */
    void consumed(Origin o, PushEvent p, long startNs);

    /** A record read from Kafka and rejected as {@code d}. */
    void rejected(Origin o, DeadLetter d, long startNs);

    /** A delivery of a commit already diffed or waiting, dropped by dedup. */
    void duplicate(String span, CommitEvent c);

    /**
     * A commit's or draft's diff ({@code d}, or null when it was rejected with {@code error}).
     *
     * @param attempts     how often the mirror was tried (0: not from a mirror's retry schedule)
     * @param mirrorWaitMs how long the commit waited for its mirror
     */
    void diffed(String span, CommitEvent c, DiffedCommit d, long startNs, String error, long attempts,
                long mirrorWaitMs);

    /** A push expanded into {@code commits} commits read from its mirror (or rejected with {@code error}). */
    void expanded(PushEvent p, long startNs, String error, long commits, long attempts, long mirrorWaitMs);

    /** A commit's row learned into its repository's memory of {@code rows} rows. */
    void indexed(CommitEvent c, long startNs, int rows, boolean onEngine);

    /**
     * The engine batch a request rode in.
     *
     * @param size     the batch's size; 0 when it was answered otherwise (the scan after a timeout)
     * @param timedOut answered by the exact scan in the task thread after the async timeout
     */
    record Batch(String engine, long startNs, long endNs, int size, boolean timedOut) {}

    /**
     * The suggestion made for {@code c}, with the trace context its record carries; and, when the commit's trace is
     * sampled, the suggest stage's span with its children (the engine batch, or none for a cache hit; the LLM call,
     * or none).
     */
    Suggestion suggested(CommitEvent c, Suggestion made, long startNs, Batch batch, LlmWriter.Call llm);

    /** Releases the tracer; the last release of a process exports what is queued. */
    @Override
    void close();

    /** The tracer on the classpath, for one operator instance: {@link #close} it when the operator closes. */
    static StageTrace acquire() {
        return ServiceLoader.load(StageTrace.class, StageTrace.class.getClassLoader()).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + StageTrace.class.getName()
                        + " on the classpath (META-INF/services)"));
    }
}
