package io.commitflow.testing;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import static org.assertj.core.api.Assertions.assertThat;

/** A value through Flink's serializer for its type, as the job serialises it: a POJO, never Kryo. */
public final class PojoRoundTrip {
    private PojoRoundTrip() {}

    /** Asserts that {@code type} is a Flink POJO and returns {@code value} serialised and read back. */
    public static <T> T of(Class<T> type, T value) throws Exception {
        TypeInformation<T> info = TypeInformation.of(type);
        assertThat(info).as(type.getSimpleName()).isInstanceOf(PojoTypeInfo.class);
        SerializerConfigImpl config = new SerializerConfigImpl();
        config.setGenericTypes(false); // as pipeline.generic-types: false does
        TypeSerializer<T> serializer = info.createSerializer(config);
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(value, out);
        return serializer.deserialize(new DataInputDeserializer(out.getSharedBuffer(), 0, out.length()));
    }
}
