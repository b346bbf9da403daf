package io.commitflow.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The gateway's TLS identity: a PKCS12 key store as it is, or a PEM certificate chain and an unencrypted PKCS#8
 * private key (what cert-manager and most ACME clients write) turned into one in memory.
 */
public final class TlsKeys {
    private static final Pattern PKCS8 = Pattern.compile(
            "-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");

    private TlsKeys() {}

    /** @throws IllegalArgumentException naming the file and what is wrong with it */
    public static KeyStore pkcs12(Path file, char[] password) {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, password);
            if (!hasKey(ks)) {
                throw new IllegalArgumentException(file + " holds no private key");
            }
            return ks;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(file + " cannot be read as a PKCS12 key store (is the password right?): "
                    + e.getMessage());
        }
    }

    /**
     * A key store of one entry, the key under {@code password}, from PEM files.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static KeyStore pem(Path certificates, Path privateKey, char[] password) {
        List<? extends Certificate> chain;
        try (InputStream in = Files.newInputStream(certificates)) {
            chain = List.copyOf(CertificateFactory.getInstance("X.509").generateCertificates(in));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(certificates + " cannot be read as PEM certificates: " + e.getMessage());
        }
        if (chain.isEmpty()) {
            throw new IllegalArgumentException(certificates + " holds no certificate");
        }
        PrivateKey key = privateKey(privateKey, chain.get(0).getPublicKey().getAlgorithm());
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("gateway", key, password, chain.toArray(Certificate[]::new));
            return ks;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(privateKey + " does not go with " + certificates + ": " + e.getMessage());
        }
    }

    private static PrivateKey privateKey(Path file, String algorithm) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + " cannot be read: " + e.getMessage());
        }
        Matcher m = PKCS8.matcher(text);
        if (!m.find()) {
            throw new IllegalArgumentException(file + " holds no unencrypted PKCS#8 key (-----BEGIN PRIVATE KEY-----); "
                    + "convert it with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pkcs8");
        }
        byte[] der = Base64.getMimeDecoder().decode(m.group(1).getBytes(StandardCharsets.US_ASCII));
        try {
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(file + " is no " + algorithm + " key for the certificate: " + e.getMessage());
        }
    }

    private static boolean hasKey(KeyStore ks) throws GeneralSecurityException {
        for (String alias : java.util.Collections.list(ks.aliases())) {
            if (ks.isKeyEntry(alias)) {
                return true;
            }
        }
        return false;
    }
}
