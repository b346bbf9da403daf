package io.commitflow.event;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Small, stable hashes used for ids (not for security). */
public final class Hashes {
    private Hashes() {}

    /** The first 128 bits of SHA-256 of {@code s}, as 32 lowercase hex digits (a W3C trace id's shape). */
    public static String hex128(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
