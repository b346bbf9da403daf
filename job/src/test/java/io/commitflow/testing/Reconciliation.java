package io.commitflow.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.jgit.revwalk.RevCommit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the failure tests reconcile: the committed output against what was sent. A commit is {@code repo@sha}; a
 * dead letter is its origin {@code partition@offset}.
 */
public final class Reconciliation {
    private Reconciliation() {}

    /** {@code repo@sha} of each commit. */
    public static List<String> keys(String repo, List<RevCommit> commits) {
        return commits.stream().map(c -> repo + "@" + c.name()).toList();
    }

    /** How often each commit ({@code repo@sha}) was described in these suggestion records. */
    public static Map<String, Integer> perCommit(List<ConsumerRecord<byte[], byte[]>> suggestions) {
        Map<String, Integer> out = new HashMap<>();
        for (var r : suggestions) {
            JsonNode n = read(r);
            out.merge(n.path("repo").asText() + "@" + n.path("sha").asText(), 1, Integer::sum);
        }
        return out;
    }

    /** How often each origin ({@code partition@offset}) was dead-lettered in these records. */
    public static Map<String, Integer> perOrigin(List<ConsumerRecord<byte[], byte[]>> deadLetters) {
        Map<String, Integer> out = new HashMap<>();
        for (var r : deadLetters) {
            JsonNode d = read(r);
            out.merge(d.path("origin").path("partition").asInt() + "@" + d.path("origin").path("offset").asLong(), 1, Integer::sum);
        }
        return out;
    }

    /** Every expected commit described, nothing else (lost 0), and none twice (duplicates 0). */
    public static void assertExactlyOnce(Map<String, Integer> perCommit, Collection<String> expected) {
        assertThat(perCommit.keySet()).as("lost").containsExactlyInAnyOrderElementsOf(expected);
        assertThat(perCommit.entrySet().stream().filter(e -> e.getValue() > 1).toList()).as("duplicates").isEmpty();
    }

    /** Polls {@code condition} every 200 ms until it holds; fails after {@code timeout}. */
    public static void waitFor(BooleanSupplier condition, Duration timeout, String what) throws InterruptedException {
        waitFor(condition, timeout, Duration.ofMillis(200), what);
    }

    /** Polls {@code condition} every {@code every} until it holds; fails after {@code timeout}. */
    public static void waitFor(BooleanSupplier condition, Duration timeout, Duration every, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(every.toMillis());
        }
    }

    private static JsonNode read(ConsumerRecord<byte[], byte[]> r) {
        try {
            return Json.mapper().readTree(r.value());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
