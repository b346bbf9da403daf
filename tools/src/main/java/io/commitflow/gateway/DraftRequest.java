package io.commitflow.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * The body of {@code POST /v1/suggestions}: a JSON object
 * <pre>{@code {"repo": "team/app.git", "diff": "diff --git a/… b/…\n…", "author": "Ada <ada@example.com>", "branch": "main"}}</pre>
 * {@code repo} is the repository's name as its Git server publishes it (the job answers from its history),
 * {@code diff} the staged change in git's format ({@code git diff --cached}). {@code author} and {@code branch} are
 * optional and only checked: the job's drafts carry neither. Other fields are ignored, except {@code tenant}: the
 * tenant is the API key's, and a body that names one is refused.
 *
 * <p>Or the diff itself, {@code Content-Type: text/x-diff} (also {@code text/x-patch}, {@code text/plain}) in UTF-8,
 * with the other fields as query parameters: {@code ?repo=team/app.git&branch=main}, and {@code &candidates=N}
 * ({@code &comment=C}) for the other subjects as comment lines of a text answer. That is what {@code curl
 * --data-binary @-} sends from {@code git diff --cached} without a JSON encoder.
 */
record DraftRequest(String repo, String diff, String author, String branch, int candidates, char commentChar) {
    DraftRequest(String repo, String diff, String author, String branch) {
        this(repo, diff, author, branch, 0, '#');
    }

    private static final int MAX_FIELD_CHARS = 1024;
    /** The media types of a body that is the diff itself. */
    static final Set<String> DIFF_TYPES = Set.of("text/x-diff", "text/x-patch", "text/plain");

    /**
     * A request of either form: by {@code contentType}, a JSON body or a diff body with {@code query}'s parameters.
     *
     * @throws IllegalArgumentException saying what is wrong, for a 400
     */
    static DraftRequest parse(byte[] body, String contentType, Function<String, String> query) {
        String media = contentType == null ? "" : contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (!DIFF_TYPES.contains(media)) {
            return parse(body);
        }
        if (query.apply("tenant") != null) {
            throw new IllegalArgumentException("leave \"tenant\" out: the tenant is the API key's");
        }
        String diff;
        try {
            diff = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("the diff is not UTF-8 text");
        }
        if (diff.isBlank()) {
            throw new IllegalArgumentException("the diff is empty: nothing staged to describe");
        }
        String n = param(query, "candidates", false);
        int candidates;
        try {
            candidates = n == null ? 0 : Integer.parseInt(n);
        } catch (NumberFormatException e) {
            candidates = -1;
        }
        if (candidates < 0 || candidates > 5) {
            throw new IllegalArgumentException("?candidates= takes 0 to 5, not '" + n + "'");
        }
        String comment = param(query, "comment", false);
        if (comment != null && (comment.length() != 1 || Character.isLetterOrDigit(comment.charAt(0))
                || Character.isWhitespace(comment.charAt(0)))) {
            throw new IllegalArgumentException("?comment= takes git's core.commentChar, one character, not '" + comment + "'");
        }
        return new DraftRequest(param(query, "repo", true), diff, param(query, "author", false),
                param(query, "branch", false), candidates, comment == null ? '#' : comment.charAt(0));
    }

    private static String param(Function<String, String> query, String name, boolean required) {
        String v = query.apply(name);
        if (v == null || v.isEmpty()) {
            if (required) {
                throw new IllegalArgumentException("?" + name + "= is missing: a diff body names its repository in the query");
            }
            return null;
        }
        if (v.length() > MAX_FIELD_CHARS) {
            throw new IllegalArgumentException("?" + name + "= has more than " + MAX_FIELD_CHARS + " characters");
        }
        return v;
    }

    /** A JSON body. @throws IllegalArgumentException saying what is wrong, for a 400 */
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
