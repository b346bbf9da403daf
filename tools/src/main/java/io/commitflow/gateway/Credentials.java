package io.commitflow.gateway;

import io.commitflow.event.Validation;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;

/**
 * The text of the gateway's credential files and variables: one entry a line, {@code TENANT:REST}, where REST is an
 * API key or {@code SERVER:SECRET}; blank lines and lines starting with {@code #} are skipped. Entries may also stand
 * on one line separated by blanks (an environment variable), since neither a key nor a secret holds a blank.
 * Errors name the source and the line, never the secret.
 */
final class Credentials {
    /** Keys and secrets shorter than this are refused: they could be guessed. */
    static final int MIN_SECRET_CHARS = 16;

    /** One entry: its tenant and what follows the first colon. */
    record Entry(String source, int line, String tenant, String rest) {
        String where() {
            return source + " line " + line;
        }
    }

    private Credentials() {}

    /**
     * @param source what the text is, for errors: {@code --api-keys keys.txt}, {@code --api-keys-env VAR}
     * @throws IllegalArgumentException for an entry without a colon or with a tenant that is not a tenant's name
     */
    static List<Entry> parse(String text, String source) {
        List<Entry> out = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            for (String token : line.split("\\s+")) {
                int colon = token.indexOf(':');
                if (colon < 0) {
                    throw new IllegalArgumentException(source + " line " + (i + 1) + ": expected TENANT:…, found no ':'");
                }
                String tenant = token.substring(0, colon);
                if (!Validation.isTenant(tenant)) {
                    throw new IllegalArgumentException(source + " line " + (i + 1) + ": \"" + (tenant.length() > 64 ? tenant.substring(0, 64) + "…" : tenant)
                            + "\" is not a tenant's name ([A-Za-z0-9][A-Za-z0-9._-]{0,63})");
                }
                out.add(new Entry(source, i + 1, tenant, token.substring(colon + 1)));
            }
        }
        return out;
    }

    /** Checks a plain key or secret's length. */
    static String secret(Entry e, String what, String value) {
        if (value.length() < MIN_SECRET_CHARS) {
            throw new IllegalArgumentException(e.where() + ": the " + what + " of tenant " + e.tenant() + " has "
                    + value.length() + " characters; at least " + MIN_SECRET_CHARS + " are needed (e.g. openssl rand -hex 32)");
        }
        return value;
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has it
        }
    }

    static byte[] sha256(String text) {
        return sha256(text.getBytes(StandardCharsets.UTF_8));
    }
}
