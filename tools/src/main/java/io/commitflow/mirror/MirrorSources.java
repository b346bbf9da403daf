package io.commitflow.mirror;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Where each tenant's repositories are fetched from: {@code TENANT=URL_TEMPLATE}, {@code *} for every other tenant.
 * The template's {@code {repo}} is the repository's name as the event gives it ({@code team/app.git}), {@code {name}}
 * the same without a trailing {@code .git}: {@code ssh://gerrit:29418/{name}}, {@code https://gitea/{name}.git},
 * {@code git://host/{repo}}. Credentials never go into a template (they would land in every mirror's config and in
 * logs): git reads them from the environment of the process (ssh keys and {@code GIT_SSH_COMMAND}, a credential
 * helper, or {@code GIT_CONFIG_COUNT}/{@code GIT_CONFIG_KEY_n}/{@code GIT_CONFIG_VALUE_n} with
 * {@code http.extraHeader}).
 */
public final class MirrorSources {
    private static final Pattern USER_PASSWORD = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*://[^/@]*:[^/@]*@.*");
    /**
     * Any user info in an HTTP(S) URL: {@code https://TOKEN@host/…} is how a token is most often pasted into one. An
     * SSH URL's user ({@code ssh://git@host/…}) names an account, no secret, and stays allowed.
     */
    private static final Pattern HTTP_USER_INFO = Pattern.compile("(?i)^https?://[^/@]*@.*");

    private final Map<String, String> byTenant;

    private MirrorSources(Map<String, String> byTenant) {
        this.byTenant = Map.copyOf(byTenant);
    }

    /**
     * @param specs {@code TENANT=URL_TEMPLATE} each
     * @throws IllegalArgumentException naming the spec that is wrong and why
     */
    public static MirrorSources parse(List<String> specs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            if (eq <= 0 || eq == spec.length() - 1) {
                throw new IllegalArgumentException("--mirror-source takes TENANT=URL_TEMPLATE (or *=URL_TEMPLATE), not '"
                        + spec + "'");
            }
            String tenant = spec.substring(0, eq).strip();
            String template = spec.substring(eq + 1).strip();
            if (!template.contains("{repo}") && !template.contains("{name}")) {
                throw new IllegalArgumentException("--mirror-source " + tenant + ": the URL template must contain {repo} "
                        + "or {name}, got " + template);
            }
            if (USER_PASSWORD.matcher(template).matches() || HTTP_USER_INFO.matcher(template).matches()) {
                throw new IllegalArgumentException("--mirror-source " + tenant + ": no credentials in the URL, neither a "
                        + "password nor an HTTP user or token (they would be written to every mirror's config and to "
                        + "logs); give git its credentials through the environment");
            }
            if (m.put(tenant, template) != null) {
                throw new IllegalArgumentException("--mirror-source names tenant " + tenant + " twice");
            }
        }
        return new MirrorSources(m);
    }

    /**
     * The URL of {@code repo} of {@code tenant}, or null when no template applies. In an HTTP(S) URL the name is
     * percent-encoded where it holds more than unreserved characters ({@code my app#2} becomes {@code my%20app%232}),
     * so that a name cannot end the path or start a query; other templates (SSH, git://, paths, scp-like
     * {@code host:{name}}) take the name as it is, as git reads their paths literally.
     */
    public String url(String tenant, String repo) {
        String t = byTenant.getOrDefault(tenant, byTenant.get("*"));
        if (t == null) {
            return null;
        }
        String name = repo.endsWith(".git") ? repo.substring(0, repo.length() - 4) : repo;
        if (URL.matcher(t).matches()) {
            repo = encodePath(repo);
            name = encodePath(name);
        }
        return t.replace("{repo}", repo).replace("{name}", name);
    }

    private static final Pattern URL = Pattern.compile("(?i)^https?://.*");

    /** {@code path} with every byte but unreserved characters and '/' percent-encoded (RFC 3986), as UTF-8. */
    static String encodePath(String path) {
        StringBuilder out = new StringBuilder();
        for (byte b : path.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
                    || c == '_' || c == '~' || c == '/') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }

    public boolean isEmpty() {
        return byTenant.isEmpty();
    }

    @Override
    public String toString() {
        return byTenant.toString();
    }
}
