package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.job.KafkaSettings;
import io.commitflow.replay.RateProfile;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a load test measures from outside the job while it runs: when each event was sent, each suggestion and dead
 * letter as it is committed (with its event's Kafka timestamp), and this JVM's resident memory, the peak per step of
 * the profile. Two daemon threads read the output and sample the memory; both end when the stack is asked to stop.
 *
 * <pre>{@code
 * LoadMeasurement m = LoadMeasurement.start(stack, profile, events.size(), err);
 * replayer.replay(events, profile, progress, stack::stopRequested, m::sent);
 * LoadReport report = m.report();
 * }</pre>
 */
final class LoadMeasurement {
    private final LocalStack stack;
    private final RateProfile profile;
    private final PrintWriter err;
    /** The profile's time zero (epoch ms): steps, and so the report's rows, count from here. */
    private final long start = System.currentTimeMillis();
    private final long[] sentAt;
    private final AtomicLong sentCount = new AtomicLong();
    private final List<LoadReport.Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
    private final Map<Integer, Double> peakRss = new ConcurrentHashMap<>();
    private final Thread sampler = new Thread(this::sampleRss, "commitflow-loadtest-rss");

    private LoadMeasurement(LocalStack stack, RateProfile profile, int events, PrintWriter err) {
        this.stack = stack;
        this.profile = profile;
        this.err = err;
        this.sentAt = new long[events];
    }

    /**
     * Starts reading the output and sampling the memory; returns once the reader has subscribed (30 s at most), so
     * that the first event's output is not missed by a consumer still joining its group.
     */
    static LoadMeasurement start(LocalStack stack, RateProfile profile, int events, PrintWriter err) throws InterruptedException {
        LoadMeasurement m = new LoadMeasurement(stack, profile, events, err);
        CountDownLatch consumerUp = new CountDownLatch(1);
        Thread consumer = new Thread(() -> m.consume(consumerUp), "commitflow-loadtest-consumer");
        consumer.setDaemon(true);
        consumer.start();
        m.sampler.setDaemon(true);
        m.sampler.start();
        consumerUp.await(30, TimeUnit.SECONDS);
        return m;
    }

    /** The replayer's callback: event {@code n} was sent at {@code atMs}. */
    void sent(long n, long atMs) {
        sentAt[(int) n] = atMs;
        sentCount.set(n + 1);
    }

    long sent() {
        return sentCount.get();
    }

    /** Suggestions and dead letters read so far. */
    int answered() {
        return outcomes.size();
    }

    /** P99 of the outcomes of the last five seconds, for the progress line. */
    String recentP99() {
        long since = System.currentTimeMillis() - 5000;
        long[] v;
        synchronized (outcomes) {
            v = outcomes.stream().filter(o -> !o.error() && o.outputMs() >= since).mapToLong(LoadReport.Outcome::latencyMs)
                    .sorted().toArray();
        }
        return v.length == 0 ? "" : String.format(Locale.ROOT, "P99(5 s) %.0f ms", LoadReport.quantile(v, 99));
    }

    /** Stops sampling the memory, and sums up what was measured so far. */
    LoadReport report() {
        sampler.interrupt();
        List<LoadReport.Outcome> measured;
        synchronized (outcomes) {
            measured = new ArrayList<>(outcomes);
        }
        return new LoadReport(profile, start, Arrays.copyOf(sentAt, (int) sent()), measured, peakRss);
    }

    /** Reads suggestions and dead letters as they are committed. */
    private void consume(CountDownLatch up) {
        KafkaSettings k = stack.kafkaSettings();
        try (KafkaConsumer<byte[], byte[]> c = stack.outputConsumer()) {
            up.countDown();
            while (!stack.stopRequested()) {
                for (ConsumerRecord<byte[], byte[]> rec : c.poll(Duration.ofMillis(200))) {
                    JsonNode n = Json.mapper().readTree(rec.value());
                    boolean dead = rec.topic().equals(k.deadLetterTopic());
                    long eventMs = dead ? n.path("origin").path("kafkaTs").asLong() : n.path("kafkaTs").asLong();
                    String tenant = n.path("tenant").asText();
                    outcomes.add(new LoadReport.Outcome(eventMs, rec.timestamp(), tenant.isEmpty() ? "unknown" : tenant, dead));
                }
            }
        } catch (Exception e) {
            if (!stack.stopRequested()) {
                err.println("loadtest: reading the output failed: " + e);
            }
        } finally {
            up.countDown();
        }
    }

    /** The JVM's resident memory, sampled four times a second, the peak per step. */
    private void sampleRss() {
        while (!stack.stopRequested() && !Thread.currentThread().isInterrupted()) {
            double mb = rssMb();
            int step = profile.stepAt((System.currentTimeMillis() - start) / 1000.0);
            if (step < 0) {
                step = Math.max(0, profile.steps().size() - 1); // draining: the last step's output
            }
            peakRss.merge(step, mb, Math::max);
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static double rssMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux: the heap is the next best thing
        }
        Runtime rt = Runtime.getRuntime();
        return (rt.totalMemory() - rt.freeMemory()) / 1048576.0;
    }
}
