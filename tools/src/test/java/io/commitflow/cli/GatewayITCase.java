package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.commitflow.event.Json;
import io.commitflow.gateway.GatewayServer;
import io.commitflow.gateway.GitServer;
import io.commitflow.gateway.WebhookSecrets;
import io.commitflow.job.CommitMessageJob;
import io.commitflow.job.KafkaIO;
import io.commitflow.job.KafkaSettings;
import io.commitflow.job.PipelineSettings;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code commitflow gateway} over HTTPS in front of the running job (MiniCluster, a real KRaft broker), with real
 * clients: Java's HttpClient, and curl where it is installed. A draft gets the job's suggestion, tenant A's key never
 * gets tenant B's reply, each Git server's documented push payload lands on the events topic (and a push of a commit
 * the job has not seen becomes its suggestion), and a wrong key, a wrong signature and an oversized body are refused
 * with nothing sent to Kafka.
 */
class GatewayITCase {
    private static final String KEY_A = "itcase-key-of-tenant-a-0001";
    private static final String KEY_B = "itcase-key-of-tenant-b-0001";
    private static final String SECRET_A = "itcase-webhook-secret-of-a";
    private static final String PASSWORD = "itcase-store";
    private static final int HISTORY = 12;
    private static final int MAX_BODY = 64 * 1024;

    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(1);

    @TempDir
    static Path dir;

    private static KafkaSettings k;
    private static List<RevCommit> history;
    private static JobClient job;
    private static GatewayCommand gateway;
    private static Thread service;
    private static final StringWriter gatewayOut = new StringWriter();
    private static final int[] exit = {-1};
    private static HttpClient http;
    private static URI base;
    private static Path caPem;

