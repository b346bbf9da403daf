package io.commitflow.event;

import java.util.regex.Pattern;

/** Checks on the fields of incoming events. Each failure says which field and why. */
public final class Validation {
    private static final Pattern SHA = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");
    private static final Pattern TENANT = Pattern.compile(Tenants.NAME);
    static final int MAX_REPO_NAME = 255;
    static final int MAX_TRACE_ID = 128;
    private static final String GIT_SUFFIX = ".git";

    private Validation() {}

    /** Lower-cases {@code sha} and checks that it is a full SHA-1 or SHA-256 object id. */
    public static String sha(String field, String sha) throws InvalidEventException {
        String s = sha.toLowerCase(java.util.Locale.ROOT);
        if (!SHA.matcher(s).matches()) {
            throw new InvalidEventException(Reason.INVALID_FIELD,
                    field + " must be 40 or 64 hex digits, got " + quote(sha));
        }
        return s;
    }

    /**
     * Checks that a repository name is a safe relative name: no absolute path, no {@code .} or {@code ..}
     * segment, no empty segment, no backslash, no control characters. The diff stage checks again that the
     * name resolves inside the mirror root (symlinks included); this check rejects the obvious early.
     *
     * @return the name normalised, once for every stage: a trailing {@code .git} is dropped, so that {@code app} and
     *         {@code app.git} are one repository to dedup, to the suggest state and to the mirror (which finds
     *         {@code app.git} for {@code app}). Case is kept: Git servers on Linux tell {@code App} from {@code app}.
     */
    public static String repo(String name) throws InvalidEventException {
        if (name.isEmpty() || name.length() > MAX_REPO_NAME) {
            throw new InvalidEventException(Reason.BAD_REPO_NAME,
                    "repo must be 1 to " + MAX_REPO_NAME + " characters, got " + name.length());
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\\' || Character.isISOControl(c)) {
                throw new InvalidEventException(Reason.BAD_REPO_NAME,
                        "repo contains a control character or backslash at index " + i);
            }
            if (Character.isHighSurrogate(c) && i + 1 < name.length() && Character.isLowSurrogate(name.charAt(i + 1))) {
                i++; // a well-formed pair: one character outside the BMP
            } else if (Character.isSurrogate(c)) {
                throw new InvalidEventException(Reason.BAD_REPO_NAME,
                        "repo is not well-formed Unicode: a lone surrogate at index " + i);
            }
        }
        if (name.startsWith("/") || name.endsWith("/")) {
            throw new InvalidEventException(Reason.BAD_REPO_NAME, "repo must be relative: " + quote(name));
        }
        for (String segment : name.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..") || !segment.strip().equals(segment)) {
                throw new InvalidEventException(Reason.BAD_REPO_NAME,
                        "repo has an empty, '.', '..' or space-padded path segment: " + quote(name));
            }
        }
        String last = name.substring(name.lastIndexOf('/') + 1);
        return last.length() > GIT_SUFFIX.length() && last.endsWith(GIT_SUFFIX)
                ? name.substring(0, name.length() - GIT_SUFFIX.length()) : name;
    }

    /** Whether {@code tenant} is a tenant's name ({@link Tenants#NAME}). */
    public static boolean isTenant(String tenant) {
        return tenant != null && TENANT.matcher(tenant).matches();
    }

    public static String tenant(String tenant) throws InvalidEventException {
        if (!isTenant(tenant)) {
            throw new InvalidEventException(Reason.INVALID_FIELD,
                    "tenant must match [A-Za-z0-9][A-Za-z0-9._-]{0,63}, got " + quote(tenant));
        }
        return tenant;
    }

    public static String ref(String ref) throws InvalidEventException {
        if (!ref.startsWith("refs/") || ref.length() > 1024 || ref.contains("..")
                || ref.chars().anyMatch(c -> c < 0x20 || c == 0x7f || c == ' ' || c == '~' || c == '^' || c == ':')) {
            throw new InvalidEventException(Reason.INVALID_FIELD, "ref must be a full ref name under refs/, got " + quote(ref));
        }
        return ref;
    }

    public static String traceId(String id) throws InvalidEventException {
        if (id.isEmpty() || id.length() > MAX_TRACE_ID || id.chars().anyMatch(c -> c <= 0x20 || c >= 0x7f)) {
            throw new InvalidEventException(Reason.INVALID_FIELD,
                    "traceId must be 1 to " + MAX_TRACE_ID + " printable ASCII characters");
        }
        return id;
    }

    /** Quotes a value for an error message, cut to 80 characters so that a hostile value cannot flood the DLQ. */
    static String quote(String s) {
        String cut = s.length() > 80 ? s.substring(0, 80) + "…" : s;
        StringBuilder b = new StringBuilder("\"");
        cut.codePoints().forEach(cp -> {
            if (cp < 0x20 || cp == 0x7f) {
                b.append(String.format("\\u%04x", cp));
            } else {
                b.appendCodePoint(cp);
            }
        });
        return b.append('"').toString();
    }
}
