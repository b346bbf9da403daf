package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.EventParser;
import io.commitflow.event.Json;
import io.commitflow.event.Origin;
import io.commitflow.event.RawRecord;
import io.commitflow.event.Tenants;
import io.commitflow.event.Validation;
import io.commitflow.event.WireFormat;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Asks the running job for drafts' suggestions: sends each as a draft event with a fresh trace id and completes its
 * future when the reply with that trace id arrives on the replies topic (or a dead letter for it on the DLQ topic).
 * One consumer thread serves every request in flight, so {@code loadtest --mode interactive} uses it as
 * {@code commitflow suggest} does. The consumer reads from the end of both topics, positioned before the first
 * request goes out, without a consumer group (nothing to join, nothing committed).
 */
final class DraftClient implements AutoCloseable {
    /** What came back for one draft. */
    sealed interface Reply {
        /** The job's suggestion: its JSON, as on the suggestions topic. */
        record Suggested(JsonNode suggestion) implements Reply {}

        /** The job refused the draft: the dead letter's reason and detail. */
        record Refused(String reason, String detail) implements Reply {}
    }

    /** Where the client talks to: drafts go to {@code requests} (the job's requests or events topic). */
    record Topics(String requests, String replies, String deadLetters) {
        /**
         * The tenant's topics: a name holding {@value Tenants#PLACEHOLDER} is one topic per tenant, and the client
         * uses its tenant's. Every tenant's client that shares a topic reads every tenant's replies there; where
         * the requests topic is one per tenant, so must the replies and dead-letter topics be.
         *
         * @throws UserError when the requests topic is one per tenant and a topic the client reads is not
         */
        static Topics of(String tenant, String requests, String replies, String deadLetters) {
            try {
                Validation.tenant(tenant);
            } catch (io.commitflow.event.InvalidEventException e) {
                throw new UserError("--tenant: " + e.getMessage());
            }
            for (String t : List.of(requests, replies, deadLetters)) {
                try {
                    Tenants.checkTopic("topic", t);
                } catch (IllegalArgumentException e) {
                    throw new UserError(e.getMessage());
                }
            }
            if (Tenants.perTenant(requests) && !(Tenants.perTenant(replies) && Tenants.perTenant(deadLetters))) {
                throw new UserError("the requests topic " + requests + " is one per tenant, so the replies and "
                        + "dead-letter topics are too: name them with " + Tenants.PLACEHOLDER + " (the job refuses "
                        + "to start otherwise)");
            }
            return new Topics(Tenants.topicOf(requests, tenant), Tenants.topicOf(replies, tenant),
                    Tenants.topicOf(deadLetters, tenant));
        }
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Topics topics;
    private final Map<String, CompletableFuture<Reply>> waiting = new ConcurrentHashMap<>();
    private final Thread poller;
    private volatile boolean closed;
    private volatile RuntimeException pollFailure;

    /**
     * @param connectWait how long reaching Kafka may take (the producer's metadata, the consumer's positions)
     * @throws UserError when Kafka cannot be reached within {@code connectWait}
     */
    DraftClient(String bootstrap, Map<String, String> properties, Topics topics, Duration connectWait) {
        this(bootstrap, properties, topics, connectWait, step -> { });
    }

