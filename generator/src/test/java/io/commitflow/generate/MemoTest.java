package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class MemoTest {
    @Test
    void asksTheFunctionOncePerTextAndStartsAgainEmptyWhenFull() {
        AtomicInteger calls = new AtomicInteger();
        Memo<Integer> lengths = new Memo<>(s -> {
            calls.incrementAndGet();
            return s.length();
        }, 3);
        assertThat(lengths.get("a")).isEqualTo(1);
        assertThat(lengths.get("bb")).isEqualTo(2);
        assertThat(lengths.get("a")).isEqualTo(1);
        assertThat(calls).hasValue(2);
        lengths.get("ccc");
        assertThat(lengths.size()).isEqualTo(3);
        assertThat(lengths.get("dddd")).isEqualTo(4); // full: emptied, then this one kept
        assertThat(lengths.size()).isEqualTo(1);
        assertThat(lengths.get("a")).isEqualTo(1);
        assertThat(calls).hasValue(5);
    }
}
