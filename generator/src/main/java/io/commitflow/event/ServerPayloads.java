package io.commitflow.event;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Locale;

/**
 * The push notifications Git servers publish, read into {@link PushEvent}s: Gerrit's {@code ref-updated} stream
 * event (as the events-kafka plugin publishes it), Gitea's push webhook payload (the GitHub-compatible shape) and
 * GitLab's push and tag-push events. Their commit lists are truncated by the servers, so only the ref update is
 * taken; the commits come from the mirror.
 *
 * <p>Tenant: a {@code tenant} field when the bridge adds one, else the repository's first path segment (the
 * Gerrit parent folder, the Gitea owner, the GitLab top-level group), else {@code default}.
 */
final class ServerPayloads {
    private ServerPayloads() {}

    /** Gerrit: {@code {"type":"ref-updated","refUpdate":{"oldRev","newRev","refName","project"},"submitter":{…},"eventCreatedOn":s}}. */
    static PushEvent gerrit(JsonFields f, Origin origin, String traceId) throws InvalidEventException {
        JsonFields u = f.object("refUpdate");
        String project = Validation.repo(u.requiredText("project"));
        String refName = u.requiredText("refName");
        // older Gerrit versions send branch names without refs/heads/
        String ref = Validation.ref(refName.startsWith("refs/") ? refName : "refs/heads/" + refName);
        String before = Validation.sha("refUpdate.oldRev", u.requiredText("oldRev"));
        String after = Validation.sha("refUpdate.newRev", u.requiredText("newRev"));
        JsonFields who = f.objectOrNull("submitter");
        String pusher = who == null ? "" : who.firstText("", "username", "name", "email");
        long ts = origin.kafkaTs();
        JsonNode created = f.node("eventCreatedOn");
        if (created != null && created.isIntegralNumber() && created.canConvertToLong() && created.longValue() >= 0) {
            ts = created.longValue() * 1000; // Gerrit counts seconds
        }
        return new PushEvent(tenant(f, project), project, ref, before, after, pusher, ts, traceId, origin);
    }

    /** Gitea (and GitHub-shaped) push webhooks: {@code {"ref","before","after","repository":{"full_name"},"pusher":{…}}}. */
    static PushEvent gitea(JsonFields f, Origin origin, String traceId) throws InvalidEventException {
        String repo = Validation.repo(f.object("repository").requiredText("full_name"));
        JsonFields who = f.objectOrNull("pusher");
        String pusher = who == null ? "" : who.firstText("", "login", "username", "name", "email");
        return push(f, repo, pusher, origin, traceId);
    }

    /** GitLab push and tag-push events: {@code {"object_kind":"push","ref","before","after","project":{"path_with_namespace"}}}. */
    static PushEvent gitlab(JsonFields f, Origin origin, String traceId) throws InvalidEventException {
        String kind = f.requiredText("object_kind");
        if (!kind.equals("push") && !kind.equals("tag_push")) {
            throw new InvalidEventException(Reason.UNKNOWN_TYPE,
                    "GitLab event kind " + Validation.quote(kind) + " is no push (push or tag_push expected)");
        }
        String repo = Validation.repo(f.object("project").requiredText("path_with_namespace"));
        String pusher = f.firstText("", "user_username", "user_name", "user_email");
        return push(f, repo, pusher, origin, traceId);
    }

    private static PushEvent push(JsonFields f, String repo, String pusher, Origin origin, String traceId)
            throws InvalidEventException {
        String ref = Validation.ref(f.requiredText("ref"));
        String before = Validation.sha("before", f.requiredText("before"));
        String after = Validation.sha("after", f.requiredText("after"));
        return new PushEvent(tenant(f, repo), repo, ref, before, after, pusher, origin.kafkaTs(), traceId, origin);
    }

    /** An explicit {@code tenant} field, else the repository's first path segment, else {@code default}. */
    static String tenant(JsonFields f, String repo) throws InvalidEventException {
        String explicit = f.optionalText("tenant", null);
        if (explicit != null) {
            return Validation.tenant(explicit);
        }
        int slash = repo.indexOf('/');
        if (slash <= 0) {
            return EventParser.DEFAULT_TENANT;
        }
        String first = repo.substring(0, slash).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]", "-");
        first = first.replaceAll("^[^a-z0-9]+", "");
        if (first.isEmpty()) {
            return EventParser.DEFAULT_TENANT;
        }
        return first.length() > 64 ? first.substring(0, 64) : first;
    }

    /** Is this object a Gitea/GitHub push payload? It has no type, but a ref update and a repository. */
    static boolean looksLikeGitea(JsonFields f) {
        return f.has("ref") && f.has("before") && f.has("after") && f.objectOrNull("repository") != null;
    }
}
