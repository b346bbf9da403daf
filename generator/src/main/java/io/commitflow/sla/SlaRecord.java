package io.commitflow.sla;

/**
 * A record for {@code commitflow.sla}: its JSON ({@code kind} {@code window}, {@code spike} or {@code late}) and the
 * tenant it is about (the Kafka key, so that one tenant's records stay in order).
 *
 * @param traceId for a spike, the trace id of its slowest request (the record's {@code traceparent} continues that
 *                trace); null for the others
 */
public record SlaRecord(String tenant, String json, String traceId) {
    /** A record that belongs to no trace (a window, a late sample). */
    public SlaRecord(String tenant, String json) {
        this(tenant, json, null);
    }
}
