package io.commitflow.job;

import io.commitflow.testing.KafkaBroker;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.internal.FlinkKafkaInternalProducer;
import org.apache.flink.connector.kafka.sink.internal.KafkaCommitter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RedeliveringCommitter} against a real broker and Kafka's own committer. A transaction the broker aborted
 * before its commit (as it does once the transaction timeout passes while the broker or the TaskManager is away;
 * aborted explicitly here) fails at commit with a fenced producer, and is written again from the records its
 * committable carries, once. A transaction committed before, whose commit is retried (as after a restore), fails the
 * same way, and is not written again. One still open commits. One without records is reported lost, as Kafka's
 * committer reports it. Read with read_committed: every value exactly once.
 */
class RedeliveringCommitterITCase {
    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    private final Map<String, Counter> counters = new HashMap<>();

    @Test
    void anAbortedTransactionIsWrittenAgainFromItsRecordsAndACommittedOneIsNot() throws Exception {
        String topic = "redeliver.suggestions";
        KAFKA.createTopic(topic, 1);
        CommittableWithRecords aborted = transaction(topic, "commitflow-suggestions-0-1", List.of("a1", "a2", "a3"), End.ABORT);
        CommittableWithRecords open = transaction(topic, "commitflow-suggestions-0-2", List.of("b1"), End.NONE);
        CommittableWithRecords committed = transaction(topic, "commitflow-suggestions-0-3", List.of("c1", "c2"), End.COMMIT);

        Request first = new Request(aborted);
        Request second = new Request(open);
        Request third = new Request(committed);
        try (RedeliveringCommitter committer = committer()) {
            committer.commit(List.of(first, second, third));
        }

        assertThat(first.failed).as("not given up: written again").isNull();
        assertThat(second.failed).isNull();
        assertThat(third.failed).as("found committed").isNull();
        assertThat(first.retried || second.retried || third.retried).isFalse();
        // the broker either refuses the second commit (then the committer reads that the first record is committed
        // and says so) or accepts it as done, as it may for a transaction whose commit it completed moments before:
        // either way nothing fails and nothing is written twice
        boolean foundCommitted = third.alreadyCommitted;
        assertThat(counters.get("transactionsFoundCommitted").getCount()).isEqualTo(foundCommitted ? 1 : 0);
        List<String> values = new ArrayList<>();
        KAFKA.readCommitted(topic).forEach(r -> values.add(new String(r.value(), StandardCharsets.UTF_8)));
        assertThat(values).containsExactlyInAnyOrder("a1", "a2", "a3", "b1", "c1", "c2");
        assertThat(KAFKA.readCommitted(topic).get(0).headers().lastHeader("traceparent")).isNotNull();
        assertThat(counters.get("transactionsRedelivered").getCount()).isEqualTo(1);
        assertThat(counters.get("recordsRedelivered").getCount()).isEqualTo(3);
    }

    @Test
    void anAbortedTransactionWithoutItsRecordsIsReportedLost() throws Exception {
        String topic = "redeliver.old";
        KAFKA.createTopic(topic, 1);
        CommittableWithRecords aborted = transaction(topic, "commitflow-dlq-0-1", List.of("x"), End.ABORT);
        Request old = new Request(new CommittableWithRecords(aborted.committable(), List.of(), aborted.starts()));
        try (RedeliveringCommitter committer = committer()) {
            committer.commit(List.of(old));
        }
        assertThat(old.failed).as("given up, as Kafka's committer gives it up").isNotNull();
        assertThat(KAFKA.readCommitted(topic)).isEmpty();
        assertThat(counters.get("transactionsLost").getCount()).isEqualTo(1);
    }

    private RedeliveringCommitter committer() {
        Properties kafka = properties();
        KafkaCommitter committer = new KafkaCommitter(kafka, "commitflow-test-" + System.nanoTime(), 0, 0, false,
                FlinkKafkaInternalProducer::new);
        Properties again = properties();
        again.put("transactional.id", "commitflow-suggestions-again-0");
        return new RedeliveringCommitter(committer, again, "suggestions", new UnregisteredMetricsGroup() {
            @Override
            public Counter counter(String name) {
                return counters.computeIfAbsent(name, n -> new SimpleCounter());
            }
        });
    }

    private enum End { ABORT, COMMIT, NONE }

    /** A transaction with {@code values} in it, prepared as Kafka's writer leaves it, then ended as {@code end} says. */
    private CommittableWithRecords transaction(String topic, String id, List<String> values, End end) throws Exception {
        FlinkKafkaInternalProducer<byte[], byte[]> producer = new FlinkKafkaInternalProducer<>(properties(), id);
        producer.initTransactions();
        producer.beginTransaction();
        List<CommittableWithRecords.Record> records = new ArrayList<>();
        List<java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata>> acks = new ArrayList<>();
        for (String v : values) {
            ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, (Integer) null, (byte[]) null,
                    v.getBytes(StandardCharsets.UTF_8), List.<org.apache.kafka.common.header.Header>of(new RecordHeader("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
                            .getBytes(StandardCharsets.UTF_8))));
            acks.add(producer.send(r));
            records.add(CommittableWithRecords.Record.of(r));
        }
        producer.flush();
        var first = acks.get(0).get();
        KafkaCommittable committable = new KafkaCommittable(producer.getProducerId(), producer.getEpoch(), id, null);
        switch (end) {
            case ABORT -> producer.abortTransaction();
            case COMMIT -> producer.commitTransaction();
            default -> { }
        }
        producer.close(java.time.Duration.ZERO); // the committer resumes it by its id, as after a restore
        return new CommittableWithRecords(committable, records,
                List.of(new CommittableWithRecords.Start(first.topic(), first.partition(), first.offset())));
    }

    private static Properties properties() {
        Properties p = new Properties();
        p.put("bootstrap.servers", KAFKA.bootstrap());
        p.put("key.serializer", org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
        p.put("value.serializer", org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
        p.put("transaction.timeout.ms", "60000");
        return p;
    }

    /** What Flink's committer operator hands a committer, and the signal it gets back. */
    private static final class Request implements Committer.CommitRequest<CommittableWithRecords> {
        private final CommittableWithRecords committable;
        Throwable failed;
        boolean retried;
        boolean alreadyCommitted;

        Request(CommittableWithRecords committable) {
            this.committable = committable;
        }

        @Override
        public CommittableWithRecords getCommittable() {
            return committable;
        }

        @Override
        public int getNumberOfRetries() {
            return 0;
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            failed = t;
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            failed = t;
        }

        @Override
        public void retryLater() {
            retried = true;
        }

        @Override
        public void updateAndRetryLater(CommittableWithRecords committable) {
            retried = true;
        }

        @Override
        public void signalAlreadyCommitted() {
            alreadyCommitted = true;
        }
    }
}
