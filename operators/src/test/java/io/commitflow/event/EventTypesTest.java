package io.commitflow.event;

import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Every type that crosses an operator boundary is a Flink POJO (no Kryo) and survives a round trip. */
class EventTypesTest {
    static Stream<Arguments> values() {
        CommitEvent commit = TestEvents.withParents(TestEvents.commit("r", "a".repeat(40)), List.of("b".repeat(40)));
        FileChange file = new FileChange("MODIFY", "x", "x", false, 1, 2, 0, "100644", "100644");
        return Stream.of(
                Arguments.of(RawRecord.class, new RawRecord(new Origin("t", 1, 2, 3), null, new byte[] {1, 2})),
                Arguments.of(CommitEvent.class, commit),
                Arguments.of(PushEvent.class, TestEvents.push("r", "refs/heads/main", "a".repeat(40), "b".repeat(40))),
                Arguments.of(DeadLetter.class, DeadLetter.of(commit, Reason.NO_MIRROR, "none", "diff")),
                Arguments.of(DiffedCommit.class, DiffedCommit.of(commit, List.of(file), 1, "p", "", "mirror", "e".repeat(40))),
                Arguments.of(Suggestion.class, new Suggestion("r", "a".repeat(40), "Fix it", "", "fix", "", "template", 0.5,
                        List.of("c".repeat(40)), "miss", 12, "t", "default", "", 1, 2)));
    }

    @ParameterizedTest
    @MethodSource("values")
    <T> void isSerialisedAsPojoWithoutKryo(Class<T> type, T value) throws Exception {
        TypeInformation<T> info = TypeInformation.of(type);
        assertThat(info).isInstanceOf(PojoTypeInfo.class);

        SerializerConfigImpl config = new SerializerConfigImpl();
        config.setGenericTypes(false); // as pipeline.generic-types: false does
        TypeSerializer<T> serializer = info.createSerializer(config);
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(value, out);
        T copy = serializer.deserialize(new DataInputDeserializer(out.getSharedBuffer(), 0, out.length()));

        if (value instanceof RawRecord raw) {
            assertThat(((RawRecord) copy).value()).isEqualTo(raw.value());
            assertThat(((RawRecord) copy).origin()).isEqualTo(raw.origin());
        } else {
            assertThat(copy).isEqualTo(value);
        }
    }
}
