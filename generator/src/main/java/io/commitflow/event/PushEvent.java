package io.commitflow.event;

/**
 * A ref update on a Git server: {@code {"type":"push","tenant","repo","ref","before","after","pusher","ts"}}.
 * The commits come from the mirror, never from the payload (servers truncate their commit lists).
 *
 * @param before the ref's old id; all zeros for a new ref
 * @param after  the ref's new id; all zeros for a deleted ref
 */
public record PushEvent(
        String tenant,
        String repo,
        String ref,
        String before,
        String after,
        String pusher,
        long ts,
        String traceId,
        Origin origin) {

    /** Forty zeros: git's way of saying "no object" in a ref update. */
    public static final String ZERO_SHA1 = "0".repeat(40);

    /** This push as {@code tenant}'s. */
    public PushEvent withTenant(String tenant) {
        return tenant.equals(this.tenant) ? this
                : new PushEvent(tenant, repo, ref, before, after, pusher, ts, traceId, origin);
    }

    public boolean createsRef() {
        return isZero(before);
    }

    public boolean deletesRef() {
        return isZero(after);
    }

    /**
     * A ref that holds server metadata, not code: Gerrit's NoteDb refs ({@code refs/changes/…/meta},
     * {@code refs/meta/…}, {@code refs/users/…}, …) and notes. Their updates bring no commits to describe.
     */
    public boolean metadataRef() {
        for (String prefix : METADATA_PREFIXES) {
            if (ref.startsWith(prefix)) {
                return true;
            }
        }
        return ref.startsWith("refs/changes/") && (ref.endsWith("/meta") || ref.endsWith("/robot-comments"));
    }

    private static final String[] METADATA_PREFIXES = {"refs/meta/", "refs/users/", "refs/sequences/", "refs/groups/",
        "refs/external-ids", "refs/cache-automerge/", "refs/draft-comments/", "refs/starred-changes/", "refs/notes/"};

    private static boolean isZero(String sha) {
        return sha.chars().allMatch(c -> c == '0');
    }
}
