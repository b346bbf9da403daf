package io.commitflow.event;

/**
 * A record the pipeline could not use, with the reason. Written to the dead-letter topic; nothing is
 * dropped silently.
 *
 * @param reason  a stable machine-readable code, see {@link Reason}
 * @param detail  a human-readable explanation
 * @param stage   the pipeline stage that rejected it ({@code parse}, {@code expand}, {@code diff}, …)
 * @param raw     the raw record value (UTF-8, cut at {@link #MAX_RAW_CHARS} characters), or the event's JSON
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

    /** Raw values longer than this are cut, so that a dead letter always fits in a Kafka record. */
    public static final int MAX_RAW_CHARS = 256 * 1024;

    public static String clip(String raw) {
        if (raw == null) {
            return "";
        }
        return raw.length() <= MAX_RAW_CHARS ? raw : raw.substring(0, MAX_RAW_CHARS) + "…[cut]";
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
