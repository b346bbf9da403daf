package io.commitflow.gateway;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The tenants' API keys: each key names one tenant, a tenant may have several (to rotate them). Only the keys'
 * SHA-256 hashes are kept; a file may hold the hashes alone ({@code TENANT:sha256:HEX}, as {@link #hash} writes them)
 * so that it gives away no key. A presented key is hashed and compared with every entry in constant time.
 */
public final class ApiKeys {
    private static final String HASHED = "sha256:";

    private record Key(String tenant, byte[] hash, String where) {}

    private final List<Key> keys;

    private ApiKeys(List<Key> keys) {
        this.keys = List.copyOf(keys);
    }

    /**
     * Reads {@code TENANT:KEY} or {@code TENANT:sha256:HEX} entries ({@link Credentials}).
     *
     * @throws IllegalArgumentException for a malformed entry, a key shorter than {@value Credentials#MIN_SECRET_CHARS}
     *                                  characters, or a key given twice
     */
    public static ApiKeys parse(String text, String source) {
        List<Key> keys = new ArrayList<>();
        for (Credentials.Entry e : Credentials.parse(text, source)) {
            byte[] hash;
            if (e.rest().startsWith(HASHED)) {
                String hex = e.rest().substring(HASHED.length());
                if (!hex.matches("[0-9a-fA-F]{64}")) {
                    throw new IllegalArgumentException(e.where() + ": a hashed key is sha256: and 64 hex digits");
                }
                hash = HexFormat.of().parseHex(hex);
            } else {
                hash = Credentials.sha256(Credentials.secret(e, "API key", e.rest()));
            }
            add(keys, new Key(e.tenant(), hash, e.where()));
        }
        return new ApiKeys(keys);
    }

    /** Both sources' keys; a key in both is refused as a key given twice is. */
    public ApiKeys and(ApiKeys other) {
        List<Key> all = new ArrayList<>(keys);
        other.keys.forEach(k -> add(all, k));
        return new ApiKeys(all);
    }

    private static void add(List<Key> keys, Key key) {
        for (Key k : keys) {
            if (MessageDigest.isEqual(k.hash(), key.hash())) {
                throw new IllegalArgumentException(key.where() + ": the same API key as " + k.where()
                        + "; a key names one tenant");
            }
        }
        keys.add(key);
    }

    /** What a file can hold instead of the key itself. */
    public static String hash(String key) {
        return HASHED + HexFormat.of().formatHex(Credentials.sha256(key));
    }

    /**
     * The tenant whose key this is. Every entry is compared, whichever matches, so the time taken does not tell how
     * close a guess came; a hash's comparison is constant-time.
     */
    public Optional<String> tenantOf(String presented) {
        if (presented == null || presented.isEmpty()) {
            return Optional.empty();
        }
        byte[] hash = Credentials.sha256(presented);
        String found = null;
        for (Key k : keys) {
            if (MessageDigest.isEqual(k.hash(), hash)) {
                found = k.tenant();
            }
        }
        return Optional.ofNullable(found);
    }

    /** An id for the key's rate limit and logs that does not give the key away. */
    public static String id(String presented) {
        return HexFormat.of().formatHex(Credentials.sha256(presented), 0, 8);
    }

    public Set<String> tenants() {
        Set<String> out = new TreeSet<>();
        keys.forEach(k -> out.add(k.tenant()));
        return out;
    }

    public int size() {
        return keys.size();
    }
}
