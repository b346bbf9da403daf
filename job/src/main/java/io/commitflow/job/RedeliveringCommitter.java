package io.commitflow.job;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;

/**
 * Kafka's committer, and a second chance for what it must give up: a transaction it cannot commit (it fails it "with
 * a known reason": the producer was fenced, or the transaction is in an invalid state). Kafka's committer logs that
 * and drops the transaction. But the failure does not say what became of the transaction: since Kafka 4's
 * transactions (KIP-890) bump the producer's epoch at every end, a commit retried after a restore and a commit of a
 * transaction the broker aborted (its timeout passed while the broker or the TaskManager was away) both meet a fenced
 * producer. So this one looks: a read_committed reader seeks to the transaction's first acknowledged record
 * ({@link CommittableWithRecords#starts()}); it sees that record when the transaction committed, and skips past it
 * when it was aborted. An aborted transaction's records are written again, from the committable that carries them,
 * in a transaction of the committer's own ({@code PREFIX-again-N}, one per committer subtask); a committed one is
 * done. While the answer or the writing must wait (the broker is away, a transaction before it is still open), the
 * committable is kept and tried again later, and checkpoints keep it.
 *
 * <p>Metrics (counts, on the committer): {@code transactionsRedelivered}, {@code recordsRedelivered},
 * {@code transactionsFoundCommitted} (failed at commit, found committed), and {@code transactionsLost}: a transaction
 * that could not be committed and carried no records (one restored from a savepoint taken before they were kept).
 */
final class RedeliveringCommitter implements Committer<CommittableWithRecords> {
    private static final Logger LOG = LoggerFactory.getLogger(RedeliveringCommitter.class);

    private final Committer<KafkaCommittable> kafka;
    private final Properties producerProperties;
    private final String name;
    private final Counter transactions;
    private final Counter records;
    private final Counter lost;
    private final Counter foundCommitted;
    private KafkaProducer<byte[], byte[]> producer;

    /**
     * @param kafka    Kafka's committer
     * @param producer the properties of the producer that writes again, {@code transactional.id} included
     * @param name     what the sink writes, for the log
     */
    RedeliveringCommitter(Committer<KafkaCommittable> kafka, Properties producer, String name, MetricGroup metrics) {
        this.kafka = kafka;
        this.producerProperties = producer;
        this.name = name;
        this.transactions = metrics.counter("transactionsRedelivered");
        this.records = metrics.counter("recordsRedelivered");
        this.lost = metrics.counter("transactionsLost");
        this.foundCommitted = metrics.counter("transactionsFoundCommitted");
    }

    @Override
    public void commit(Collection<CommitRequest<CommittableWithRecords>> requests) throws IOException, InterruptedException {
        List<Outcome> outcomes = new ArrayList<>(requests.size());
        for (CommitRequest<CommittableWithRecords> r : requests) {
            outcomes.add(new Outcome(r));
        }
        kafka.commit(new ArrayList<>(outcomes));
        for (Outcome o : outcomes) {
            if (o.failure != null) {
                redeliver(o.request, o.failure);
            }
        }
    }

    /** What became of a transaction Kafka's committer could not commit: written again when it was aborted. */
    private void redeliver(CommitRequest<CommittableWithRecords> request, Throwable failure) {
        CommittableWithRecords c = request.getCommittable();
        String txn = c.committable().getTransactionalId();
        if (c.records().isEmpty()) {
            lost.inc();
            LOG.error("the {} sink's transaction {} could not be committed ({}) and carries no records to write again "
                    + "(restored from a savepoint taken before they were kept): its output is lost", name, txn,
                    failure.toString());
            request.signalFailedWithKnownReason(failure);
            return;
        }
        Fate fate = c.starts().isEmpty()
                ? failure instanceof InvalidTxnStateException ? Fate.ABORTED : Fate.UNSEEN
                : fate(c.starts().get(0));
        switch (fate) {
            case COMMITTED -> {
                foundCommitted.inc();
                LOG.info("the {} sink's transaction {} failed at commit ({}), but its first record is committed: done",
                        name, txn, failure.toString());
                request.signalAlreadyCommitted();
            }
            case PENDING -> {
                LOG.warn("the {} sink's transaction {} failed at commit ({}) and its outcome cannot be read yet; "
                        + "trying again later", name, txn, failure.toString());
                request.retryLater();
            }
            case UNSEEN -> request.signalFailedWithKnownReason(failure); // no offsets to look at: as Kafka's committer
            case ABORTED -> writeAgain(request, failure);
        }
    }

