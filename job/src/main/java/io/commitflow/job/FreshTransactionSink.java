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
import java.util.Collection;
import java.util.List;
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
 * commit, which waits for the rest of the checkpoint. One window stays open: a broker that dies after a checkpoint
 * completed and before its commit reached the broker, and stays away longer than the timeout, still aborts that
 * checkpoint's transactions (see docs/operations.md, Reliability).
 */
final class FreshTransactionSink<IN> implements TwoPhaseCommittingStatefulSink<IN, KafkaWriterState, KafkaCommittable>,
        SupportsPostCommitTopology<KafkaCommittable>, LineageVertexProvider {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(FreshTransactionSink.class);

    private final KafkaSink<IN> kafka;
    private final long maxAgeMillis;
    private final String name;

    /**
     * @param kafka              an exactly-once Kafka sink
     * @param transactionTimeout its {@code transaction.timeout.ms}
     * @param name               what it writes, for the error message
     */
    FreshTransactionSink(KafkaSink<IN> kafka, Duration transactionTimeout, String name) {
        this.kafka = kafka;
        this.maxAgeMillis = maxAge(transactionTimeout).toMillis();
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
    public PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> createWriter(WriterInitContext context)
            throws IOException {
        return new Writer<>(kafka.createWriter(context), maxAgeMillis, name, System::currentTimeMillis);
    }

    @Override
    public PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> restoreWriter(
            WriterInitContext context, Collection<KafkaWriterState> recoveredState) throws IOException {
        return new Writer<>(kafka.restoreWriter(context, recoveredState), maxAgeMillis, name, System::currentTimeMillis);
    }

    @Override
    public Committer<KafkaCommittable> createCommitter(CommitterInitContext context) throws IOException {
        return kafka.createCommitter(context);
    }

    @Override
    public SimpleVersionedSerializer<KafkaCommittable> getCommittableSerializer() {
        return kafka.getCommittableSerializer();
    }

    @Override
    public SimpleVersionedSerializer<KafkaWriterState> getWriterStateSerializer() {
        return kafka.getWriterStateSerializer();
    }

    @Override
    public void addPostCommitTopology(DataStream<CommittableMessage<KafkaCommittable>> committables) {
        kafka.addPostCommitTopology(committables);
    }

    @Override
    public LineageVertex getLineageVertex() {
        return kafka.getLineageVertex();
    }

    /** Kafka's writer, with the age of its open transaction checked when it is prepared for commit. */
    static final class Writer<IN> implements PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> {
        private final PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> kafka;
        private final long maxAgeMillis;
        private final String name;
        private final LongSupplier clock;
        private long began;

        Writer(PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> kafka, long maxAgeMillis,
               String name, LongSupplier clock) {
            this.kafka = kafka;
            this.maxAgeMillis = maxAgeMillis;
            this.name = name;
            this.clock = clock;
            this.began = clock.getAsLong(); // the writer opens its first transaction as it starts
        }

        @Override
        public void write(IN element, Context context) throws IOException, InterruptedException {
            kafka.write(element, context);
        }

        @Override
        public void flush(boolean endOfInput) throws IOException, InterruptedException {
            kafka.flush(endOfInput);
        }

        @Override
        public Collection<KafkaCommittable> prepareCommit() throws IOException, InterruptedException {
            Collection<KafkaCommittable> committables = kafka.prepareCommit();
            long age = clock.getAsLong() - began;
            if (!committables.isEmpty() && age > maxAgeMillis) {
                String why = "the " + name + " sink's Kafka transaction is " + age + " ms old at the checkpoint, over "
                        + maxAgeMillis + " ms (the transaction timeout less a margin): the broker may have aborted it, "
                        + "so it is not committed; failing over to write its records again from the last checkpoint";
                LOG.warn(why);
                throw new IOException(why);
            }
            return committables;
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
