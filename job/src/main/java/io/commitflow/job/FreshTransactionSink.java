package io.commitflow.job;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;
import org.apache.flink.connector.kafka.sink.TwoPhaseCommittingStatefulSink;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.lineage.LineageVertex;
import org.apache.flink.streaming.api.lineage.LineageVertexProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.function.LongSupplier;

/**
 * An exactly-once {@link KafkaSink} that never offers a transaction for commit once it may have outlived the
 * broker's transaction timeout.
 *
 * <p>Why: when the broker is away longer than {@code transaction.timeout.ms}, it aborts the sink's open transaction
 * when it comes back — but Kafka's writer only learns that at commit time. Its flush succeeds, the checkpoint that
 * covers the transaction's input completes, and the committer then meets {@code InvalidTxnStateException} and drops
 * the transaction: its records are lost, and the source has moved past them ({@code KafkaFaultsITCase} lost every
 * commit in flight this way). This sink measures each transaction's age on the writer's side, from the moment it
 * began (when the previous checkpoint's state was taken) to the moment it is prepared for commit, after the flush.
 * A transaction older than the timeout less a margin fails the checkpoint and the task: the job restores from the
 * previous checkpoint, the broker's abort is then harmless, and the records are written again.
 *
 * <p>The margin (a quarter of the timeout, at most a minute) covers the time from preparing a transaction to its
 * commit, which waits for the rest of the checkpoint. That leaves the window after a checkpoint completed: a broker
 * that dies before the checkpoint's commit reached it and stays away longer than the timeout, or a TaskManager kept
 * down as long, has the checkpoint's transactions aborted, and Kafka's committer can only drop them. So each
 * transaction goes to the committer with the records written in it ({@link CommittableWithRecords}), kept in the
 * committer's checkpointed state, and a transaction that the broker aborted before it could be committed is
 * written again, whole, in a transaction of the committer's own ({@link RedeliveringCommitter}). A reader
 * may then see a record twice, where the first commit did land but its answer did not: suggestions are upserted by
 * (repository, sha), dead letters by their origin.
 */
