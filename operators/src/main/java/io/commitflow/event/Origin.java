package io.commitflow.event;

/**
 * Where a record came from: its Kafka topic, partition and offset, and the record's Kafka timestamp
 * (milliseconds since the epoch). Every latency is measured from {@link #kafkaTs()}, and every
 * dead letter names its origin so that an operator can find the raw record again.
 */
public record Origin(String topic, int partition, long offset, long kafkaTs) {

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
