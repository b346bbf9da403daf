package io.commitflow.event;

/**
 * Where a record came from: its Kafka topic, partition and offset, the record's Kafka timestamp
 * (milliseconds since the epoch), and its W3C {@code traceparent} header when it had a valid one. Every latency is
 * measured from {@link #kafkaTs()}, and every dead letter names its origin so that an operator can find the raw
 * record again.
 *
 * @param traceparent the record's {@code traceparent} header, or null when it had none (or an invalid one)
 */
public record Origin(String topic, int partition, long offset, long kafkaTs, String traceparent) {

    /** An origin without trace context. */
    public Origin(String topic, int partition, long offset, long kafkaTs) {
        this(topic, partition, offset, kafkaTs, null);
    }

    /** This origin with the record's {@code traceparent} header, kept only when it is valid. */
    public Origin withTraceparent(String header) {
        return new Origin(topic, partition, offset, kafkaTs, TraceContext.traceIdOf(header) == null ? null : header.strip());
    }

    /** The trace id of the record's {@code traceparent} header, or null. */
    public String headerTraceId() {
        return TraceContext.traceIdOf(traceparent);
    }

    /** An origin for records that did not come from Kafka (tests, tools). */
    public static Origin synthetic(long kafkaTs) {
        return new Origin("", -1, -1L, kafkaTs);
    }

    /** A stable trace id derived from the origin, so that a replayed record keeps its trace id. */
    public String derivedTraceId() {
        String seed = topic + '/' + partition + '/' + offset;
        return Hashes.hex128(seed);
    }

    @Override
    public String toString() {
        return topic + '-' + partition + '@' + offset;
    }
}
