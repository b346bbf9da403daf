package io.commitflow.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.event.PushEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP side of the gateway against a backend that answers at once: what each request gets, and what reaches
 * Kafka (the backend) and what does not. The Kafka side is GatewayITCase's.
 */
class GatewayServerTest {
    static final String KEY_A = "api-key-of-tenant-a-000";
    static final String KEY_B = "api-key-of-tenant-b-000";
    static final String SECRET_A = "webhook-secret-of-a-000";

    private final List<PushEvent> published = new CopyOnWriteArrayList<>();
    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final GatewayMetrics metrics = new GatewayMetrics();
    private final HttpClient http = HttpClient.newHttpClient();
    private GatewayServer server;
    private URI base;

    private final GatewayServer.Backend backend = new GatewayServer.Backend() {
        @Override
        public CompletableFuture<GatewayServer.Answer> suggest(String tenant, String repo, String patch, String traceId) {
            asked.add(tenant + " " + repo);
            if (repo.equals("slow/repo")) {
                return new CompletableFuture<>(); // never answered
            }
            if (repo.equals("refused/repo")) {
                return CompletableFuture.completedFuture(new GatewayServer.Answer.Refused("DIFF_TOO_LARGE", "too large"));
            }
            if (repo.equals("bodied/repo")) {
                return CompletableFuture.completedFuture(new GatewayServer.Answer.Suggested(Json.mapper().createObjectNode()
                        .put("tenant", tenant).put("subject", "Widget: Retry twice").put("body", "Once was not enough.\n")));
            }
            if (repo.equals("broken/repo")) {
                return CompletableFuture.failedFuture(new NullPointerException());
            }
            if (repo.equals("choices/repo")) {
                return CompletableFuture.completedFuture(new GatewayServer.Answer.Suggested(Json.mapper().createObjectNode()
                        .put("tenant", tenant).put("subject", "Retry twice").set("alternatives",
                                Json.mapper().createArrayNode().add("Retry the write").add("Widget: Retry").add("Update Widget"))));
            }
            if (repo.equals("other/repo")) {
                return CompletableFuture.completedFuture(new GatewayServer.Answer.Suggested(
                        Json.mapper().createObjectNode().put("tenant", "b").put("subject", "B's secret")));
            }
            return CompletableFuture.completedFuture(new GatewayServer.Answer.Suggested(Json.mapper().createObjectNode()
                    .put("tenant", tenant).put("repo", repo).put("subject", "Describe " + patch.length() + " characters")
                    .put("traceId", traceId)));
        }

        @Override
        public CompletableFuture<Void> publish(GitServer server, PushEvent event, String traceId) {
            published.add(event);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public String problem() {
            return null;
        }
    };

    void start(int maxBody, RateLimiter limiter) throws Exception {
        ApiKeys keys = ApiKeys.parse("a:" + KEY_A + "\nb:" + KEY_B, "keys");
        WebhookSecrets secrets = WebhookSecrets.parse("a:gitlab:" + SECRET_A + "\na:gitea:" + SECRET_A
                + "\na:github:" + SECRET_A, "secrets");
        server = new GatewayServer(new GatewayServer.Settings("127.0.0.1", 0, null, null, keys, secrets, limiter, maxBody,
                Duration.ofMillis(500), Duration.ofSeconds(5)), backend, metrics, line -> { }).start();
        base = URI.create("http://127.0.0.1:" + server.port());
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aKeysDraftGetsItsSuggestionAndEveryOtherRequestARefusalWithAReason() throws Exception {
        start(64 * 1024, new RateLimiter(100, 100));
        HttpResponse<String> ok = post("/v1/suggestions", KEY_A, "{\"repo\":\"team/app\",\"diff\":\"diff --git a/x b/x\\n\"}");
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        JsonNode reply = Json.mapper().readTree(ok.body());
        assertThat(reply.path("tenant").asText()).isEqualTo("a");
        assertThat(reply.path("traceId").asText()).matches("[0-9a-f]{32}")
                .isEqualTo(ok.headers().firstValue(GatewayServer.TRACE_HEADER).orElseThrow());
        assertThat(post("/v1/suggestions", KEY_B, "{\"repo\":\"team/app\",\"diff\":\"d\"}").body()).contains("\"tenant\":\"b\"");

        HttpResponse<String> noKey = post("/v1/suggestions", null, "{\"repo\":\"r\",\"diff\":\"d\"}");
        assertThat(noKey.statusCode()).isEqualTo(401);
        assertThat(noKey.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"commitflow\"");
        assertThat(post("/v1/suggestions", KEY_A + "x", "{\"repo\":\"r\",\"diff\":\"d\"}").statusCode()).isEqualTo(401);
        assertThat(post("/v1/suggestions", KEY_A, "{\"repo\":\"r\",\"diff\":\"d\",\"tenant\":\"b\"}").body())
                .as("the tenant is the key's").contains("the tenant is the API key's");
        assertThat(post("/v1/suggestions", KEY_A, "{\"repo\":\"r\"}").body()).contains("\\\"diff\\\" is missing");
        assertThat(post("/v1/suggestions", KEY_A, "{not json").statusCode()).isEqualTo(400);
        assertThat(post("/v1/suggestions", KEY_A, "[1]").statusCode()).isEqualTo(400);
        assertThat(post("/v1/suggestions", KEY_A, "{\"repo\":\"refused/repo\",\"diff\":\"d\"}").statusCode()).isEqualTo(422);
        HttpResponse<String> slow = post("/v1/suggestions", KEY_A, "{\"repo\":\"slow/repo\",\"diff\":\"d\"}");
        assertThat(slow.statusCode()).isEqualTo(504);
        assertThat(slow.body()).contains("no answer from the job within 500 ms");
        HttpResponse<String> leak = post("/v1/suggestions", KEY_A, "{\"repo\":\"other/repo\",\"diff\":\"d\"}");
        assertThat(leak.statusCode()).as("another tenant's reply is never shown").isEqualTo(502);
        assertThat(leak.body()).doesNotContain("B's secret");
        assertThat(asked).doesNotContain("b r").contains("a team/app", "b team/app");

        String big = "{\"repo\":\"r\",\"diff\":\"" + "x".repeat(70 * 1024) + "\"}";
        assertThat(post("/v1/suggestions", KEY_A, big).statusCode()).isEqualTo(413);
        assertThat(send(HttpRequest.newBuilder(base.resolve("/v1/suggestions")).GET()).statusCode()).isEqualTo(405);
        assertThat(send(HttpRequest.newBuilder(base.resolve("/v2/other")).GET()).statusCode()).isEqualTo(404);
        HttpResponse<String> health = send(HttpRequest.newBuilder(base.resolve("/healthz")).GET());
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"ok\"");

        String scrape = send(HttpRequest.newBuilder(base.resolve("/metrics")).GET()).body();
        assertThat(scrape).contains("commitflow_gateway_requests_total{route=\"/v1/suggestions\",status=\"200\"} 2")
                .contains("commitflow_gateway_requests_total{route=\"/v1/suggestions\",status=\"401\"} 2")
                .contains("commitflow_gateway_requests_total{route=\"other\",status=\"404\"} 1")
                .contains("commitflow_gateway_request_duration_seconds_bucket{route=\"/v1/suggestions\",le=\"0.005\"}")
                .contains("commitflow_gateway_produced_total{kind=\"draft\"}");
    }

    @Test
    void eachServersDocumentedPushIsPublishedAndABadSignatureOrPayloadIsNot() throws Exception {
        start(64 * 1024, new RateLimiter(100, 100));
        for (GitServer s : GitServer.values()) {
            byte[] body = sample(s);
            HttpResponse<String> r = webhook(s, body, WebhookSecrets.sign(s, SECRET_A, body), null);
            assertThat(r.statusCode()).as(s + ": " + r.body()).isEqualTo(202);
            assertThat(r.body()).contains("\"tenant\":\"a\"");
        }
        assertThat(published).extracting(PushEvent::repo)
                .containsExactly("mike/diaspora", "gitea/webhooks", "Codertocat/Hello-World");
        assertThat(published).extracting(PushEvent::tenant).containsOnly("a");
        assertThat(published.get(2).after()).isEqualTo(PushEvent.ZERO_SHA1);
        assertThat(published.get(0).pusher()).isEqualTo("jsmith");

        byte[] gitea = sample(GitServer.GITEA);
        assertThat(webhook(GitServer.GITEA, gitea, WebhookSecrets.sign(GitServer.GITEA, "wrong-secret-0000000", gitea), null)
                .statusCode()).isEqualTo(401);
        assertThat(webhook(GitServer.GITEA, gitea, null, null).statusCode()).isEqualTo(401);
        assertThat(webhook(GitServer.GITLAB, sample(GitServer.GITLAB), "wrong-token-000000000", null).statusCode()).isEqualTo(401);
        byte[] claimsB = new String(gitea, java.nio.charset.StandardCharsets.UTF_8).replaceFirst("\\{", "{\"tenant\":\"b\",")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        HttpResponse<String> wrongTenant = webhook(GitServer.GITEA, claimsB, WebhookSecrets.sign(GitServer.GITEA, SECRET_A, claimsB), null);
        assertThat(wrongTenant.statusCode()).isEqualTo(400);
        assertThat(wrongTenant.body()).contains("WRONG_TENANT");
        byte[] noRef = "{\"before\":\"a\",\"after\":\"b\",\"repository\":{\"full_name\":\"x/y\"}}".getBytes();
        HttpResponse<String> malformed = webhook(GitServer.GITHUB, noRef, WebhookSecrets.sign(GitServer.GITHUB, SECRET_A, noRef), null);
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(malformed.body()).contains("MISSING_FIELD");
        byte[] gitlab = sample(GitServer.GITLAB);
        assertThat(webhook(GitServer.GITHUB, gitlab, WebhookSecrets.sign(GitServer.GITHUB, SECRET_A, gitlab), null).body())
                .contains("not a GitHub push payload");
        byte[] notJson = "{oops".getBytes();
        assertThat(webhook(GitServer.GITEA, notJson, WebhookSecrets.sign(GitServer.GITEA, SECRET_A, notJson), null).body())
                .contains("NOT_JSON");
        assertThat(published).as("nothing refused was published").hasSize(3);

        byte[] ping = "{\"zen\":\"Keep it logically awesome.\",\"hook_id\":1}".getBytes();
        HttpResponse<String> pong = webhook(GitServer.GITHUB, ping, WebhookSecrets.sign(GitServer.GITHUB, SECRET_A, ping), "ping");
        assertThat(pong.statusCode()).isEqualTo(200);
        assertThat(webhook(GitServer.GITLAB, gitlab, SECRET_A, "Merge Request Hook").statusCode()).isEqualTo(202);
        assertThat(published).as("a ping and a merge request are no pushes").hasSize(3);
        assertThat(metrics.count("/v1/webhooks/gitea", 401)).isEqualTo(2);
    }

    @Test
    void aDiffBodyAskingForTextGetsTheMessageAloneAndErrorsAsOneLine() throws Exception {
        start(64 * 1024, new RateLimiter(100, 100));
        String diff = "diff --git a/x b/x\n+é\n";
        HttpResponse<String> ok = text("/v1/suggestions?repo=team%2Fapp&branch=main", KEY_A, diff);
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(ok.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        assertThat(ok.body()).as("the diff arrives whole, in UTF-8")
                .isEqualTo("Describe " + diff.length() + " characters\n");
        assertThat(asked).contains("a team/app");
        assertThat(text("/v1/suggestions?repo=bodied/repo", KEY_A, diff).body())
                .isEqualTo("Widget: Retry twice\n\nOnce was not enough.\n");

        assertThat(text("/v1/suggestions?repo=choices/repo&candidates=2&comment=%3B", KEY_A, diff).body()).isEqualTo(
                "Retry twice\n\n; Other subjects commitflow could give:\n;   Retry the write\n;   Widget: Retry\n");
        assertThat(text("/v1/suggestions?repo=choices/repo", KEY_A, diff).body()).as("none unless asked for")
                .isEqualTo("Retry twice\n");
        assertThat(text("/v1/suggestions?repo=r&candidates=9", KEY_A, diff).body()).contains("?candidates= takes 0 to 5");
        assertThat(text("/v1/suggestions?repo=r&comment=ab", KEY_A, diff).body()).contains("?comment= takes");

        assertThat(text("/v1/suggestions?repo=broken/repo", KEY_A, diff).body()).as("an error without a message")
                .isEqualTo("unavailable: java.lang.NullPointerException\n");
        assertThat(text("/v1/suggestions?repo=%C3%28", KEY_A, diff).statusCode()).isEqualTo(400);
        assertThat(post("/v1/suggestions?repo=%C3%28", KEY_A, "{\"repo\":\"team/app\",\"diff\":\"d\"}").statusCode())
                .as("a JSON body's request is not failed by its query").isEqualTo(200);

        HttpResponse<String> noRepo = text("/v1/suggestions", KEY_A, diff);
        assertThat(noRepo.statusCode()).isEqualTo(400);
        assertThat(noRepo.body()).isEqualTo("bad_request: ?repo= is missing: a diff body names its repository in the query\n");
        assertThat(text("/v1/suggestions?repo=r&tenant=b", KEY_A, diff).body()).contains("the tenant is the API key's");
        assertThat(text("/v1/suggestions?repo=r", KEY_A, " \n").body()).contains("the diff is empty");
        assertThat(text("/v1/suggestions?repo=refused/repo", KEY_A, diff).body())
                .matches("refused: DIFF_TOO_LARGE: too large \\(trace [0-9a-f]{32}\\)\n");
        assertThat(text("/v1/suggestions?repo=slow/repo", KEY_A, diff).body()).startsWith("timeout: no answer");
        assertThat(text("/v1/suggestions?repo=r", KEY_A + "x", diff).body()).isEqualTo("unauthorized: unknown API key\n");
        HttpResponse<String> binary = send(HttpRequest.newBuilder(base.resolve("/v1/suggestions?repo=r"))
                .header("Content-Type", "text/x-diff").header("Accept", "text/plain").header("Authorization", "Bearer " + KEY_A)
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {(byte) 0xff, (byte) 0xfe})));
        assertThat(binary.body()).isEqualTo("bad_request: the diff is not UTF-8 text\n");
        assertThat(post("/v1/suggestions?repo=r", KEY_A, "{\"repo\":\"team/app\",\"diff\":\"d\"}").body())
                .as("a JSON body is read as JSON whatever the query").contains("\"repo\":\"team/app\"");
    }

