package io.commitflow.event;

import java.util.List;

/** Builders for events in tests. */
public final class TestEvents {
    private TestEvents() {}

    public static CommitEvent commit(String repo, String sha) {
        return commit(repo, sha, 0L);
    }

    public static CommitEvent commit(String repo, String sha, long offset) {
        Origin origin = new Origin("commitflow.events", 0, offset, 1_000L + offset);
        return new CommitEvent("default", repo, sha, List.of(), "", origin.kafkaTs(), null, null,
                origin.derivedTraceId(), origin);
    }

    public static CommitEvent withPatch(CommitEvent c, String patch) {
        return new CommitEvent(c.tenant(), c.repo(), c.sha(), c.parents(), c.author(), c.ts(), c.message(), patch,
                c.traceId(), c.origin());
    }

    public static CommitEvent withMessage(CommitEvent c, String message) {
        return new CommitEvent(c.tenant(), c.repo(), c.sha(), c.parents(), c.author(), c.ts(), message, c.patch(),
                c.traceId(), c.origin());
    }

    public static CommitEvent withParents(CommitEvent c, List<String> parents) {
        return new CommitEvent(c.tenant(), c.repo(), c.sha(), parents, c.author(), c.ts(), c.message(), c.patch(),
                c.traceId(), c.origin());
    }

    public static PushEvent push(String repo, String ref, String before, String after) {
        Origin origin = new Origin("commitflow.events", 0, 0, 1_000L);
        return new PushEvent("default", repo, ref, before, after, "pusher", 1_000L, origin.derivedTraceId(), origin);
    }
}