    /** @param progress told each step of the connection, for {@code suggest --verbose} */
    DraftClient(String bootstrap, Map<String, String> properties, Topics topics, Duration connectWait,
                java.util.function.Consumer<String> progress) {
        this.topics = topics;
        int wait = (int) Math.max(100, connectWait.toMillis());
        Map<String, Object> p = new java.util.HashMap<>(properties);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "commitflow-suggest");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, wait);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, wait);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, wait + 100);
        p.put(ProducerConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, Math.min(wait, 1000));
        p.put(ProducerConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, Math.min(wait, 1000));
        Map<String, Object> c = new java.util.HashMap<>(properties);
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, "commitflow-suggest");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // the replies are not transactional; a refusal is worth seeing before the DLQ's transaction commits
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20);
        c.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, wait);
        c.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, wait);
        c.put(ConsumerConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, Math.min(wait, 1000));
        c.put(ConsumerConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, Math.min(wait, 1000));
        KafkaProducer<byte[], byte[]> prod = null;
        CompletableFuture<KafkaProducer<byte[], byte[]>> starting = null;
        KafkaConsumer<byte[], byte[]> cons = null;
        try {
            // the producer starts (and fetches the events topic's metadata) beside the consumer's set-up
            starting = CompletableFuture.supplyAsync(() -> {
                KafkaProducer<byte[], byte[]> made = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
                try {
                    made.partitionsFor(topics.requests()); // metadata now, so that a send does not wait for it
                } catch (RuntimeException e) {
                    made.close(Duration.ZERO);
                    throw e;
                }
                return made;
            });
            cons = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            progress.accept("consumer created");
            List<TopicPartition> parts = new ArrayList<>();
            for (String topic : List.of(topics.replies(), topics.deadLetters())) {
                List<PartitionInfo> infos = cons.partitionsFor(topic, connectWait);
                if (infos == null || infos.isEmpty()) {
                    throw new UserError("the topic " + topic + " does not exist at " + bootstrap
                            + "; is the job running there (it writes drafts' replies to " + topics.replies() + ")?");
                }
                infos.forEach(i -> parts.add(new TopicPartition(i.topic(), i.partition())));
                progress.accept("partitions of " + topic);
            }
            cons.assign(parts);
            cons.seekToEnd(parts);
            for (TopicPartition tp : parts) {
                cons.position(tp, connectWait); // fixes the end now: a reply cannot come before it
            }
            progress.accept("consumer positioned");
            try {
                prod = starting.join();
            } catch (java.util.concurrent.CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
            progress.accept("producer has the events topic's metadata");
        } catch (KafkaException e) {
            closeQuietly(prod, cons);
            closeLater(prod, starting);
            throw new UserError("Kafka at " + bootstrap + " cannot be reached within " + wait + " ms: " + e.getMessage());
        } catch (RuntimeException e) {
            closeQuietly(prod, cons);
            closeLater(prod, starting);
            throw e;
        }
        producer = prod;
        consumer = cons;
        poller = new Thread(this::poll, "commitflow-suggest-replies");
        poller.setDaemon(true);
        poller.start();
    }

    /** A fresh W3C-style trace id: 32 lowercase hex digits. */
    static String newTraceId() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** The draft's id in its event's {@code sha}: the SHA-1 of its patch (it is not a commit). */
    static String draftId(String patch) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(patch.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Sends one draft; the future completes with the job's reply (never exceptionally for a missing reply: the caller
     * bounds its wait).
     *
     * @throws UserError when the event would be refused by the job's parser, or Kafka does not take it
     */
    CompletableFuture<Reply> ask(String tenant, String repo, String patch, String traceId) {
        long now = System.currentTimeMillis();
        byte[] value = WireFormat.draft(tenant, repo, draftId(patch), now, patch, traceId);
        var parsed = new EventParser(EventParser.DEFAULT_MAX_EVENT_BYTES).parse(new RawRecord(Origin.synthetic(now), null, value));
        if (parsed instanceof EventParser.Result.Rejected r) {
            throw new UserError("the job would refuse this draft: " + r.deadLetter().reason() + ": " + r.deadLetter().detail());
        }
        CompletableFuture<Reply> reply = new CompletableFuture<>();
        waiting.put(traceId, reply);
        reply.whenComplete((r, e) -> waiting.remove(traceId));
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topics.requests(), null, now,
                repo.getBytes(StandardCharsets.UTF_8), value);
        ProducerTrace.start(traceId, System.getenv()).addTo(record.headers()); // the draft's trace starts here
        producer.send(record,
                (meta, e) -> {
                    if (e != null) {
                        reply.completeExceptionally(new UserError("Kafka did not take the draft: " + e.getMessage()));
                    }
                });
        return reply;
    }

    /** The failure of the reply reader, if it stopped. */
    RuntimeException failure() {
        return pollFailure;
    }

    private void poll() {
        try {
            while (!closed) {
                for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(Duration.ofMillis(100))) {
                    handle(rec);
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            pollFailure = e;
            waiting.values().forEach(f -> f.completeExceptionally(e));
        }
    }

    private void handle(ConsumerRecord<byte[], byte[]> rec) {
        JsonNode n;
        try {
            n = Json.mapper().readTree(rec.value());
        } catch (java.io.IOException | RuntimeException e) {
            return; // not one of the job's records: nothing of ours
        }
        CompletableFuture<Reply> f = waiting.get(n.path("traceId").asText());
        if (f == null) {
            return; // another client's, or a duplicate after the first
        }
        if (rec.topic().equals(topics.replies())) {
            f.complete(new Reply.Suggested(n));
        } else {
            f.complete(new Reply.Refused(n.path("reason").asText(), n.path("detail").asText()));
        }
    }

    @Override
    public void close() {
        closed = true;
        consumer.wakeup();
        try {
            poller.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeQuietly(producer, consumer);
    }

    /** A producer still starting when the set-up failed is closed once it has started. */
    private static void closeLater(KafkaProducer<?, ?> started, CompletableFuture<? extends KafkaProducer<?, ?>> starting) {
        if (started == null && starting != null) {
            starting.thenAccept(p -> p.close(Duration.ZERO));
        }
    }

    private static void closeQuietly(KafkaProducer<?, ?> p, KafkaConsumer<?, ?> c) {
        if (p != null) {
            p.close(Duration.ofMillis(200));
        }
        if (c != null) {
            c.close(Duration.ofMillis(200));
        }
    }
}
