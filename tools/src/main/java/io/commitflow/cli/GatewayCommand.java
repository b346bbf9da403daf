package io.commitflow.cli;

import io.commitflow.event.EventParser;
import io.commitflow.event.PushEvent;
import io.commitflow.event.Tenants;
import io.commitflow.event.WireFormat;
import io.commitflow.gateway.ApiKeys;
import io.commitflow.gateway.GatewayMetrics;
import io.commitflow.gateway.GatewayServer;
import io.commitflow.gateway.GitServer;
import io.commitflow.gateway.RateLimiter;
import io.commitflow.gateway.TlsKeys;
import io.commitflow.gateway.WebhookSecrets;
import io.commitflow.job.BootstrapOption;
import io.commitflow.job.DurationConverter;
import io.commitflow.job.KafkaPropertiesOption;
import io.commitflow.job.KafkaSettings;
import org.apache.kafka.clients.producer.KafkaProducer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * {@code commitflow gateway}: the job behind HTTP, for hooks and Git servers that cannot reach Kafka. See
 * {@link GatewayServer} for the endpoints.
 */
@Command(name = "gateway", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Serves the job over HTTP(S). POST /v1/suggestions (Authorization: Bearer API_KEY) takes "
                + "{\"repo\", \"diff\"} and answers with the job's suggestion for the key's tenant, as "
                + "'commitflow suggest' gets it. POST /v1/webhooks/gitlab, /gitea and /github take the servers' push "
                + "webhooks, proven by the tenant's secret (GitLab's X-Gitlab-Token, Gitea's X-Gitea-Signature, "
                + "GitHub's X-Hub-Signature-256), and send each ref update to the job's events topic as a push event. "
                + "GET /healthz, GET /metrics (Prometheus).",
                "API keys: lines TENANT:KEY, or TENANT:sha256:HEX to keep only the key's hash. Webhook secrets: lines "
                        + "TENANT:SERVER:SECRET (SERVER: gitlab, gitea or github). Keys and secrets have at least 16 "
                        + "characters, and each names one tenant.",
                "The draft topics (--requests-topic, --replies-topic, --dlq-topic) default to the job's: git config "
                        + "is the suggest command's, not read here. With {tenant} in them, each key's tenant gets its "
                        + "own.",
                "Each API key and each tenant's webhook has a token bucket (429 with Retry-After); a body over "
                        + "--max-body-bytes is refused (413). SIGTERM stops accepting, lets the requests in flight "
                        + "finish within --shutdown-grace, then closes Kafka's clients."},
        footer = {"", "Example: COMMITFLOW_TLS_PASSWORD=… ./commitflow gateway --bootstrap kafka:9092 --port 8443 "
                + "--tls-keystore gateway.p12 --api-keys /etc/commitflow/api-keys --webhook-secrets "
                + "/etc/commitflow/webhook-secrets"})
