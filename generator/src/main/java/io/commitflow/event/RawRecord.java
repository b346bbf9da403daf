package io.commitflow.event;

/**
 * A Kafka record exactly as it arrived, before parsing. Parsing happens in the pipeline's {@code ParseEvents}, not in
 * the source's deserializer, so that a record that cannot be parsed becomes a dead letter instead of a
 * failed job.
 *
 * @param key   the record key, may be {@code null}
 * @param value the record value, may be {@code null} (a tombstone)
 */
public record RawRecord(Origin origin, byte[] key, byte[] value) {}
