package io.commitflow.event;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * Writes events in commitflow's native JSON, the format {@link EventParser} reads. Producers (the replay
 * tool, the post-receive hook's tests) use this so that what they send and what the job parses cannot drift.
 */
public final class WireFormat {
    private WireFormat() {}

    /**
     * {@code {"type":"commit","tenant","repo","sha","parents","author","ts","message"}}; {@code message}
     * and {@code patch} are left out when {@code null}.
     */
    public static byte[] commit(String tenant, String repo, String sha, List<String> parents, String author, long ts,
                                String message, String patch) {
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("type", "commit");
        n.put("tenant", tenant);
        n.put("repo", repo);
        n.put("sha", sha);
        ArrayNode ps = n.putArray("parents");
        parents.forEach(ps::add);
        n.put("author", author);
        n.put("ts", ts);
        if (message != null) {
            n.put("message", message);
        }
        if (patch != null) {
            n.put("patch", patch);
        }
        return Json.bytes(n);
    }

    /**
     * {@code {"type":"commit","draft":true,"tenant","repo","sha","ts","patch","traceId"}}: a staged change asking for
     * its message; {@code sha} names the draft (the job echoes it), not a commit.
     */
    public static byte[] draft(String tenant, String repo, String sha, long ts, String patch, String traceId) {
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("type", "commit");
        n.put("draft", true);
        n.put("tenant", tenant);
        n.put("repo", repo);
        n.put("sha", sha);
        n.put("ts", ts);
        n.put("patch", patch);
        n.put("traceId", traceId);
        return Json.bytes(n);
    }

    /** {@code {"type":"push","tenant","repo","ref","before","after","pusher","ts"}}. */
    public static byte[] push(String tenant, String repo, String ref, String before, String after, String pusher, long ts) {
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("type", "push");
        n.put("tenant", tenant);
        n.put("repo", repo);
        n.put("ref", ref);
        n.put("before", before);
        n.put("after", after);
        n.put("pusher", pusher);
        n.put("ts", ts);
        return Json.bytes(n);
    }
}