    @BeforeAll
    static void startTheJobAndTheGateway() throws Exception {
        Path mirrors = Files.createDirectories(dir.resolve("mirrors"));
        history = GitHistory.create(mirrors, "app.git", HISTORY);
        k = KafkaSettings.defaults(KAFKA.bootstrap());
        for (String topic : List.of(k.eventsTopic(), k.suggestionsTopic(), k.deadLetterTopic(), k.slaTopic(),
                k.repliesTopic(), k.requestsTopic())) {
            KAFKA.createTopic(topic, topic.equals(k.eventsTopic()) ? 2 : 1);
        }
        // the job learns all but the last commit; a webhook's push brings that one
        KAFKA.produce(k.eventsTopic(), "app.git".getBytes(StandardCharsets.UTF_8),
                GitHistory.commitEvents("app.git", history.subList(0, HISTORY - 1)));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
                MiniClusters.job(Duration.ofSeconds(1), Files.createDirectories(dir.resolve("checkpoints"))));
        env.setParallelism(1);
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).build(), KafkaIO.suggestionSink(k),
                KafkaIO.deadLetterSink(k), KafkaIO.slaSink(k), CommitMessageJob.Interactive.of(k),
                PipelineSettings.defaults(mirrors.toString()));
        job = env.executeAsync("commitflow-gateway-itcase");

        Path keystore = dir.resolve("gateway.p12");
        caPem = dir.resolve("gateway.pem");
        keytool("-genkeypair", "-alias", "gateway", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-keystore", keystore.toString(),
                "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "gateway", "-keystore", keystore.toString(), "-storepass", PASSWORD,
                "-file", caPem.toString());
        Path keys = Files.writeString(dir.resolve("api-keys"), "# tenant:key\na:" + KEY_A + "\nb:" + KEY_B + "\n");
        Path secrets = Files.writeString(dir.resolve("webhook-secrets"),
                "a:gitlab:" + SECRET_A + "\na:gitea:" + SECRET_A + "\na:github:" + SECRET_A + "\n");

        gateway = new GatewayCommand();
        gateway.env = Map.of("GATEWAY_STORE_PASSWORD", PASSWORD)::get;
        CommandLine cli = Commitflow.configure(new CommandLine(gateway));
        cli.setOut(new PrintWriter(gatewayOut, true));
        cli.setErr(new PrintWriter(gatewayOut, true));
        service = new Thread(() -> exit[0] = cli.execute("--bootstrap", KAFKA.bootstrap(), "--host", "127.0.0.1",
                "--port", "0", "--api-keys", keys.toString(), "--webhook-secrets", secrets.toString(),
                "--tls-keystore", keystore.toString(), "--tls-password-env", "GATEWAY_STORE_PASSWORD",
                "--reply-timeout", "90s", "--max-body-bytes", Integer.toString(MAX_BODY), "--rate", "50",
                "--burst", "50", "--shutdown-grace", "5s"), "gateway");
        service.start();
        int port = gateway.awaitPort(Duration.ofSeconds(60));
        base = URI.create("https://localhost:" + port);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            trust.load(in, PASSWORD.toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        http = HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(10)).build();

        // the history is learned before the first draft asks
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (KAFKA.readCommitted(k.suggestionsTopic()).size() < HISTORY - 1) {
            assertThat(System.nanoTime()).as("the job answered the history within 120 s").isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    @AfterAll
    static void stopTheGatewayAndTheJob() throws Exception {
        if (gateway != null) {
            gateway.stop();
            service.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(exit[0]).as(gatewayOut.toString()).isZero();
            assertThat(gatewayOut.toString()).contains("stopped");
        }
        if (job != null) {
            job.cancel().get(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void aDraftGetsTheJobsSuggestionOverHttpsFromJavaAndFromCurl() throws Exception {
        HttpResponse<String> r = suggest(KEY_A, draft("app.git", 3, 33));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode s = Json.mapper().readTree(r.body());
        String trace = r.headers().firstValue(GatewayServer.TRACE_HEADER).orElseThrow();
        assertThat(s.path("traceId").asText()).isEqualTo(trace);
        assertThat(s.path("tenant").asText()).isEqualTo("a");
        assertThat(s.path("subject").asText()).hasSizeBetween(10, 72);
        assertThat(s.path("exemplars")).as("answered from the repository's history").isNotEmpty();
        assertThat(await(k.repliesTopic(), rec -> trace.equals(json(rec).path("traceId").asText())))
                .as("the job's own reply, as on its replies topic").isNotNull();

        if (InstallHookCommand.onPath("curl")) {
            Path body = Files.writeString(dir.resolve("draft.json"), draft("app.git", 4, 44));
            Curl c = curl("-H", "Authorization: Bearer " + KEY_A, "-H", "Content-Type: application/json",
                    "--data-binary", "@" + body, base.resolve(GatewayServer.SUGGESTIONS).toString());
            assertThat(c.status()).as(c.body()).isEqualTo(200);
            assertThat(Json.mapper().readTree(c.body()).path("subject").asText()).isNotBlank();
            assertThat(curl("-H", "Authorization: Bearer " + KEY_A + "-wrong", "--data-binary", "@" + body,
                    base.resolve(GatewayServer.SUGGESTIONS).toString()).status()).isEqualTo(401);
        }
    }

    /**
     * The hook as a developer meets it: {@code install-hook --url} over a team's own hook in {@code core.hooksPath},
     * then a plain {@code git commit} whose hook asks the gateway with curl. The subject is the job's reply to that
     * draft, the team's hook still ran, the lock file named in {@code .commitflowignore} never left the laptop, and
     * the key is stored readable by its owner alone. With a revoked key the commit goes through with one line.
     */
    @Test
    void aGitCommitsHookAsksTheGatewayWithCurlAndTheTeamsOwnHookStillRuns() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(InstallHookCommand.onPath("curl"), "the hook needs curl, which is not on PATH");
        Path work = GitProcess.cloneOf(dir.resolve("mirrors/app.git"), dir.resolve("hooked"));
        Path shared = Files.createDirectories(dir.resolve("team-hooks"));
        Path teams = shared.resolve("prepare-commit-msg");
        Files.writeString(teams, "#!/bin/sh\nprintf '\\nReviewed-by: the team hook\\n' >> \"$1\"\n");
        Files.setPosixFilePermissions(teams, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        GitProcess.run(work, "config", "core.hooksPath", shared.toString());
        Path keyFile = Files.writeString(dir.resolve("a.key"), KEY_A + "\n");

        String[] install = {"install-hook", "-C", work.toString(), "--url", base.toString(), "--key-file",
                keyFile.toString(), "--ca-file", caPem.toString(), "--repo", "app.git", "--timeout", "90s"};
        CliRun refused = CliRun.of(install);
        assertThat(refused.exit()).isNotZero();
        assertThat(refused.err()).contains("is not commitflow's; pass --force");
        CliRun installed = CliRun.of(java.util.stream.Stream.concat(java.util.Arrays.stream(install),
                java.util.stream.Stream.of("--force")).toArray(String[]::new));
        assertThat(installed.exit()).as(installed.err()).isZero();
        assertThat(installed.out()).contains("the hook that was there before runs first");
        assertThat(shared.resolve("prepare-commit-msg.before-commitflow")).isExecutable();
        Path stored = Path.of(GitProcess.run(work, "config", "commitflow.keyFile").out().strip());
        assertThat(Files.readString(stored).strip()).isEqualTo(KEY_A);
        assertThat(Files.getPosixFilePermissions(stored)).containsExactlyInAnyOrder(
                java.nio.file.attribute.PosixFilePermission.OWNER_READ, java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
        assertThat(GitProcess.run(work, "config", "--list").out()).doesNotContain(KEY_A);

        Files.writeString(work.resolve("src/main/java/app/Widget3.java"), "package app;\n\nclass Widget3 {\n    int version = 37;\n}\n");
        Files.writeString(work.resolve("package-lock.json"), "{\"lockfileVersion\": 3, \"secret-of-the-lock\": 1}\n");
        Files.writeString(work.resolve(".commitflowignore"), "# generated\npackage-lock.json\n");
        GitProcess.run(work, "add", "-A");
        Path seen = dir.resolve("editor-saw.txt");
        Path keep = Files.writeString(dir.resolve("keep.sh"), "#!/bin/sh\ncp \"$1\" '" + seen + "'\n");
        Files.setPosixFilePermissions(keep, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        GitProcess commit = GitProcess.run(work, Map.of("GIT_EDITOR", keep.toString()), "commit", "-q");
        assertThat(commit.exit()).as(commit.out() + commit.err()).isZero();
        String message = GitProcess.run(work, "log", "-1", "--format=%B").out();
        assertThat(Files.readString(seen)).as("the editor shows the other subjects as comments")
                .contains("\n# Other subjects commitflow could give:\n#   ");
        assertThat(message).as("which git strips").doesNotContain("Other subjects");
        String subject = message.lines().findFirst().orElseThrow();

        ConsumerRecord<byte[], byte[]> draft = await(k.requestsTopic(),
                r -> json(r).path("patch").asText().contains("int version = 37;"));
        assertThat(json(draft).path("tenant").asText()).as("the key's tenant").isEqualTo("a");
        assertThat(json(draft).path("repo").asText()).isEqualTo("app.git");
        assertThat(json(draft).path("patch").asText()).as("left out by .commitflowignore")
                .doesNotContain("secret-of-the-lock").contains(".commitflowignore");
        String trace = json(draft).path("traceId").asText();
        JsonNode reply = json(await(k.repliesTopic(), r -> trace.equals(json(r).path("traceId").asText())));
        assertThat(subject).as("the commit's subject is the job's reply to the hook's draft")
                .isEqualTo(reply.path("subject").asText()).hasSizeBetween(10, 72);
        assertThat(message).as("the team's hook ran too").contains("Reviewed-by: the team hook");

        Files.writeString(work.resolve("revoked.key"), "itcase-key-revoked-000001\n");
        assertThat(CliRun.of("install-hook", "-C", work.toString(), "--key-file", work.resolve("revoked.key").toString())
                .exit()).isZero();
        Files.writeString(work.resolve("NOTES"), "notes\n");
        GitProcess.run(work, "add", "NOTES");
        Path editor = Files.writeString(dir.resolve("by-hand.sh"), "#!/bin/sh\nsed -i '1s/^$/Add notes by hand/' \"$1\"\n");
        Files.setPosixFilePermissions(editor, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        GitProcess byHand = GitProcess.run(work, Map.of("GIT_EDITOR", editor.toString()), "commit", "-q");
        assertThat(byHand.exit()).as(byHand.err()).isZero();
        assertThat(GitProcess.run(work, "log", "-1", "--format=%s").out().strip()).isEqualTo("Add notes by hand");
        assertThat(byHand.err().lines().filter(l -> !l.isBlank()).toList()).containsExactly(
                "commitflow: no suggestion (the gateway answered 401: unauthorized: unknown API key); write the "
                        + "message yourself");

        assertThat(CliRun.of("install-hook", "-C", work.toString(), "--remove").exit()).isZero();
        assertThat(Files.readString(teams)).as("the team's hook is put back").contains("Reviewed-by");
        assertThat(stored).doesNotExist();
    }

    @Test
    void tenantAsKeyNeverGetsTenantBsReply() throws Exception {
        CompletableFuture<HttpResponse<String>> a = suggestAsync(KEY_A, draft("app.git", 5, 55));
        CompletableFuture<HttpResponse<String>> b = suggestAsync(KEY_B, draft("app.git", 5, 55));
        HttpResponse<String> ra = a.get(120, TimeUnit.SECONDS);
        HttpResponse<String> rb = b.get(120, TimeUnit.SECONDS);
        assertThat(ra.statusCode()).as(ra.body()).isEqualTo(200);
        assertThat(rb.statusCode()).as(rb.body()).isEqualTo(200);
        JsonNode sa = Json.mapper().readTree(ra.body());
        JsonNode sb = Json.mapper().readTree(rb.body());
        assertThat(sa.path("tenant").asText()).isEqualTo("a");
        assertThat(sb.path("tenant").asText()).isEqualTo("b");
        assertThat(sa.path("traceId").asText()).isNotEqualTo(sb.path("traceId").asText());
        String bTrace = sb.path("traceId").asText();
        JsonNode bOnKafka = json(await(k.repliesTopic(), rec -> bTrace.equals(json(rec).path("traceId").asText())));
        assertThat(bOnKafka.path("tenant").asText()).isEqualTo("b");
        assertThat(ra.body()).doesNotContain(bTrace);

        HttpResponse<String> claim = suggest(KEY_A, "{\"tenant\":\"b\",\"repo\":\"app.git\",\"diff\":\"diff --git a/x b/x\\n\"}");
        assertThat(claim.statusCode()).as("the tenant is the key's, never the body's").isEqualTo(400);
    }

    @Test
    void eachServersPushLandsOnTheEventsTopicAndAForgedOneDoesNot() throws Exception {
        // forged first: signed with a secret that is no tenant's, and a token that is none
        for (GitServer s : GitServer.values()) {
            byte[] forged = withRepo(sample(s), s, "forged/" + s.id());
            HttpResponse<String> r = webhook(s, forged, WebhookSecrets.sign(s, "not-a-tenants-secret-000", forged));
            assertThat(r.statusCode()).as(s + ": " + r.body()).isEqualTo(401);
        }
        List<String> traces = new ArrayList<>();
        for (GitServer s : GitServer.values()) {
            byte[] body = sample(s);
            HttpResponse<String> r = webhook(s, body, WebhookSecrets.sign(s, SECRET_A, body));
            assertThat(r.statusCode()).as(s + ": " + r.body()).isEqualTo(202);
            traces.add(r.headers().firstValue(GatewayServer.TRACE_HEADER).orElseThrow());
        }
        List<String> repos = List.of("mike/diaspora", "gitea/webhooks", "Codertocat/Hello-World");
        for (int i = 0; i < repos.size(); i++) {
            String repo = repos.get(i);
            String trace = traces.get(i);
            ConsumerRecord<byte[], byte[]> rec = await(k.eventsTopic(), r -> repo.equals(json(r).path("repo").asText()));
            JsonNode e = json(rec);
            assertThat(e.path("type").asText()).isEqualTo("push");
            assertThat(e.path("tenant").asText()).as("the secret's tenant").isEqualTo("a");
            assertThat(new String(rec.key(), StandardCharsets.UTF_8)).as("keyed by repository, as push-event does").isEqualTo(repo);
            assertThat(new String(rec.headers().lastHeader("traceparent").value(), StandardCharsets.US_ASCII))
                    .startsWith("00-" + trace + "-");
        }
        if (InstallHookCommand.onPath("curl")) {
            Path gitlab = Files.write(dir.resolve("gitlab.json"), withRepo(sample(GitServer.GITLAB), GitServer.GITLAB, "mike/by-curl"));
            Curl c = curl("-H", "X-Gitlab-Token: " + SECRET_A, "-H", "X-Gitlab-Event: Push Hook", "-H",
                    "Content-Type: application/json", "--data-binary", "@" + gitlab,
                    base.resolve(GatewayServer.WEBHOOKS + "gitlab").toString());
            assertThat(c.status()).as(c.body()).isEqualTo(202);
            assertThat(await(k.eventsTopic(), r -> "mike/by-curl".equals(json(r).path("repo").asText()))).isNotNull();
            assertThat(curl("-H", "X-Gitlab-Token: not-the-token-of-anyone", "--data-binary", "@" + gitlab,
                    base.resolve(GatewayServer.WEBHOOKS + "gitlab").toString()).status()).isEqualTo(401);
        }
        assertThat(KAFKA.readCommitted(k.eventsTopic())).as("nothing forged was produced")
                .noneMatch(r -> json(r).path("repo").asText().startsWith("forged/"));

        byte[] big = ("{\"pad\":\"" + "x".repeat(MAX_BODY) + "\"}").getBytes(StandardCharsets.UTF_8);
        assertThat(webhook(GitServer.GITHUB, big, WebhookSecrets.sign(GitServer.GITHUB, SECRET_A, big)).statusCode())
                .isEqualTo(413);
        assertThat(suggest(KEY_A, "{\"repo\":\"app.git\",\"diff\":\"" + "x".repeat(MAX_BODY) + "\"}").statusCode())
                .isEqualTo(413);
        assertThat(suggest("itcase-key-of-nobody-000001", draft("app.git", 3, 1)).statusCode()).isEqualTo(401);
    }

    @Test
    void aGithubPushOfACommitTheJobHasNotSeenBecomesItsSuggestion() throws Exception {
        RevCommit last = history.get(HISTORY - 1);
        ObjectNode push = (ObjectNode) Json.mapper().readTree(sample(GitServer.GITHUB));
        push.put("ref", "refs/heads/main");
        push.put("before", history.get(HISTORY - 2).name());
        push.put("after", last.name());
        ((ObjectNode) push.get("repository")).put("full_name", "app.git");
        byte[] body = Json.bytes(push);
        HttpResponse<String> r = webhook(GitServer.GITHUB, body, WebhookSecrets.sign(GitServer.GITHUB, SECRET_A, body));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        JsonNode s = json(await(k.suggestionsTopic(), rec -> last.name().equals(json(rec).path("sha").asText())));
        assertThat(s.path("tenant").asText()).isEqualTo("a");
        assertThat(s.path("subject").asText()).isNotBlank();

        HttpResponse<String> health = http.send(HttpRequest.newBuilder(base.resolve(GatewayServer.HEALTH)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        String metrics = http.send(HttpRequest.newBuilder(base.resolve(GatewayServer.METRICS)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(metrics).contains("commitflow_gateway_requests_total{route=\"/v1/webhooks/github\",status=\"202\"}")
                .contains("commitflow_gateway_request_duration_seconds_count{route=\"/v1/webhooks/github\"}");
    }

    @Test
    void withTopicsPerTenantEachKeyUsesItsTenantsTopicsAlone() throws Exception {
        for (String t : List.of("a", "b")) {
            for (String topic : List.of("it.requests.", "it.replies.", "it.dlq.", "it.events.")) {
                KAFKA.createTopic(topic + t, 1);
            }
        }
        GatewayCommand perTenant = new GatewayCommand();
        StringWriter out = new StringWriter();
        CommandLine cli = Commitflow.configure(new CommandLine(perTenant));
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(out, true));
        Path keys = Files.writeString(dir.resolve("api-keys-2"), "a:" + KEY_A + "\nb:" + KEY_B + "\n");
        Path secrets = Files.writeString(dir.resolve("webhook-secrets-2"), "a:gitea:" + SECRET_A + "\n");
        int[] code = {-1};
        Thread t = new Thread(() -> code[0] = cli.execute("--bootstrap", KAFKA.bootstrap(), "--host", "127.0.0.1",
                "--port", "0", "--api-keys", keys.toString(), "--webhook-secrets", secrets.toString(),
                "--requests-topic", "it.requests.{tenant}", "--replies-topic", "it.replies.{tenant}",
                "--dlq-topic", "it.dlq.{tenant}", "--events-topic", "it.events.{tenant}", "--reply-timeout", "20s"),
                "gateway-per-tenant");
        t.start();
        URI plain = URI.create("http://127.0.0.1:" + perTenant.awaitPort(Duration.ofSeconds(60)));
        try {
            HttpClient client = HttpClient.newHttpClient();
            CompletableFuture<HttpResponse<String>> b = client.sendAsync(HttpRequest.newBuilder(
                            plain.resolve(GatewayServer.SUGGESTIONS)).header("Authorization", "Bearer " + KEY_B)
                    .POST(HttpRequest.BodyPublishers.ofString(draft("app.git", 2, 22))).build(), HttpResponse.BodyHandlers.ofString());
            CompletableFuture<HttpResponse<String>> a = client.sendAsync(HttpRequest.newBuilder(
                            plain.resolve(GatewayServer.SUGGESTIONS)).header("Authorization", "Bearer " + KEY_A)
                    .POST(HttpRequest.BodyPublishers.ofString(draft("app.git", 2, 23))).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode bDraft = json(await("it.requests.b", r -> true));
            JsonNode aDraft = json(await("it.requests.a", r -> true));
            assertThat(bDraft.path("tenant").asText()).isEqualTo("b");
            assertThat(aDraft.path("tenant").asText()).isEqualTo("a");
            // the job's answers, played here: B's on B's replies topic, and one for A's draft on B's topic too
            ObjectNode bReply = Json.mapper().createObjectNode().put("tenant", "b").put("subject", "Bump Widget2 for b")
                    .put("traceId", bDraft.path("traceId").asText());
            ObjectNode misplaced = Json.mapper().createObjectNode().put("tenant", "b").put("subject", "B's, not A's")
                    .put("traceId", aDraft.path("traceId").asText());
            KAFKA.produce("it.replies.b", null, List.of(Json.bytes(misplaced), Json.bytes(bReply)));
            HttpResponse<String> rb = b.get(60, TimeUnit.SECONDS);
            assertThat(rb.statusCode()).as(rb.body()).isEqualTo(200);
            assertThat(rb.body()).contains("Bump Widget2 for b");
            HttpResponse<String> ra = a.get(60, TimeUnit.SECONDS);
            assertThat(ra.statusCode()).as("A reads A's replies topic alone: " + ra.body()).isEqualTo(504);
            assertThat(ra.body()).doesNotContain("B's, not A's");

            byte[] gitea = sample(GitServer.GITEA);
            HttpResponse<String> w = client.send(HttpRequest.newBuilder(plain.resolve(GatewayServer.WEBHOOKS + "gitea"))
                    .header(GitServer.GITEA.proofHeader(), WebhookSecrets.sign(GitServer.GITEA, SECRET_A, gitea))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(gitea)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(w.statusCode()).as(w.body()).isEqualTo(202);
            assertThat(json(await("it.events.a", r -> true)).path("repo").asText()).isEqualTo("gitea/webhooks");
            assertThat(KAFKA.readCommitted("it.events.b")).isEmpty();
        } finally {
            perTenant.stop();
            t.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertThat(code[0]).as(out.toString()).isZero();
    }

    /** A staged change of one Widget class, as git diff --cached writes it. */
    private static String draft(String repo, int widget, int version) {
        String patch = "diff --git a/src/main/java/app/Widget" + widget + ".java b/src/main/java/app/Widget" + widget + ".java\n"
                + "--- a/src/main/java/app/Widget" + widget + ".java\n+++ b/src/main/java/app/Widget" + widget + ".java\n"
                + "@@ -1,4 +1,4 @@\n package app;\n \n class Widget" + widget + " {\n-    int version = " + widget + ";\n"
                + "+    int version = " + version + ";\n";
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("repo", repo);
        n.put("diff", patch);
        n.put("author", "Ada <ada@example.com>");
        n.put("branch", "main");
        return Json.string(n);
    }

    private static HttpResponse<String> suggest(String key, String body) throws Exception {
        return suggestAsync(key, body).get(120, TimeUnit.SECONDS);
    }

    private static CompletableFuture<HttpResponse<String>> suggestAsync(String key, String body) {
        return http.sendAsync(HttpRequest.newBuilder(base.resolve(GatewayServer.SUGGESTIONS))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> webhook(GitServer s, byte[] body, String proof) throws Exception {
        return http.send(HttpRequest.newBuilder(base.resolve(GatewayServer.WEBHOOKS + s.id()))
                .header("Content-Type", "application/json").header(s.proofHeader(), proof)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] sample(GitServer s) throws Exception {
        try (InputStream in = GatewayITCase.class.getResourceAsStream("/webhooks/" + s.id() + "-push.json")) {
            return in.readAllBytes();
        }
    }

    private static byte[] withRepo(byte[] payload, GitServer s, String repo) throws Exception {
        ObjectNode n = (ObjectNode) Json.mapper().readTree(payload);
        ((ObjectNode) n.get(s == GitServer.GITLAB ? "project" : "repository"))
                .put(s == GitServer.GITLAB ? "path_with_namespace" : "full_name", repo);
        return Json.bytes(n);
    }

    private static ConsumerRecord<byte[], byte[]> await(String topic, Predicate<ConsumerRecord<byte[], byte[]>> which)
            throws InterruptedException {
        return KafkaRecords.await(KAFKA, topic, which, Duration.ofSeconds(90));
    }

    private static JsonNode json(ConsumerRecord<byte[], byte[]> r) {
        return KafkaRecords.json(r);
    }

    private static void keytool(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as("keytool: " + out).isTrue();
    }

    record CliRun(int exit, String out, String err) {
        static CliRun of(String... args) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine cli = Commitflow.commandLine();
            cli.setOut(new PrintWriter(out, true));
            cli.setErr(new PrintWriter(err, true));
            int exit = cli.execute(args);
            return new CliRun(exit, out.toString(), err.toString());
        }
    }

    record Curl(int status, String body) {}

    /** curl against the gateway, trusting its certificate; the status from -w. */
    private static Curl curl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--max-time", "120", "--cacert", caPem.toString(),
                "-w", "\n%{http_code}"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(150, TimeUnit.SECONDS)).isTrue();
        int nl = out.lastIndexOf('\n');
        assertThat(nl).as("curl: " + out).isGreaterThanOrEqualTo(0);
        return new Curl(Integer.parseInt(out.substring(nl + 1).strip()), out.substring(0, nl));
    }
}
