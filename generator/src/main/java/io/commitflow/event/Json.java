package io.commitflow.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one Jackson configuration of commitflow (plain Jackson, never Flink's shaded copy). Reading is
 * bounded: JSON nested deeper than {@link #MAX_NESTING} levels, or numbers longer than 40 digits, are
 * refused before they cost memory or stack.
 */
public final class Json {
    public static final int MAX_NESTING = 32;

    private static final ObjectMapper MAPPER = JsonMapper.builder(
                    JsonFactory.builder()
                            .streamReadConstraints(StreamReadConstraints.builder()
                                    .maxNestingDepth(MAX_NESTING)
                                    .maxNumberLength(40)
                                    .build())
                            .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .serializationInclusion(JsonInclude.Include.ALWAYS)
            .build();

    private Json() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** Writes {@code value} as compact JSON; the types written here are records of strings, numbers and lists. */
    public static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    public static String string(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }
}