final class FreshTransactionSink<IN> implements TwoPhaseCommittingStatefulSink<IN, KafkaWriterState, CommittableWithRecords>,
        SupportsPostCommitTopology<CommittableWithRecords>, LineageVertexProvider {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(FreshTransactionSink.class);

    private final KafkaSink<IN> kafka;
    private final CapturingSerializer<IN> records;
    private final Properties producer;
    private final String transactionalIdPrefix;
    private final long maxAgeMillis;
    private final long transactionTimeoutMillis;
    private final String name;

    /**
     * @param kafka                 an exactly-once Kafka sink
     * @param records               its record serializer (the same instance), which keeps what each transaction holds
     * @param producer              its producer's properties (servers, security, {@code transaction.timeout.ms})
     * @param transactionalIdPrefix its transactional-id prefix; a committer writes again as {@code PREFIX-again-N}
     * @param transactionTimeout    its {@code transaction.timeout.ms}
     * @param name                  what it writes, for the error message
     */
    FreshTransactionSink(KafkaSink<IN> kafka, CapturingSerializer<IN> records, Properties producer,
                         String transactionalIdPrefix, Duration transactionTimeout, String name) {
        this.kafka = kafka;
        this.records = records;
        this.producer = producer;
        this.transactionalIdPrefix = transactionalIdPrefix;
        this.maxAgeMillis = maxAge(transactionTimeout).toMillis();
        this.transactionTimeoutMillis = transactionTimeout.toMillis();
        this.name = name;
    }

    /** The timeout less the margin: a quarter of the timeout, at most a minute. */
    static Duration maxAge(Duration transactionTimeout) {
        Duration margin = transactionTimeout.dividedBy(4);
        if (margin.compareTo(Duration.ofMinutes(1)) > 0) {
            margin = Duration.ofMinutes(1);
        }
        return transactionTimeout.minus(margin);
    }

    @Override
    public PrecommittingStatefulSinkWriter<IN, KafkaWriterState, CommittableWithRecords> createWriter(
            WriterInitContext context) throws IOException {
        AckedOffsets acks = new AckedOffsets();
        return writer(kafka.createWriter(acks.context(context)), acks, context);
    }

    @Override
    public PrecommittingStatefulSinkWriter<IN, KafkaWriterState, CommittableWithRecords> restoreWriter(
            WriterInitContext context, Collection<KafkaWriterState> recoveredState) throws IOException {
        AckedOffsets acks = new AckedOffsets();
        return writer(kafka.restoreWriter(acks.context(context), recoveredState), acks, context);
    }

    /**
     * Kafka's writer {@code kafkaWriter}, reporting its acknowledgements to {@code acks}, wrapped; with gauges for the alert
     * on a transaction older than half its timeout: {@code openTransactionAgeMs} (since the open transaction began,
     * milliseconds) and {@code transactionTimeoutMs}.
     */
    private Writer<IN> writer(PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> kafkaWriter,
                              AckedOffsets acks, WriterInitContext context) {
        Writer<IN> writer = new Writer<>(kafkaWriter, acks, records::drain, maxAgeMillis, name, System::currentTimeMillis);
        context.metricGroup().gauge("openTransactionAgeMs", writer::age);
        long timeout = transactionTimeoutMillis;
        context.metricGroup().gauge("transactionTimeoutMs", () -> timeout);
        return writer;
    }

    @Override
    public Committer<CommittableWithRecords> createCommitter(CommitterInitContext context) throws IOException {
        Properties again = new Properties();
        again.putAll(producer);
        again.put("transactional.id", transactionalIdPrefix + "-again-" + context.getTaskInfo().getIndexOfThisSubtask());
        return new RedeliveringCommitter(kafka.createCommitter(context), again, name, context.metricGroup());
    }

    @Override
    public SimpleVersionedSerializer<CommittableWithRecords> getCommittableSerializer() {
        return new CommittableWithRecords.Serializer(kafka.getCommittableSerializer());
    }

    @Override
    public SimpleVersionedSerializer<KafkaWriterState> getWriterStateSerializer() {
        return kafka.getWriterStateSerializer();
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void addPostCommitTopology(DataStream<CommittableMessage<CommittableWithRecords>> committables) {
        // Kafka's only co-locates the committer with the writer, walking the transformations: it reads no committable
        kafka.addPostCommitTopology((DataStream) committables);
    }

    @Override
    public LineageVertex getLineageVertex() {
        return kafka.getLineageVertex();
    }

    /**
     * Kafka's writer, with the age of its open transaction checked when it is prepared for commit, and the records
     * of that transaction handed to the committer with it.
     */
    static final class Writer<IN> implements PrecommittingStatefulSinkWriter<IN, KafkaWriterState, CommittableWithRecords> {
        private final PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> kafka;
        private final AckedOffsets acks;
        private final java.util.function.Supplier<List<CommittableWithRecords.Record>> written;
        private final long maxAgeMillis;
        private final String name;
        private final LongSupplier clock;
        private long began;

        Writer(PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> kafka, AckedOffsets acks,
               java.util.function.Supplier<List<CommittableWithRecords.Record>> written, long maxAgeMillis, String name,
               LongSupplier clock) {
            this.kafka = kafka;
            this.acks = acks;
            this.written = written;
            this.maxAgeMillis = maxAgeMillis;
            this.name = name;
            this.clock = clock;
            this.began = clock.getAsLong(); // the writer opens its first transaction as it starts
        }

        /** How long the open transaction has been open, in milliseconds. */
        long age() {
            return clock.getAsLong() - began;
        }

        @Override
        public void write(IN element, Context context) throws IOException, InterruptedException {
            kafka.write(element, context); // its serializer keeps the record (CapturingSerializer)
        }

        @Override
        public void flush(boolean endOfInput) throws IOException, InterruptedException {
            kafka.flush(endOfInput);
        }

        @Override
        public Collection<CommittableWithRecords> prepareCommit() throws IOException, InterruptedException {
            Collection<KafkaCommittable> committables = kafka.prepareCommit(); // flushed: every record acknowledged
            List<CommittableWithRecords.Start> starts = acks.drain();
            List<CommittableWithRecords.Record> records = written.get();
            long age = age();
            if (!committables.isEmpty() && age > maxAgeMillis) {
                String why = "the " + name + " sink's Kafka transaction is " + age + " ms old at the checkpoint, over "
                        + maxAgeMillis + " ms (the transaction timeout less a margin): the broker may have aborted it, "
                        + "so it is not committed; failing over to write its records again from the last checkpoint";
                LOG.warn(why);
                throw new IOException(why);
            }
            // Kafka's writer offers the one transaction it wrote the records in, and none without records
            List<CommittableWithRecords> out = new ArrayList<>(committables.size());
            for (KafkaCommittable c : committables) {
                out.add(out.isEmpty() ? new CommittableWithRecords(c, records, starts)
                        : new CommittableWithRecords(c, List.of()));
            }
            return out;
        }

        @Override
        public List<KafkaWriterState> snapshotState(long checkpointId) throws IOException {
            List<KafkaWriterState> state = kafka.snapshotState(checkpointId);
            began = clock.getAsLong(); // the next transaction begins with this checkpoint's state
            return state;
        }

        @Override
        public void writeWatermark(org.apache.flink.api.common.eventtime.Watermark watermark)
                throws IOException, InterruptedException {
            kafka.writeWatermark(watermark);
        }

        @Override
        public void close() throws Exception {
            kafka.close();
        }
    }
}
