package io.commitflow.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;

import java.io.IOException;

/**
 * The body of {@code POST /v1/suggestions}: a JSON object
 * <pre>{@code {"repo": "team/app.git", "diff": "diff --git a/… b/…\n…", "author": "Ada <ada@example.com>", "branch": "main"}}</pre>
 * {@code repo} is the repository's name as its Git server publishes it (the job answers from its history),
 * {@code diff} the staged change in git's format ({@code git diff --cached}). {@code author} and {@code branch} are
 * optional and only checked: the job's drafts carry neither. Other fields are ignored, except {@code tenant}: the
 * tenant is the API key's, and a body that names one is refused.
 */
record DraftRequest(String repo, String diff, String author, String branch) {
    private static final int MAX_FIELD_CHARS = 1024;

    /** @throws IllegalArgumentException saying what is wrong, for a 400 */
    static DraftRequest parse(byte[] body) {
        JsonNode n;
        try {
            n = Json.mapper().readTree(body);
        } catch (IOException e) {
            throw new IllegalArgumentException("the body is not JSON: " + firstLine(e.getMessage()));
        }
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("the body must be a JSON object {\"repo\", \"diff\"}");
        }
        if (n.has("tenant")) {
            throw new IllegalArgumentException("leave \"tenant\" out: the tenant is the API key's");
        }
        String diff = text(n, "diff", true, Integer.MAX_VALUE);
        if (diff.isBlank()) {
            throw new IllegalArgumentException("\"diff\" is empty: nothing staged to describe");
        }
        return new DraftRequest(text(n, "repo", true, MAX_FIELD_CHARS), diff, text(n, "author", false, MAX_FIELD_CHARS),
                text(n, "branch", false, MAX_FIELD_CHARS));
    }

    private static String text(JsonNode n, String field, boolean required, int max) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw new IllegalArgumentException("\"" + field + "\" is missing");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException("\"" + field + "\" must be a string");
        }
        if (v.textValue().length() > max) {
            throw new IllegalArgumentException("\"" + field + "\" has more than " + max + " characters");
        }
        return v.textValue();
    }

    private static String firstLine(String message) {
        String m = message == null ? "" : message;
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