    @Test
    void acceptPutsPlainTextFirstOnlyWhenItsFirstRangeIsTextPlain() {
        assertThat(GatewayServer.prefersText("text/plain")).isTrue();
        assertThat(GatewayServer.prefersText("Text/Plain; charset=utf-8, application/json")).isTrue();
        assertThat(GatewayServer.prefersText("application/json, text/plain")).isFalse();
        assertThat(GatewayServer.prefersText("*/*")).isFalse();
        assertThat(GatewayServer.prefersText(null)).isFalse();
    }

    @Test
    void aKeyOverItsRateGets429WithRetryAfterAndAnotherKeyDoesNot() throws Exception {
        start(64 * 1024, new RateLimiter(0.5, 2));
        String body = "{\"repo\":\"team/app\",\"diff\":\"d\"}";
        assertThat(post("/v1/suggestions", KEY_A, body).statusCode()).isEqualTo(200);
        assertThat(post("/v1/suggestions", KEY_A, body).statusCode()).isEqualTo(200);
        HttpResponse<String> limited = post("/v1/suggestions", KEY_A, body);
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("Retry-After")).hasValueSatisfying(v ->
                assertThat(Integer.parseInt(v)).isBetween(1, 2));
        assertThat(post("/v1/suggestions", KEY_B, body).statusCode()).isEqualTo(200);
        assertThat(post("/v1/suggestions", "not-a-key-at-all-0000", body).statusCode()).as("401 before any bucket").isEqualTo(401);
    }

    @Test
    void closingLetsARequestInFlightFinish() throws Exception {
        start(64 * 1024, new RateLimiter(100, 100));
        CompletableFuture<HttpResponse<String>> slow = http.sendAsync(HttpRequest.newBuilder(base.resolve("/v1/suggestions"))
                .header("Authorization", "Bearer " + KEY_A)
                .POST(HttpRequest.BodyPublishers.ofString("{\"repo\":\"slow/repo\",\"diff\":\"d\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (asked.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        server.close();
        assertThat(slow.get(10, TimeUnit.SECONDS).statusCode()).as("answered (504 after 500 ms), not cut off").isEqualTo(504);
        server = null;
    }

    static byte[] sample(GitServer s) throws IOException {
        try (InputStream in = GatewayServerTest.class.getResourceAsStream("/webhooks/" + s.id() + "-push.json")) {
            return in.readAllBytes();
        }
    }

    private HttpResponse<String> webhook(GitServer s, byte[] body, String proof, String event) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve("/v1/webhooks/" + s.id()))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (proof != null) {
            b.header(s.proofHeader(), proof);
        }
        if (event != null) {
            b.header(s.eventHeader(), event);
        }
        return send(b);
    }

    private HttpResponse<String> post(String path, String key, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        return send(b);
    }

    private HttpResponse<String> text(String path, String key, String diff) throws Exception {
        return send(HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "text/x-diff; charset=utf-8")
                .header("Accept", "text/plain").header("Authorization", "Bearer " + key)
                .POST(HttpRequest.BodyPublishers.ofString(diff, java.nio.charset.StandardCharsets.UTF_8)));
    }

    private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
