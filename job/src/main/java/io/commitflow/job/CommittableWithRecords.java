package io.commitflow.job;

import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A Kafka transaction to commit, with the records written in it: what {@link FreshTransactionSink}'s committer
 * writes again when the transaction cannot be committed any more (the broker aborted it after its timeout, or its
 * producer was fenced). The committer keeps it in its checkpointed state until it is committed or written again,
 * so a checkpoint's output survives a broker or a TaskManager away for longer than the transaction timeout.
 *
 * @param committable the Kafka transaction (with its producer while the writer's task still runs)
 * @param records     what the transaction holds, in the order written; empty for one restored from a savepoint
 *                    taken before the records were kept
 * @param starts      where the transaction's records begin in each partition it wrote to, as the broker acknowledged
 *                    them: a read_committed reader that finds the first of them committed the transaction
 */
record CommittableWithRecords(KafkaCommittable committable, List<Record> records, List<Start> starts) {

    CommittableWithRecords(KafkaCommittable committable, List<Record> records) {
        this(committable, records, List.of());
    }

    /** The offset of a transaction's first record in one partition. */
    record Start(String topic, int partition, long offset) {}

    /** One record as the sink's serialization schema made it. */
    record Record(String topic, byte[] key, byte[] value, List<Header> headers) {
        static Record of(ProducerRecord<byte[], byte[]> r) {
            List<Header> headers = new ArrayList<>();
            r.headers().forEach(h -> headers.add(new RecordHeader(h.key(), h.value())));
            return new Record(r.topic(), r.key(), r.value(), List.copyOf(headers));
        }

        ProducerRecord<byte[], byte[]> toProducerRecord() {
            return new ProducerRecord<>(topic, null, key, value, headers);
        }
    }

    /** The records' bytes, keys and values and headers. */
    long bytes() {
        long n = 0;
        for (Record r : records) {
            n += (r.key() == null ? 0 : r.key().length) + (r.value() == null ? 0 : r.value().length);
        }
        return n;
    }

    /**
     * Kafka's committable as Kafka's serializer writes it, then the records. Versions below {@link #OWN} are Kafka's
     * own: a committable from a savepoint of the job before it kept records restores with none.
     */
    static final class Serializer implements SimpleVersionedSerializer<CommittableWithRecords> {
        /** Added to Kafka's serializer version for committables that carry their records. */
        static final int OWN = 1_000;

        private final SimpleVersionedSerializer<KafkaCommittable> kafka;

        Serializer(SimpleVersionedSerializer<KafkaCommittable> kafka) {
            this.kafka = kafka;
        }

        @Override
        public int getVersion() {
            return OWN + kafka.getVersion();
        }

        @Override
        public byte[] serialize(CommittableWithRecords c) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                byte[] k = kafka.serialize(c.committable());
                out.writeInt(k.length);
                out.write(k);
                out.writeInt(c.starts().size());
                for (Start st : c.starts()) {
                    out.writeUTF(st.topic());
                    out.writeInt(st.partition());
                    out.writeLong(st.offset());
                }
                out.writeInt(c.records().size());
                for (Record r : c.records()) {
                    out.writeUTF(r.topic());
                    writeBytes(out, r.key());
                    writeBytes(out, r.value());
                    out.writeInt(r.headers().size());
                    for (Header h : r.headers()) {
                        out.writeUTF(h.key());
                        writeBytes(out, h.value());
                    }
                }
            }
            return bytes.toByteArray();
        }

        @Override
        public CommittableWithRecords deserialize(int version, byte[] serialized) throws IOException {
            if (version < OWN) {
                return new CommittableWithRecords(kafka.deserialize(version, serialized), List.of());
            }
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
                KafkaCommittable k = kafka.deserialize(version - OWN, readBytes(in));
                int s = in.readInt();
                List<Start> starts = new ArrayList<>(s);
                for (int i = 0; i < s; i++) {
                    starts.add(new Start(in.readUTF(), in.readInt(), in.readLong()));
                }
                int n = in.readInt();
                List<Record> records = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    String topic = in.readUTF();
                    byte[] key = readBytes(in);
                    byte[] value = readBytes(in);
                    int h = in.readInt();
                    List<Header> headers = new ArrayList<>(h);
                    for (int j = 0; j < h; j++) {
                        headers.add(new RecordHeader(in.readUTF(), readBytes(in)));
                    }
                    records.add(new Record(topic, key, value, headers));
                }
                return new CommittableWithRecords(k, records, starts);
            }
        }

        private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
            out.writeInt(b == null ? -1 : b.length);
            if (b != null) {
                out.write(b);
            }
        }

        private static byte[] readBytes(DataInputStream in) throws IOException {
            int n = in.readInt();
            if (n < 0) {
                return null;
            }
            byte[] b = new byte[n];
            in.readFully(b);
            return b;
        }
    }
}
