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
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a load test measures while it runs: when each event was sent, each suggestion and dead letter as it is
 * committed (with its event's Kafka timestamp and the moment the consumer received it), this JVM's resident memory
 * (the peak per step of the profile) and the job's CPU time: the JVM's, less that of the load driver's own threads
 * (the replay, its producer, the output consumer, this sampler), which run in this JVM beside the local Flink. Two
 * daemon threads read the output and sample memory and CPU; both end when the stack is asked to stop.
 *
 * <pre>{@code
 * LoadMeasurement m = LoadMeasurement.start(stack, profile, events.size(), err);
 * replayer.replay(events, profile, progress, stack::stopRequested, m::sent);
 * LoadReport report = m.report(Map.of());
 * }</pre>
 */
final class LoadMeasurement {
    private final LocalStack stack;
    private final RateProfile profile;
    private final boolean warmup;
    private final int backlog;
    private final PrintWriter err;
    /** The profile's time zero (epoch ms): when its first event was sent (steps, and the report's rows, count from here). */
    private volatile long start = -1;
    private volatile long jobStart = -1;
    private volatile long backlogDrained = -1;
    private final long[] sentAt;
    private final AtomicLong sentCount = new AtomicLong();
    private final AtomicLong nonConforming = new AtomicLong();
    private final List<LoadReport.Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
    private final Map<Integer, Double> peakRss = new ConcurrentHashMap<>();
    private final ConcurrentSkipListMap<Long, Long> jobCpuNanos = new ConcurrentSkipListMap<>();
    private final Thread sampler = new Thread(this::sample, "commitflow-loadtest-sampler");
    /** Per step (as {@link #peakRss}): the peak {records behind, age of the event being read in ms} of the job. */
    private final Map<Integer, double[]> peakLag = new ConcurrentHashMap<>();
    private final JobLag lag;

    private LoadMeasurement(LocalStack stack, RateProfile profile, boolean warmup, int backlog, int events, PrintWriter err) {
        this.stack = stack;
        this.profile = profile;
        this.warmup = warmup;
        this.backlog = backlog;
        this.err = err;
        this.sentAt = new long[events];
        this.lag = new JobLag(stack::metricsPort);
    }

    /**
     * Starts reading the output and sampling the memory; returns once the reader has subscribed (30 s at most), so
     * that the first event's output is not missed by a consumer still joining its group.
     */
    static LoadMeasurement start(LocalStack stack, RateProfile profile, boolean warmup, int backlog, int events,
                                 PrintWriter err) throws InterruptedException {
        LoadMeasurement m = new LoadMeasurement(stack, profile, warmup, backlog, events, err);
        CountDownLatch consumerUp = new CountDownLatch(1);
        Thread consumer = new Thread(() -> m.consume(consumerUp), "commitflow-loadtest-consumer");
        consumer.setDaemon(true);
        consumer.start();
        m.sampler.setDaemon(true);
        m.sampler.start();
        consumerUp.await(30, TimeUnit.SECONDS);
        return m;
    }

    /** The replayer's callback: event {@code n} (counted over backlog and profile) was sent at {@code atMs}. */
    void sent(long n, long atMs) {
        sentAt[(int) n] = atMs;
        sentCount.set(n + 1);
        if (n == backlog) {
            start = atMs;
        }
    }

    /** The job was submitted now (after the backlog, if any, was queued). */
    void jobStarted() {
        jobStart = System.currentTimeMillis();
    }

    /** Every backlog event is answered now. */
    void backlogDrained() {
        backlogDrained = System.currentTimeMillis();
    }

    long sent() {
        return sentCount.get();
    }

    /** Suggestions and dead letters read so far. */
    /** Suggestions that failed {@link SuggestionCheck} (counted among the errors). */
    long nonConforming() {
        return nonConforming.get();
    }

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

    /**
     * Stops sampling the memory, and sums up what was measured so far.
     *
     * @param newTenants the tenant whose repositories first appear in a step, by the step's index in the profile
     */
    LoadReport report(Map<Integer, String> newTenants) {
        sampler.interrupt();
        List<LoadReport.Outcome> measured;
        synchronized (outcomes) {
            measured = new ArrayList<>(outcomes);
        }
        long zero = start < 0 ? System.currentTimeMillis() : start;
        LoadReport.Backlog b = backlog == 0 ? null : new LoadReport.Backlog(backlog, jobStart,
                backlogDrained < 0 ? System.currentTimeMillis() : backlogDrained);
        return new LoadReport(profile, warmup, zero, b, Arrays.copyOf(sentAt, (int) sent()), measured, peakRss, jobCpuNanos,
                newTenants).withLag(peakLag);
    }

    /** Reads suggestions and dead letters as they are committed. */
    private void consume(CountDownLatch up) {
        KafkaSettings k = stack.kafkaSettings();
        try (KafkaConsumer<byte[], byte[]> c = stack.outputConsumer()) {
            up.countDown();
            while (!stack.stopRequested()) {
                var records = c.poll(Duration.ofMillis(200));
                long seen = System.currentTimeMillis();
                for (ConsumerRecord<byte[], byte[]> rec : records) {
                    JsonNode n = Json.mapper().readTree(rec.value());
                    boolean dead = rec.topic().equals(k.deadLetterTopic());
                    long eventMs = dead ? n.path("origin").path("kafkaTs").asLong() : n.path("kafkaTs").asLong();
                    String tenant = n.path("tenant").asText();
                    String problem = dead ? null : SuggestionCheck.problem(n);
                    if (problem != null && nonConforming.getAndIncrement() == 0) {
                        err.println("loadtest: a suggestion fails the check (counted as an error): " + problem);
                    }
                    outcomes.add(new LoadReport.Outcome(eventMs, rec.timestamp(), seen, tenant.isEmpty() ? "unknown" : tenant,
                            dead || problem != null));
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

    /** Four times a second: the JVM's resident memory (the peak per step) and the job's CPU time. */
    private void sample() {
        while (!stack.stopRequested() && !Thread.currentThread().isInterrupted()) {
            long now = System.currentTimeMillis();
            jobCpuNanos.put(now, JobCpu.nanos());
            double mb = rssMb();
            int step = start < 0 ? LoadReport.BACKLOG_STEP : profile.stepAt((now - start) / 1000.0);
            if (start >= 0 && step < 0) {
                step = Math.max(0, profile.steps().size() - 1); // draining: the last step's output
            }
            peakRss.merge(step, mb, Math::max);
            if (++samples % 4 == 0) { // once a second: the job's own view of its backlog, from its Prometheus endpoint
                double[] behind = lag.sample();
                if (behind != null) {
                    peakLag.merge(step, behind, (a, b) -> new double[] {Math.max(a[0], b[0]), Math.max(a[1], b[1])});
                }
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private int samples;

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
