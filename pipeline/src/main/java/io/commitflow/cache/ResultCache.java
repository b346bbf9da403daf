package io.commitflow.cache;

import io.commitflow.event.Suggestion;
import io.commitflow.generate.Draft;
import io.commitflow.generate.Subject;
import io.commitflow.generate.SubjectLength;
import io.commitflow.git.DiffedCommit;
import org.apache.flink.api.common.functions.RuntimeContext;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;

/**
 * The result cache of a repository (keyed state, LZ4, TTL): a cherry-pick or a rebase of a commit the repository
 * learned — the same {@code git patch-id} — gets that commit's real message, as {@code git cherry-pick} would, marked
 * {@code cache: hit} with {@code backend: cache}. Entries live for the TTL after they are written. Counts
 * {@code resultCacheHits}, {@code resultCacheMisses} and {@code resultCacheUnreadable}.
 */
public final class ResultCache implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final String BACKEND = "cache";

    private final CompressedCache<CachedMessage> entries;

    public ResultCache(Duration ttl) {
        entries = new CompressedCache<>("resultCache", CachedMessage.class, ttl);
    }

    public void open(RuntimeContext context) {
        entries.open(context);
    }

    /**
     * The suggestion the current repository's cache holds for {@code diff}'s patch-id, made at {@code now}; or null.
     * The real subject stands as its author wrote it, as short as {@link SubjectLength#SHORT_FLOOR} characters and
     * cut to 72; where the job sets a floor ({@code minSubjectChars}, {@code --min-subject-chars}; 0 where it does
     * not) it is held to that floor, as every generated subject is.
     */
    public Suggestion lookup(DiffedCommit diff, long now, int minSubjectChars) throws Exception {
        CachedMessage hit = diff.patchId() == null ? null : entries.get(diff.patchId());
        if (hit == null) {
            return null;
        }
        int floor = minSubjectChars == 0 ? SubjectLength.SHORT_FLOOR : minSubjectChars;
        return new Draft(SubjectLength.fit(hit.subject(), diff, floor, true), hit.body(), hit.type(), hit.scope(),
                hit.backend(), hit.similarity(), List.of(hit.sourceSha())).suggestion(diff, "hit", now);
    }

    /** Keeps a learned commit's real message under its patch-id (a commit without one is not cached). */
    public void remember(DiffedCommit diff, String message) throws Exception {
        if (diff.patchId() == null) {
            return;
        }
        String subject = Subject.firstLine(message);
        Subject s = Subject.parse(subject);
        String sha = diff.commit().sha();
        entries.put(diff.patchId(), new CachedMessage(subject, body(message), s.type(), s.scope(), BACKEND, 1.0,
                List.of(sha), sha));
    }

    /** The message after its subject line and the blank line that follows it. */
    static String body(String message) {
        int nl = message.indexOf('\n');
        return nl < 0 ? "" : message.substring(nl + 1).strip();
    }
}