    /** Writes an aborted transaction's records again, in a transaction of this committer's; on failure, later. */
    private void writeAgain(CommitRequest<CommittableWithRecords> request, Throwable failure) {
        CommittableWithRecords c = request.getCommittable();
        String txn = c.committable().getTransactionalId();
        try {
            KafkaProducer<byte[], byte[]> p = producer();
            p.beginTransaction();
            for (CommittableWithRecords.Record r : c.records()) {
                p.send(r.toProducerRecord());
            }
            p.commitTransaction();
            transactions.inc();
            records.inc(c.records().size());
            LOG.warn("the {} sink's transaction {} could not be committed ({}): wrote its {} records ({} bytes) again "
                    + "as {}", name, txn, failure.toString(), c.records().size(), c.bytes(),
                    producerProperties.getProperty("transactional.id"));
        } catch (KafkaException e) {
            LOG.warn("the {} sink could not write transaction {}'s {} records again yet ({}); keeping them for the next "
                    + "try", name, txn, c.records().size(), e.toString());
            closeProducer();
            request.retryLater();
        }
    }

    private enum Fate { COMMITTED, ABORTED, PENDING, UNSEEN }

    /**
     * Whether the transaction whose first record in a partition the broker acknowledged at {@code start} committed:
     * a read_committed reader from there returns that very record first if so, and skips past it if it was aborted.
     * Still open, or the broker away: {@link Fate#PENDING} after 10 s.
     */
    private Fate fate(CommittableWithRecords.Start start) {
        Properties p = new Properties();
        producerProperties.forEach((k, v) -> {
            if (!PRODUCER_ONLY.contains(k.toString())) {
                p.put(k, v);
            }
        });
        p.put("isolation.level", "read_committed");
        p.put("enable.auto.commit", "false");
        p.put("client.id", producerProperties.getProperty("transactional.id") + "-check");
        TopicPartition tp = new TopicPartition(start.topic(), start.partition());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, start.offset());
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500)).records(tp)) {
                    return r.offset() == start.offset() ? Fate.COMMITTED : Fate.ABORTED;
                }
                if (consumer.position(tp, Duration.ofSeconds(5)) > start.offset()) {
                    return Fate.ABORTED; // the reader moved past the record without returning it
                }
            }
        } catch (KafkaException e) {
            LOG.warn("reading {}@{} to learn a transaction's outcome failed: {}", tp, start.offset(), e.toString());
        }
        return Fate.PENDING;
    }

    /** Producer settings a consumer does not take. */
    private static final java.util.Set<String> PRODUCER_ONLY = java.util.Set.of("transactional.id",
            "transaction.timeout.ms", "compression.type", "acks", "enable.idempotence", "linger.ms", "batch.size",
            "key.serializer", "value.serializer", "max.in.flight.requests.per.connection", "delivery.timeout.ms",
            "buffer.memory", "max.request.size", "retries", "client.id");

    private KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            producer = new KafkaProducer<>(producerProperties, new ByteArraySerializer(), new ByteArraySerializer());
            producer.initTransactions(); // fences this subtask's earlier attempts, which may hold one open
        }
        return producer;
    }

    private void closeProducer() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
    }

    @Override
    public void close() throws Exception {
        closeProducer();
        kafka.close();
    }

    /** One request as Kafka's committer sees it; a known failure is held here instead of dropping the committable. */
    private static final class Outcome implements CommitRequest<KafkaCommittable> {
        final CommitRequest<CommittableWithRecords> request;
        Throwable failure;

        Outcome(CommitRequest<CommittableWithRecords> request) {
            this.request = request;
        }

        @Override
        public KafkaCommittable getCommittable() {
            return request.getCommittable().committable();
        }

        @Override
        public int getNumberOfRetries() {
            return request.getNumberOfRetries();
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            failure = t; // fenced or invalid: committed before, or aborted; redeliver() looks which
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            request.signalFailedWithUnknownReason(t); // the job fails over and commits again from its checkpoint
        }

        @Override
        public void retryLater() {
            request.retryLater();
        }

        @Override
        public void updateAndRetryLater(KafkaCommittable committable) {
            request.updateAndRetryLater(new CommittableWithRecords(committable, request.getCommittable().records()));
        }

        @Override
        public void signalAlreadyCommitted() {
            request.signalAlreadyCommitted();
        }
    }
}
