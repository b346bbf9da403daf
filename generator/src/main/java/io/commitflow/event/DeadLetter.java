package io.commitflow.event;

/**
 * A record the pipeline could not use, with the reason. Written to the dead-letter topic; nothing is
 * dropped silently.
 *
 * @param reason  a stable machine-readable code, see {@link Reason}
 * @param detail  a human-readable explanation; cut likewise at {@link #MAX_DETAIL_BYTES}
 * @param stage   the pipeline stage that rejected it ({@code parse}, {@code expand}, {@code diff}, …)
 * @param raw     the raw record value, or the event's JSON; cut where it would take more than {@link #MAX_RAW_BYTES}
 *                bytes of the dead letter's JSON
 * @param origin  the source topic, partition, offset and Kafka timestamp
 * @param tenant  the tenant when known, else empty
 * @param repo    the repository when known, else empty
 * @param sha     the commit when known, else empty
 * @param traceId the event's trace id
 * @param madeMs  when the job rejected it (epoch ms, the job's clock): the SLA windows' event time
 */
public record DeadLetter(
        String reason,
        String detail,
        String stage,
        String raw,
        Origin origin,
        String tenant,
        String repo,
        String sha,
        String traceId,
        long madeMs) {

    /**
     * The most a raw value may take of the dead letter's JSON, in bytes as Jackson writes them: a control byte takes
     * six (a backslash-u escape), a quote or backslash two, each half of a surrogate pair six, other characters
     * their UTF-8 length. A dead letter then fits the producer's 1 MiB request whatever the record held, so that its
     * send never fails and is never retried in a loop.
     */
    public static final int MAX_RAW_BYTES = 256 * 1024;
    /** The most a detail may take of the dead letter's JSON, in the same bytes. */
    public static final int MAX_DETAIL_BYTES = 16 * 1024;
    private static final String CUT = "…[cut]";

    public DeadLetter {
        raw = clip(raw, MAX_RAW_BYTES);
        detail = clip(detail, MAX_DETAIL_BYTES);
    }

    /**
     * {@code s} whole where its JSON takes at most {@code budget} bytes; else its longest prefix that leaves room for
     * the mark {@value #CUT}, with the mark; empty for null. Never splits a surrogate pair; cutting twice changes
     * nothing.
     */
    static String clip(String s, int budget) {
        if (s == null) {
            return "";
        }
        if (jsonBytes(s) <= budget) {
            return s;
        }
        int room = budget - jsonBytes(CUT);
        int used = 0;
        int end = 0;
        while (end < s.length()) {
            boolean pair = Character.isHighSurrogate(s.charAt(end)) && end + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(end + 1));
            int n = pair ? 2 : 1;
            int cost = jsonBytes(s.charAt(end)) + (pair ? jsonBytes(s.charAt(end + 1)) : 0);
            if (used + cost > room) {
                break;
            }
            used += cost;
            end += n;
        }
        return s.substring(0, end) + CUT;
    }

    /** What {@code s} takes in JSON, as Jackson writes a string's content. */
    static int jsonBytes(String s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            bytes += jsonBytes(s.charAt(i));
        }
        return bytes;
    }

    /** What one character takes in JSON as Jackson writes it. */
    private static int jsonBytes(char c) {
        if (c == '"' || c == '\\' || c == '\b' || c == '\t' || c == '\n' || c == '\f' || c == '\r') {
            return 2;
        }
        if (c < 0x20 || Character.isSurrogate(c)) {
            return 6; // a backslash-u escape; Jackson escapes each half of a pair: an emoji takes 12 bytes
        }
        return c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    }

    /** A dead letter for a parsed commit that a later stage could not handle. */
    public static DeadLetter of(CommitEvent c, Reason reason, String detail, String stage) {
        return new DeadLetter(reason.name(), detail, stage, "", c.origin(), c.tenant(), c.repo(), c.sha(), c.traceId(),
                System.currentTimeMillis());
    }

    /** A dead letter for a parsed push that a later stage could not handle. */
    public static DeadLetter of(PushEvent p, Reason reason, String detail, String stage) {
        return new DeadLetter(reason.name(), detail, stage, "", p.origin(), p.tenant(), p.repo(), p.after(), p.traceId(),
                System.currentTimeMillis());
    }
}
