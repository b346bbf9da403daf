package io.commitflow.sla;

import io.commitflow.event.DeadLetter;
import io.commitflow.event.Suggestion;

/**
 * One outcome for the SLA windows: a suggestion (with its end-to-end latency and retrieval similarity) or a dead
 * letter (with its reason code as the error).
 *
 * @param key        the window key: tenant and backend ({@link #key(String, String)})
 * @param ts         event time: when the job made the outcome (epoch ms, the job's clock), so that every outcome,
 *                   however slow, lands in the window in which it happened and a producer's clock cannot make
 *                   later samples late
 * @param latencyMs  end to end, from the event's Kafka timestamp to the suggestion; 0 for errors
 * @param similarity the suggestion's retrieval similarity; 0 for errors
 * @param error      the dead letter's reason code, empty for a suggestion
 * @param bnorm      live quality: the suggestion's B-Norm against the real subject (0–100), or
 *                   {@link Suggestion#NOT_SCORED} when its event carried no message (and for errors)
 * @param unfaithful the scored suggestion names what its diff does not contain
 */
public record SlaSample(String tenant, String backend, long ts, long latencyMs, double similarity, String error,
                        String traceId, double bnorm, boolean unfaithful) {

    /** A sample without live quality. */
    public SlaSample(String tenant, String backend, long ts, long latencyMs, double similarity, String error,
                     String traceId) {
        this(tenant, backend, ts, latencyMs, similarity, error, traceId, Suggestion.NOT_SCORED, false);
    }

    /** The backend of dead letters; every sample also counts under {@link #ALL}. */
    public static final String DLQ = "dlq";
    public static final String ALL = "all";
    static final String UNKNOWN_TENANT = "unknown";

    public static SlaSample of(Suggestion s) {
        return new SlaSample(tenant(s.tenant()), s.backend(), s.madeMs(), s.latencyMs(), s.similarity(), "", s.traceId(),
                s.bnorm(), s.unfaithful());
    }

    public static SlaSample of(DeadLetter d) {
        return new SlaSample(tenant(d.tenant()), DLQ, d.madeMs(), 0, 0, d.reason(), d.traceId());
    }

    private static String tenant(String t) {
        return t == null || t.isEmpty() ? UNKNOWN_TENANT : t;
    }

    public boolean isError() {
        return !error.isEmpty();
    }

    /** A suggestion scored against the real message. */
    public boolean scored() {
        return !isError() && bnorm >= 0;
    }

    public String key() {
        return key(tenant, backend);
    }

    public SlaSample asAll() {
        return new SlaSample(tenant, ALL, ts, latencyMs, similarity, error, traceId, bnorm, unfaithful);
    }

    public static String key(String tenant, String backend) {
        return tenant + '\u0000' + backend;
    }
}