public final class GatewayCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    BootstrapOption bootstrapOption = new BootstrapOption();

    @Option(names = "--host", defaultValue = "0.0.0.0", paramLabel = "ADDRESS",
            description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "8080", paramLabel = "PORT",
            description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--api-keys", paramLabel = "FILE",
            description = "The tenants' API keys for /v1/suggestions, a TENANT:KEY or TENANT:sha256:HEX a line.")
    Path apiKeysFile;

    @Option(names = "--api-keys-env", paramLabel = "VAR",
            description = "The same entries in the environment variable VAR (lines or separated by blanks).")
    String apiKeysEnv;

    @Option(names = "--webhook-secrets", paramLabel = "FILE",
            description = "The tenants' webhook secrets, a TENANT:SERVER:SECRET a line.")
    Path webhookFile;

    @Option(names = "--webhook-secrets-env", paramLabel = "VAR",
            description = "The same entries in the environment variable VAR.")
    String webhookEnv;

    @Option(names = "--events-topic", defaultValue = KafkaSettings.EVENTS_TOPIC, paramLabel = "TOPIC",
            description = "The job's events topic, where webhooks' push events go; {tenant} for one per tenant "
                    + "(default: ${DEFAULT-VALUE}).")
    String eventsTopic;

    @Mixin
    DraftTopicOptions topicOptions = new DraftTopicOptions();

    @Option(names = "--reply-timeout", defaultValue = "10s", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "How long a suggestion may take before 504, and the broker to take an event before 503 "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration replyTimeout;

    @Option(names = "--rate", defaultValue = "5", paramLabel = "PER_SECOND",
            description = "Requests a second each API key, and each tenant's webhook of a server, may make over time "
                    + "(default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--burst", defaultValue = "20", paramLabel = "N",
            description = "Requests each may make at once (default: ${DEFAULT-VALUE}).")
    int burst;

    @Option(names = "--max-body-bytes", defaultValue = "2097152", paramLabel = "BYTES",
            description = "Largest request body; a larger one gets 413 (default: ${DEFAULT-VALUE}, at most "
                    + EventParser.DEFAULT_MAX_EVENT_BYTES + ", the job's limit).")
    int maxBodyBytes;

    @Option(names = "--tls-keystore", paramLabel = "FILE",
            description = "Serve HTTPS with this PKCS12 key store (its password from --tls-password-env).")
    Path tlsKeystore;

    @Option(names = "--tls-cert", paramLabel = "FILE",
            description = "Serve HTTPS with this PEM certificate chain (the server's first) and --tls-key.")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE",
            description = "The PEM private key of --tls-cert, unencrypted PKCS#8 (BEGIN PRIVATE KEY).")
    Path tlsKey;

    @Option(names = "--tls-password-env", defaultValue = "COMMITFLOW_TLS_PASSWORD", paramLabel = "VAR",
            description = "The environment variable holding --tls-keystore's password; unset: none "
                    + "(default: ${DEFAULT-VALUE}).")
    String tlsPasswordEnv;

    @Option(names = "--shutdown-grace", defaultValue = "20s", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "How long stopping waits for the requests in flight (default: ${DEFAULT-VALUE}).")
    Duration grace;

    @Mixin
    KafkaPropertiesOption kafkaProperties = new KafkaPropertiesOption();

    /** The environment; tests replace it. */
    Function<String, String> env = System::getenv;

    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CompletableFuture<Integer> bound = new CompletableFuture<>();

    /** Asks a running gateway to stop (as SIGTERM does); tests call it. */
    void stop() {
        stopRequested.countDown();
    }

    /** The port once the gateway listens; tests wait for it. */
    int awaitPort(Duration wait) throws Exception {
        return bound.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public Integer call() throws Exception {
        try {
            return serve();
        } catch (RuntimeException | Error e) {
            bound.completeExceptionally(e);
            throw e;
        }
    }

    private int serve() throws Exception {
        String bootstrap = bootstrapOption.required(spec);
        Map<String, String> properties = kafkaProperties.properties();
        if (port < 0 || port > 65535) {
            throw new UserError("--port must be from 0 to 65535, got " + port);
        }
        if (!(rate > 0) || burst < 1) {
            throw new UserError("--rate must be positive and --burst at least 1");
        }
        if (maxBodyBytes < 1024 || maxBodyBytes > EventParser.DEFAULT_MAX_EVENT_BYTES) {
            throw new UserError("--max-body-bytes must be from 1024 to " + EventParser.DEFAULT_MAX_EVENT_BYTES
                    + ", got " + maxBodyBytes);
        }
        if (replyTimeout.isZero() || replyTimeout.isNegative() || grace.isNegative()) {
            throw new UserError("--reply-timeout must be positive and --shutdown-grace not negative");
        }
        try {
            Tenants.checkTopic("--events-topic", eventsTopic);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        ApiKeys keys = apiKeys();
        WebhookSecrets webhooks = webhookSecrets();
        if (keys.size() == 0 && webhooks.isEmpty()) {
            throw new UserError("nothing to serve: give the tenants' API keys (--api-keys, --api-keys-env) or webhook "
                    + "secrets (--webhook-secrets, --webhook-secrets-env)");
        }
        char[] tlsPassword = tlsPassword();
        KeyStore tls = tls(tlsPassword);
        Map<String, DraftClient.Topics> topics = new HashMap<>();
        for (String tenant : keys.tenants()) {
            topics.put(tenant, topicOptions.resolve(tenant, Map.of()));
        }

        KafkaReach.require(bootstrap, properties, KafkaReach.DEFAULT_WAIT);
        PrintWriter out = spec.commandLine().getOut();
        DateTimeFormatter hhmmss = DateTimeFormatter.ofPattern("HH:mm:ss");
        GatewayMetrics metrics = new GatewayMetrics();
        GatewayServer.Settings settings = new GatewayServer.Settings(host, port, tls, tlsPassword, keys, webhooks,
                new RateLimiter(rate, burst), maxBodyBytes, replyTimeout, grace);
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop();
            try {
                done.await(grace.toMillis() + 15_000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "commitflow-gateway-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try (KafkaBackend backend = new KafkaBackend(bootstrap, properties, topics, eventsTopic,
                Duration.ofMillis(Math.max(replyTimeout.toMillis(), KafkaReach.DEFAULT_WAIT.toMillis())))) {
            GatewayServer server = new GatewayServer(settings, backend, metrics, line -> {
                synchronized (out) {
                    out.println(LocalTime.now().format(hhmmss) + "  " + line);
                    out.flush();
                }
            });
            start(server);
            out.printf("commitflow gateway: %s://%s:%d (%d API keys of %s; webhooks of %s), events to %s%n",
                    tls == null ? "http" : "https", host, server.port(), keys.size(), keys.tenants(),
                    webhookTenants(webhooks), eventsTopic);
            out.flush();
            bound.complete(server.port());
            stopRequested.await();
            out.println("commitflow gateway: stopping (the requests in flight get " + grace.toSeconds() + " s)");
            out.flush();
            server.close();
            out.println("stopped");
            out.flush();
            return 0;
        } finally {
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down: the hook waits for us
            }
        }
    }

    private void start(GatewayServer server) throws Exception {
        try {
            server.start();
        } catch (IOException e) {
            server.close();
            if (e.getCause() instanceof java.net.BindException || e instanceof java.net.BindException) {
                throw new UserError("cannot listen on " + host + ":" + port + " (" + e.getMessage() + "); choose another "
                        + "with --port, or 0 for a free one");
            }
            throw e;
        }
    }

    private static String webhookTenants(WebhookSecrets webhooks) {
        List<String> parts = new ArrayList<>();
        for (GitServer s : GitServer.values()) {
            if (!webhooks.tenants(s).isEmpty()) {
                parts.add(s.id() + " " + webhooks.tenants(s));
            }
        }
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }

    private ApiKeys apiKeys() {
        ApiKeys keys = ApiKeys.parse("", "none");
        try {
            if (apiKeysFile != null) {
                keys = keys.and(ApiKeys.parse(read("--api-keys", apiKeysFile), "--api-keys " + apiKeysFile));
            }
            if (apiKeysEnv != null) {
                keys = keys.and(ApiKeys.parse(variable("--api-keys-env", apiKeysEnv), "--api-keys-env " + apiKeysEnv));
            }
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        return keys;
    }

    private WebhookSecrets webhookSecrets() {
        if (webhookFile != null && webhookEnv != null) {
            throw new UserError("give the webhook secrets once: --webhook-secrets or --webhook-secrets-env");
        }
        try {
            if (webhookFile != null) {
                return WebhookSecrets.parse(read("--webhook-secrets", webhookFile), "--webhook-secrets " + webhookFile);
            }
            if (webhookEnv != null) {
                return WebhookSecrets.parse(variable("--webhook-secrets-env", webhookEnv), "--webhook-secrets-env " + webhookEnv);
            }
            return WebhookSecrets.parse("", "none");
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
    }

    private static String read(String option, Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError(option + " " + file + " cannot be read: " + e.getMessage());
        }
    }

    private String variable(String option, String name) {
        String text = env.apply(name);
        if (text == null || text.isBlank()) {
            throw new UserError(option + " " + name + ": the environment variable is not set");
        }
        return text;
    }

    private char[] tlsPassword() {
        if (tlsKeystore == null) {
            // the PEM key's in the key store built in memory: any password, never shown
            byte[] b = new byte[18];
            new SecureRandom().nextBytes(b);
            return java.util.Base64.getEncoder().encodeToString(b).toCharArray();
        }
        String p = env.apply(tlsPasswordEnv);
        return p == null ? new char[0] : p.toCharArray();
    }

    private KeyStore tls(char[] password) {
        if (tlsKeystore != null && (tlsCert != null || tlsKey != null)) {
            throw new UserError("give TLS one way: --tls-keystore, or --tls-cert with --tls-key");
        }
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new UserError("--tls-cert and --tls-key go together");
        }
        try {
            if (tlsKeystore != null) {
                return TlsKeys.pkcs12(tlsKeystore, password);
            }
            return tlsCert == null ? null : TlsKeys.pem(tlsCert, tlsKey, password);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
    }

    /**
     * The gateway's Kafka: one {@link DraftClient} per distinct set of draft topics (one in all where the tenants share
     * them, one per tenant where each has its own), and one producer of push events.
     */
    static final class KafkaBackend implements GatewayServer.Backend, AutoCloseable {
        private final Map<String, DraftClient> byTenant = new HashMap<>();
        private final List<DraftClient> clients = new ArrayList<>();
        private final KafkaProducer<byte[], byte[]> events;
        private final String eventsTopic;

        KafkaBackend(String bootstrap, Map<String, String> properties, Map<String, DraftClient.Topics> topics,
                     String eventsTopic, Duration connectWait) {
            this.eventsTopic = eventsTopic;
            Map<DraftClient.Topics, DraftClient> shared = new HashMap<>();
            try {
                topics.forEach((tenant, t) -> byTenant.put(tenant, shared.computeIfAbsent(t, x -> {
                    DraftClient c = new DraftClient(bootstrap, properties, x, connectWait);
                    clients.add(c);
                    return c;
                })));
                events = PushEventCommand.eventProducer(bootstrap, "commitflow-gateway", properties);
            } catch (RuntimeException e) {
                clients.forEach(DraftClient::close);
                throw e;
            }
        }

        @Override
        public CompletableFuture<GatewayServer.Answer> suggest(String tenant, String repo, String patch, String traceId) {
            DraftClient client = byTenant.get(tenant);
            if (client == null) {
                throw new IllegalStateException("no draft client for tenant " + tenant);
            }
            CompletableFuture<DraftClient.Reply> reply;
            try {
                reply = client.ask(tenant, repo, patch, traceId);
            } catch (UserError e) {
                throw new IllegalArgumentException(e.getMessage());
            }
            return reply.thenApply(r -> r instanceof DraftClient.Reply.Suggested s
                    ? new GatewayServer.Answer.Suggested(s.suggestion())
                    : new GatewayServer.Answer.Refused(((DraftClient.Reply.Refused) r).reason(),
                    ((DraftClient.Reply.Refused) r).detail()));
        }

        @Override
        public CompletableFuture<Void> publish(GitServer server, PushEvent e, String traceId) {
            byte[] value = WireFormat.push(e.tenant(), e.repo(), e.ref(), e.before(), e.after(), e.pusher(), e.ts());
            CompletableFuture<Void> sent = new CompletableFuture<>();
            events.send(PushEventCommand.eventRecord(Tenants.topicOf(eventsTopic, e.tenant()), e.repo(), e.ts(), value,
                    ProducerTrace.start(traceId, System.getenv())), (meta, failure) -> {
                        if (failure != null) {
                            sent.completeExceptionally(failure);
                        } else {
                            sent.complete(null);
                        }
                    });
            return sent;
        }

        @Override
        public String problem() {
            for (DraftClient c : clients) {
                if (c.failure() != null) {
                    return "the replies' reader stopped: " + c.failure();
                }
            }
            return null;
        }

        @Override
        public void close() {
            events.close(Duration.ofSeconds(10)); // sends what is buffered
            clients.forEach(DraftClient::close);
        }
    }
}
