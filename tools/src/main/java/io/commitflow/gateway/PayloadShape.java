package io.commitflow.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;

import java.io.IOException;

/**
 * Whether a webhook's body is its server's kind of payload, before the job's parser reads it: the parser takes
 * native events and every server's payloads alike, and a GitHub endpoint must not pass on a GitLab payload or a
 * native commit event.
 */
final class PayloadShape {
    private PayloadShape() {}

    /** Null when the body may be {@code server}'s push payload, else why not; the parser says what JSON cannot. */
    static String check(GitServer server, byte[] body) {
        JsonNode n;
        try {
            n = Json.mapper().readTree(body);
        } catch (IOException | RuntimeException e) {
            return null; // the parser's NOT_JSON says it
        }
        if (n == null || !n.isObject()) {
            return null;
        }
        boolean gitlab = n.has("object_kind");
        if (server == GitServer.GITLAB) {
            return gitlab ? null : "not a GitLab payload: it has no object_kind";
        }
        if (gitlab || n.has("type")) {
            return "not a " + (server == GitServer.GITEA ? "Gitea" : "GitHub") + " push payload: it has "
                    + (gitlab ? "GitLab's object_kind" : "a \"type\" of its own");
        }
        return null;
    }
}
