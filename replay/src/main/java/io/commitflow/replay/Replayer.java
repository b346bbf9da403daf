package io.commitflow.replay;

import io.commitflow.event.WireFormat;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Publishes a repository's commits to Kafka as native commit events at a steady rate, keyed by repository
 * (so one repository's commits stay in order on one partition). Idempotent producer, {@code acks=all}.
 *
 * <pre>{@code
 * try (Replayer r = new Replayer("localhost:9092", Map.of())) {
 *     r.replay(commits, new Replayer.Target("commitflow.events", "default", "app"), 100, p -> {}, () -> false);
 * }
 * }</pre>
 */
public final class Replayer implements AutoCloseable {
    private final KafkaProducer<byte[], byte[]> producer;

    /** Where events go and whose they are. */
    public record Target(String topic, String tenant, String repo) {}

    /** Progress so far: events handed to the producer, acknowledged, failed, and the first error. */
    public record Progress(long sent, long acked, long failed, double elapsedSeconds, String firstError) {
        public double ratePerSecond() {
            return elapsedSeconds <= 0 ? 0 : sent / elapsedSeconds;
        }
    }

    public Replayer(String bootstrap, Map<String, String> extraProperties) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "commitflow-replay");
        p.putAll(extraProperties);
        producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * Sends {@code commits} in order at {@code ratePerSecond} (0 or less: as fast as the producer takes them),
     * reports progress about once a second and at the end, and stops early when {@code stop} says so.
     * Each event's {@code ts} is the moment it is sent, as a Git server would stamp it.
     */
    public Progress replay(List<History.Commit> commits, Target target, double ratePerSecond,
                           Consumer<Progress> progress, BooleanSupplier stop) {
        byte[] key = target.repo().getBytes(StandardCharsets.UTF_8);
        AtomicLong acked = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        long start = System.nanoTime();
        long lastReport = start;
        long sent = 0;
        for (History.Commit c : commits) {
            if (stop.getAsBoolean()) {
                break;
            }
            pace(start, sent, ratePerSecond, stop);
            byte[] value = WireFormat.commit(target.tenant(), target.repo(), c.sha(), c.parents(), c.author(),
                    System.currentTimeMillis(), c.message(), null);
            producer.send(new ProducerRecord<>(target.topic(), key, value), (meta, e) -> {
                if (e == null) {
                    acked.incrementAndGet();
                } else {
                    failed.incrementAndGet();
                    firstError.compareAndSet(null, e.toString());
                }
            });
            sent++;
            long now = System.nanoTime();
            if (now - lastReport >= TimeUnit.SECONDS.toNanos(1)) {
                lastReport = now;
                progress.accept(new Progress(sent, acked.get(), failed.get(), (now - start) / 1e9, firstError.get()));
            }
        }
        producer.flush();
        Progress done = new Progress(sent, acked.get(), failed.get(), (System.nanoTime() - start) / 1e9, firstError.get());
        progress.accept(done);
        return done;
    }

    /** Sleeps until event number {@code sent} is due. */
    private static void pace(long start, long sent, double ratePerSecond, BooleanSupplier stop) {
        if (ratePerSecond <= 0) {
            return;
        }
        long due = start + (long) (sent * 1e9 / ratePerSecond);
        long wait;
        while ((wait = due - System.nanoTime()) > 0 && !stop.getAsBoolean()) {
            try {
                TimeUnit.NANOSECONDS.sleep(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(100)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        producer.close(java.time.Duration.ofSeconds(10));
    }
}
