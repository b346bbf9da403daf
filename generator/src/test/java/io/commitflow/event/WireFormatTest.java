package io.commitflow.event;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What producers write is what the job reads. */
class WireFormatTest {
    private final EventParser parser = new EventParser(EventParser.DEFAULT_MAX_EVENT_BYTES);
    private final Origin origin = new Origin("t", 0, 5, 42L);

    @Test
    void commitRoundTrips() {
        byte[] json = WireFormat.commit("acme", "a/b", "a".repeat(40), List.of("b".repeat(40)), "A <a@x>", 7L,
                "Subject\n\nBody\n", null);

        var result = parser.parse(new RawRecord(origin, null, json));

        assertThat(result).isInstanceOfSatisfying(EventParser.Result.Commit.class, c -> {
            assertThat(c.event().tenant()).isEqualTo("acme");
            assertThat(c.event().repo()).isEqualTo("a/b");
            assertThat(c.event().parents()).containsExactly("b".repeat(40));
            assertThat(c.event().message()).isEqualTo("Subject\n\nBody\n");
            assertThat(c.event().patch()).isNull();
            assertThat(c.event().ts()).isEqualTo(7L);
        });
    }

    @Test
    void pushRoundTrips() {
        byte[] json = WireFormat.push("acme", "a/b", "refs/heads/main", PushEvent.ZERO_SHA1, "c".repeat(40), "bob", 9L);

        var result = parser.parse(new RawRecord(origin, null, json));

        assertThat(result).isInstanceOfSatisfying(EventParser.Result.Push.class, p -> {
            assertThat(p.event().createsRef()).isTrue();
            assertThat(p.event().pusher()).isEqualTo("bob");
        });
    }
}
