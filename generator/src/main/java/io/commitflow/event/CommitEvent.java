package io.commitflow.event;

import java.util.List;

/**
 * One commit to describe. Arrives as native JSON
 * {@code {"type":"commit","tenant","repo","sha","parents":[],"author","ts","message"?,"patch"?}} or is
 * expanded from a push.
 *
 * @param tenant  the tenant that owns the repository ({@code "default"} when the event has none)
 * @param repo    the repository's name, relative to the mirror root
 * @param sha     the commit id, 40 (SHA-1) or 64 (SHA-256) lowercase hex digits
 * @param parents parent ids, may be empty (root commit) or unknown (empty when the event did not say)
 * @param author  the author as the server sent it, may be empty
 * @param ts      the event's time in epoch milliseconds (from the server; the Kafka timestamp when absent)
 * @param message the real commit message when the server sent it: learned from, never shown as a suggestion
 * @param patch   an inline unified diff, used instead of the mirror when present
 * @param traceId the event's trace id, or one derived from its origin
 * @param origin  where the record came from
 * @param draft   a staged change that is not a commit yet ({@code "draft":true}, sent by {@code commitflow suggest}):
 *                it carries its patch and no message, is answered on the gold tier ahead of learning traffic, is
 *                neither remembered by dedup nor learned from, and its suggestion goes to the replies topic
 */
public record CommitEvent(
        String tenant,
        String repo,
        String sha,
        List<String> parents,
        String author,
        long ts,
        String message,
        String patch,
        String traceId,
        Origin origin,
        boolean draft) {

    /** A commit (not a draft). */
    public CommitEvent(String tenant, String repo, String sha, List<String> parents, String author, long ts,
                       String message, String patch, String traceId, Origin origin) {
        this(tenant, repo, sha, parents, author, ts, message, patch, traceId, origin, false);
    }

    /** This event as {@code tenant}'s. */
    public CommitEvent withTenant(String tenant) {
        return tenant.equals(this.tenant) ? this
                : new CommitEvent(tenant, repo, sha, parents, author, ts, message, patch, traceId, origin, draft);
    }
}
