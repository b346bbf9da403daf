package io.commitflow.event;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dead letter always fits in a Kafka record: its raw value and detail are cut by the bytes they take in its JSON,
 * not by characters, so that a record of control bytes (six bytes each once escaped) cannot make a dead letter the
 * producer refuses, and retries, forever.
 */
class DeadLetterTest {
    private static final int PRODUCER_MAX_REQUEST = 1024 * 1024;

    private static DeadLetter of(String raw, String detail) {
        return new DeadLetter(Reason.NOT_JSON.name(), detail, "parse", raw, Origin.synthetic(1), "", "", "", "t", 1);
    }

    @Test
    void aRecordOfControlBytesMakesADeadLetterTheProducerTakes() {
        String control = "\u0001".repeat(175_000); // 1,050,000 bytes escaped: over the limit when cut by characters
        byte[] json = Json.bytes(of(control, "bad " + control));

        assertThat(json.length).isLessThan(PRODUCER_MAX_REQUEST / 3);
        DeadLetter d = of(control, "x");
        assertThat(d.raw()).endsWith("…[cut]").startsWith("\u0001\u0001");
        assertThat(DeadLetter.jsonBytes(d.raw())).isLessThanOrEqualTo(DeadLetter.MAX_RAW_BYTES);
    }

    @Test
    void theBudgetCountsWhatJacksonWrites() throws Exception {
        for (String s : new String[] {"plain", "quote \" and \\ backslash", "tab\tnew\nline", "\u0001\u001f",
                "€uro", "ä", "emoji \uD83D\uDE00", "mixed \u0002 € \uD83D\uDE00 \" end"}) {
            byte[] json = Json.mapper().writeValueAsBytes(s);
            assertThat(DeadLetter.jsonBytes(s)).as(s).isEqualTo(json.length - 2); // without the quotes
        }
    }

    @Test
    void cutsNoPairAndCuttingTwiceChangesNothing() {
        String emoji = "\uD83D\uDE00".repeat(100_000); // 12 bytes a pair, as Jackson escapes both halves
        String once = DeadLetter.clip(emoji, DeadLetter.MAX_RAW_BYTES);
        assertThat(once).endsWith("…[cut]");
        String kept = once.substring(0, once.length() - "…[cut]".length());
        assertThat(kept.length() % 2).as("whole pairs only").isZero();
        assertThat(DeadLetter.clip(once, DeadLetter.MAX_RAW_BYTES)).isEqualTo(once);
        assertThat(of(once, "d").raw()).isEqualTo(once);
        assertThat(DeadLetter.clip("short", DeadLetter.MAX_RAW_BYTES)).isEqualTo("short");
        assertThat(DeadLetter.clip(null, DeadLetter.MAX_RAW_BYTES)).isEmpty();
        String longDetail = "€".repeat(10_000); // 30,000 bytes, over the detail's 16 KiB
        assertThat(of("", longDetail).detail()).endsWith("…[cut]").hasSizeLessThan(longDetail.length());
    }
}
