package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.testing.KafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.io.IOException;
import java.time.Duration;
import java.util.function.Predicate;

/** Waiting for a record the job or a command writes, and reading its JSON, for the ITCases against a broker. */
final class KafkaRecords {
    private KafkaRecords() {}

    /** The first committed record on {@code topic} that {@code which} takes, read again until {@code within} is over. */
    static ConsumerRecord<byte[], byte[]> await(KafkaBroker kafka, String topic,
                                                Predicate<ConsumerRecord<byte[], byte[]>> which, Duration within)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            for (var r : kafka.readCommitted(topic)) {
                if (which.test(r)) {
                    return r;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no such record on " + topic + " within " + within.toSeconds() + " s");
    }

    /** The record's value as JSON; an empty object where it is none. */
    static JsonNode json(ConsumerRecord<byte[], byte[]> r) {
        try {
            JsonNode n = Json.mapper().readTree(r.value());
            return n == null ? Json.mapper().createObjectNode() : n;
        } catch (IOException e) {
            return Json.mapper().createObjectNode();
        }
    }
}
