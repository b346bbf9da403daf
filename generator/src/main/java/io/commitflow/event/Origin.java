package io.commitflow.event;

/**
 * Where a record came from: its Kafka topic, partition and offset, the record's Kafka timestamp
 * (milliseconds since the epoch), and its W3C {@code traceparent} header when it had a valid one. Every latency is
 * measured from {@link #kafkaTs()}, and every dead letter names its origin so that an operator can find the raw
 * record again.
 *
 * @param traceparent the record's {@code traceparent} header, or null when it had none (or an invalid one)
 * @param tracestate  the record's {@code tracestate} header (vendors' trace data, passed on untouched), or null when
 *                    it had none or no valid {@code traceparent}
 */
public record Origin(String topic, int partition, long offset, long kafkaTs, String traceparent, String tracestate) {
    /** W3C: a {@code tracestate} longer than this may be dropped; it is. */
    public static final int MAX_TRACESTATE = 512;

    /** An origin without trace context. */
    public Origin(String topic, int partition, long offset, long kafkaTs) {
        this(topic, partition, offset, kafkaTs, null, null);
    }

    /** An origin with a {@code traceparent} and no {@code tracestate}. */
    public Origin(String topic, int partition, long offset, long kafkaTs, String traceparent) {
        this(topic, partition, offset, kafkaTs, traceparent, null);
    }

    /**
     * This origin with the record's trace context headers: {@code traceparent} kept only when it is valid, and
     * {@code tracestate} only beside a valid {@code traceparent} and within {@value #MAX_TRACESTATE} characters.
     */
    public Origin withTraceContext(String traceparentHeader, String tracestateHeader) {
        if (TraceContext.traceIdOf(traceparentHeader) == null) {
            return new Origin(topic, partition, offset, kafkaTs, null, null);
        }
        String state = tracestateHeader == null || tracestateHeader.isBlank()
                || tracestateHeader.length() > MAX_TRACESTATE ? null : tracestateHeader.strip();
        return new Origin(topic, partition, offset, kafkaTs, traceparentHeader.strip(), state);
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
