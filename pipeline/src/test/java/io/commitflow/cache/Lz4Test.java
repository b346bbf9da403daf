package io.commitflow.cache;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class Lz4Test {
    @Test
    void roundTripsAndShrinksRepetitiveText() {
        byte[] raw = "Fix the frobnicator in the widget factory. ".repeat(50).getBytes(StandardCharsets.UTF_8);

        byte[] packed = Lz4.compress(raw);

        assertThat(packed.length).isLessThan(raw.length / 5);
        assertThat(Lz4.decompress(packed)).isEqualTo(raw);
        assertThat(Lz4.decompress(Lz4.compress(new byte[0]))).isEmpty();
    }

    @Test
    void refusesValuesThatAreNoCacheEntries() {
        assertThatThrownBy(() -> Lz4.decompress(new byte[] {1})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Lz4.decompress(new byte[] {(byte) 0x7f, 0, 0, 0, 1})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("length");
    }
}
