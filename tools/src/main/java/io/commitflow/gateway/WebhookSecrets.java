package io.commitflow.gateway;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The tenants' webhook secrets, one per tenant and Git server ({@code TENANT:SERVER:SECRET}, {@link Credentials}), and
 * the check of a delivery against them. The secret that proves a delivery names its tenant, so two tenants may not
 * share one.
 */
public final class WebhookSecrets {
    private record Secret(String tenant, byte[] secret, String where) {}

    private final Map<GitServer, List<Secret>> secrets;

    private WebhookSecrets(Map<GitServer, List<Secret>> secrets) {
        this.secrets = secrets;
    }

    /**
     * @throws IllegalArgumentException for a malformed entry, an unknown server, a secret shorter than
     *                                  {@value Credentials#MIN_SECRET_CHARS} characters, two for one tenant and
     *                                  server, or one secret of two tenants
     */
    public static WebhookSecrets parse(String text, String source) {
        Map<GitServer, List<Secret>> all = new EnumMap<>(GitServer.class);
        for (GitServer s : GitServer.values()) {
            all.put(s, new ArrayList<>());
        }
        for (Credentials.Entry e : Credentials.parse(text, source)) {
            int colon = e.rest().indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException(e.where() + ": expected TENANT:SERVER:SECRET (SERVER: gitlab, gitea "
                        + "or github)");
            }
            GitServer server;
            try {
                server = GitServer.of(e.rest().substring(0, colon));
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException(e.where() + ": " + ex.getMessage());
            }
            byte[] secret = Credentials.secret(e, server.id() + " secret", e.rest().substring(colon + 1))
                    .getBytes(StandardCharsets.UTF_8);
            for (Secret other : all.get(server)) {
                if (other.tenant().equals(e.tenant())) {
                    throw new IllegalArgumentException(e.where() + ": tenant " + e.tenant() + " has a " + server.id()
                            + " secret already (" + other.where() + ")");
                }
                if (MessageDigest.isEqual(other.secret(), secret)) {
                    throw new IllegalArgumentException(e.where() + ": the same " + server.id() + " secret as "
                            + other.where() + "; a secret names one tenant");
                }
            }
            all.get(server).add(new Secret(e.tenant(), secret, e.where()));
        }
        return new WebhookSecrets(all);
    }

    /**
     * The tenant whose secret proves this delivery: GitLab's token equal to the secret, Gitea's and GitHub's signature
     * the HMAC-SHA256 of the body. Every tenant's secret is tried, and compared in constant time.
     *
     * @param proof the server's header ({@link GitServer#proofHeader()}), null when absent
     */
    public Optional<String> tenantOf(GitServer server, String proof, byte[] body) {
        if (proof == null || proof.isBlank()) {
            return Optional.empty();
        }
        String found = null;
        for (Secret s : secrets.get(server)) {
            if (verify(server, s.secret(), proof, body)) {
                found = s.tenant();
            }
        }
        return Optional.ofNullable(found);
    }

    /** Whether {@code proof} is what the server sends for {@code body} under {@code secret}. */
    static boolean verify(GitServer server, byte[] secret, String proof, byte[] body) {
        return switch (server) {
            // the token's hash, so that neither its length nor its bytes show in the comparison's time
            case GITLAB -> MessageDigest.isEqual(Credentials.sha256(secret),
                    Credentials.sha256(proof.getBytes(StandardCharsets.UTF_8)));
            case GITEA -> hexEquals(hmacSha256(secret, body), proof.strip());
            case GITHUB -> proof.startsWith("sha256=") && hexEquals(hmacSha256(secret, body), proof.substring(7).strip());
        };
    }

    private static boolean hexEquals(byte[] expected, String hex) {
        if (hex.length() != expected.length * 2 || !hex.matches("[0-9a-fA-F]+")) {
            return false;
        }
        return MessageDigest.isEqual(expected, HexFormat.of().parseHex(hex));
    }

    /** HMAC-SHA256 of {@code body} under {@code secret}. */
    static byte[] hmacSha256(byte[] secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e); // every JDK has it
        }
    }

    /** The signature header's value a server sends for {@code body}: for tests and for clients that sign. */
    public static String sign(GitServer server, String secret, byte[] body) {
        if (server == GitServer.GITLAB) {
            return secret;
        }
        String hex = HexFormat.of().formatHex(hmacSha256(secret.getBytes(StandardCharsets.UTF_8), body));
        return server == GitServer.GITHUB ? "sha256=" + hex : hex;
    }

    /** The tenants with a secret for {@code server}. */
    public Set<String> tenants(GitServer server) {
        Set<String> out = new TreeSet<>();
        secrets.get(server).forEach(s -> out.add(s.tenant()));
        return out;
    }

    public boolean isEmpty() {
        return secrets.values().stream().allMatch(List::isEmpty);
    }
}
