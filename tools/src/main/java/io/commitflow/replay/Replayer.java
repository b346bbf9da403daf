package io.commitflow.replay;

import io.commitflow.git.History;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Publishes a repository's history to Kafka as native commit or push events ({@link Events}) at a rate profile
 * ({@link RateProfile}), keyed by repository (so one repository's events stay in order on one partition).
 * Idempotent producer, {@code acks=all}; each record's Kafka timestamp is the moment it was sent.
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

    /** One event to publish: its key, and its value stamped with the moment it is sent. */
    public interface Event {
        String topic();

        byte[] key();

        byte[] value(long sentAtMillis);
    }

    /**
     * Progress so far: events handed to the producer, acknowledged, failed, the first error, and the rate the
     * profile offered at that moment.
     */
    public record Progress(long sent, long acked, long failed, double elapsedSeconds, String firstError,
                           double offeredPerSecond) {
        public double ratePerSecond() {
            return elapsedSeconds <= 0 ? 0 : sent / elapsedSeconds;
        }
    }

    /** Called for each event as it is handed to the producer: its number, and when (epoch ms) it was stamped. */
    public interface Sent {
        void sent(long n, long atMillis);
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
     * Sends {@code commits} in order as commit events at {@code ratePerSecond} (0 or less: as fast as the producer
     * takes them), reports progress about once a second and at the end, and stops early when {@code stop} says so.
     */
    public Progress replay(List<History.Commit> commits, Target target, double ratePerSecond,
                           Consumer<Progress> progress, BooleanSupplier stop) {
        return replay(Events.commits(commits, target), RateProfile.perSecond(ratePerSecond),
                progress, stop, (n, at) -> { });
    }

    /**
     * Sends {@code events} in order, each when {@code profile} says it is due, until they or the profile run out or
     * {@code stop} says so; reports progress about once a second and at the end. Each event's time is the moment it
     * is sent, as a Git server would stamp it.
     */
    public Progress replay(List<? extends Event> events, RateProfile profile, Consumer<Progress> progress,
                           BooleanSupplier stop, Sent sent) {
        AtomicLong acked = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        long start = System.nanoTime();
        long lastReport = start;
        long n = 0;
        for (Event event : events) {
            if (stop.getAsBoolean()) {
                break;
            }
            double due = profile.dueSeconds(n);
            if (Double.isNaN(due)) {
                break; // the profile is over
            }
            pace(start, due, stop);
            if (stop.getAsBoolean()) {
                break;
            }
            long now = System.currentTimeMillis();
            producer.send(new ProducerRecord<>(event.topic(), null, now, event.key(), event.value(now)), (meta, e) -> {
                if (e == null) {
                    acked.incrementAndGet();
                } else {
                    failed.incrementAndGet();
                    firstError.compareAndSet(null, e.toString());
                }
            });
            sent.sent(n, now);
            n++;
            long t = System.nanoTime();
            if (t - lastReport >= TimeUnit.SECONDS.toNanos(1)) {
                lastReport = t;
                double elapsed = (t - start) / 1e9;
                progress.accept(new Progress(n, acked.get(), failed.get(), elapsed, firstError.get(), profile.rateAt(elapsed)));
            }
        }
        producer.flush();
        double elapsed = (System.nanoTime() - start) / 1e9;
        Progress done = new Progress(n, acked.get(), failed.get(), elapsed, firstError.get(), profile.rateAt(elapsed));
        progress.accept(done);
        return done;
    }

    /** Sleeps until {@code dueSeconds} after {@code start}. */
    private static void pace(long start, double dueSeconds, BooleanSupplier stop) {
        long due = start + (long) (dueSeconds * 1e9);
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
