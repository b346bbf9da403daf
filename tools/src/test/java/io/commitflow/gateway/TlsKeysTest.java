package io.commitflow.gateway;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The gateway's TLS from PEM files as openssl writes them (skipped where no openssl is installed). */
class TlsKeysTest {
    @TempDir
    Path dir;

    @Test
    void aPemCertificateAndPkcs8KeyServeHttpsAndOtherKeyFormatsAreExplained() throws Exception {
        assumeTrue(onPath("openssl"), "no openssl on PATH to make the certificate");
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                key.toString(), "-out", cert.toString(), "-subj", "/CN=localhost", "-days", "1",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1");
        char[] password = "in-memory".toCharArray();
        KeyStore ks = TlsKeys.pem(cert, key, password);
        assertThat(ks.isKeyEntry("gateway")).isTrue();

        GatewayServer server = new GatewayServer(new GatewayServer.Settings("127.0.0.1", 0, ks, password,
                ApiKeys.parse("", "none"), WebhookSecrets.parse("", "none"), new RateLimiter(10, 10), 4096,
                Duration.ofSeconds(1), Duration.ZERO), new GatewayServer.Backend() {
                    @Override
                    public CompletableFuture<GatewayServer.Answer> suggest(String t, String r, String p, String id) {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public CompletableFuture<Void> publish(GitServer s, io.commitflow.event.PushEvent e, String id) {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public String problem() {
                        return null;
                    }
                }, new GatewayMetrics(), line -> { }).start();
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("gateway", ks.getCertificate("gateway"));
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            HttpResponse<String> r = HttpClient.newBuilder().sslContext(ssl).build().send(HttpRequest.newBuilder(
                    URI.create("https://127.0.0.1:" + server.port() + "/healthz")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
        } finally {
            server.close();
        }

        Path pkcs1 = dir.resolve("rsa.pem");
        Files.writeString(pkcs1, "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n");
        assertThatThrownBy(() -> TlsKeys.pem(cert, pkcs1, password))
                .hasMessageContaining("no unencrypted PKCS#8 key").hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
        assertThatThrownBy(() -> TlsKeys.pem(key, key, password)).hasMessageStartingWith(key.toString());
        assertThatThrownBy(() -> TlsKeys.pkcs12(cert, password)).hasMessageContaining("cannot be read as a PKCS12 key store");
    }

    private static boolean onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }

    private static void openssl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as("openssl: " + out).isTrue();
    }
}
