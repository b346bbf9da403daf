package io.commitflow.event;

/**
 * A Kafka record exactly as it arrived, before parsing. Parsing happens in the pipeline's {@code ParseEvents}, not in
 * the source's deserializer, so that a record that cannot be parsed becomes a dead letter instead of a
 * failed job.
 *
 * @param key          the record key, may be {@code null}
 * @param value        the record value, may be {@code null} (a tombstone)
 * @param sourceTenant the tenant whose own topic the record was read from ({@link Tenants}), which decides the
 *                     event's tenant; empty when it was read from a topic that is no tenant's; null when it came from
 *                     a topic shared by every tenant, whose records name their tenant
 */
public record RawRecord(Origin origin, byte[] key, byte[] value, String sourceTenant) {
    /** A record of a topic shared by every tenant. */
    public RawRecord(Origin origin, byte[] key, byte[] value) {
        this(origin, key, value, null);
    }
}
