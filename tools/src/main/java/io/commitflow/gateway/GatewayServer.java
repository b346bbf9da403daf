package io.commitflow.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.commitflow.event.EventParser;
import io.commitflow.event.Json;
import io.commitflow.event.Origin;
import io.commitflow.event.PushEvent;
import io.commitflow.event.RawRecord;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import java.io.IOException;
import java.io.InputStream;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The gateway's HTTP server (Jetty): drafts in, the job's suggestions out, and the Git servers' push webhooks into the
 * job's events topic, each request proven to be a tenant's.
 *
 * <ul>
 *   <li>{@code POST /v1/suggestions}, {@code Authorization: Bearer KEY}: the body {@code {"repo","diff"}} (and
 *   optionally {@code "author"}, {@code "branch"}) goes to the job as a draft of the key's tenant under a fresh trace
 *   id; the answer is the job's suggestion JSON (200), its refusal (422), or 504 when none came in time. The
 *   tenant is the key's alone: a body naming one is refused, and only the reply with the draft's own trace id is
 *   ever returned. A client without a JSON library (the shell hook) may send the diff itself
 *   ({@code Content-Type: text/x-diff}, the repository as {@code ?repo=}) and ask for {@code Accept: text/plain}:
 *   the answer is then the commit message alone, and an error one line of text; {@code &candidates=N} adds up to N
 *   other subjects as comment lines ({@code &comment=C}: git's {@code core.commentChar}, default {@code #}).</li>
 *   <li>{@code POST /v1/webhooks/gitlab|gitea|github}: the delivery is proven by a tenant's secret (GitLab's token,
 *   Gitea's and GitHub's HMAC-SHA256 signatures) and read by the job's own parser; its ref update goes to the
 *   tenant's events topic as a push event (202). A delivery no secret proves is 401 and nothing is sent.</li>
 *   <li>{@code GET /healthz} and {@code GET /metrics} (Prometheus' text format).</li>
 * </ul>
 * Every caller has a token bucket (429 with Retry-After), every body a size limit (413). Closing stops accepting
 * connections, lets the requests in flight finish within the grace period, then stops.
 */
public final class GatewayServer implements AutoCloseable {
    public static final String SUGGESTIONS = "/v1/suggestions";
    public static final String WEBHOOKS = "/v1/webhooks/";
    public static final String HEALTH = "/healthz";
    public static final String METRICS = "/metrics";
    /** The response header that names a draft's or a push event's trace. */
    public static final String TRACE_HEADER = "X-Commitflow-Trace-Id";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String TEXT = "text/plain; charset=utf-8";

    /** What the gateway asks of Kafka; the command wires it to the job's topics. */
    public interface Backend {
        /**
         * Sends a tenant's draft under {@code traceId}; completes with the job's answer to that trace id alone.
         *
         * @throws IllegalArgumentException when the job's parser would refuse the draft (a bad repository name)
         */
        CompletableFuture<Answer> suggest(String tenant, String repo, String patch, String traceId);

        /** Produces a push event on its tenant's events topic; completes when the broker has it. */
        CompletableFuture<Void> publish(GitServer server, PushEvent event, String traceId);

        /** Null while the gateway can serve, else why it cannot. */
        String problem();
    }

    /** The job's answer to a draft. */
    public sealed interface Answer {
        /** Its suggestion, as on the replies topic. */
        record Suggested(JsonNode suggestion) implements Answer {}

        /** Its refusal: the dead letter's reason and detail. */
        record Refused(String reason, String detail) implements Answer {}
    }

    /**
     * @param tls          the key store of the server's certificate and key, null for plain HTTP
     * @param maxBodyBytes a larger request body is refused with 413
     * @param replyTimeout how long a suggestion, or the broker's acknowledgement of an event, may take
     * @param grace        how long closing waits for the requests in flight
     */
    public record Settings(String host, int port, KeyStore tls, char[] tlsPassword, ApiKeys keys,
                           WebhookSecrets webhooks, RateLimiter limiter, int maxBodyBytes, Duration replyTimeout,
                           Duration grace) {}

    private final Settings settings;
    private final Backend backend;
    private final GatewayMetrics metrics;
    private final Consumer<String> log;
    private final EventParser parser = new EventParser(EventParser.DEFAULT_MAX_EVENT_BYTES);
    private final Server server;
    private final ServerConnector connector;

    public GatewayServer(Settings settings, Backend backend, GatewayMetrics metrics, Consumer<String> log) {
        this.settings = settings;
        this.backend = backend;
        this.metrics = metrics;
        this.log = log;
        QueuedThreadPool threads = new QueuedThreadPool(200, 8);
        threads.setName("commitflow-gateway");
        server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        if (settings.tls() != null) {
            SecureRequestCustomizer secure = new SecureRequestCustomizer();
            secure.setSniHostCheck(false); // clients may reach it by any name or address the certificate lacks
            http.addCustomizer(secure);
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setKeyStore(settings.tls());
            ssl.setKeyStorePassword(new String(settings.tlsPassword()));
            connector = new ServerConnector(server, new SslConnectionFactory(ssl, "http/1.1"), new HttpConnectionFactory(http));
        } else {
            connector = new ServerConnector(server, new HttpConnectionFactory(http));
        }
        connector.setHost(settings.host());
        connector.setPort(settings.port());
        server.addConnector(connector);
        server.setHandler(new GracefulHandler(new Routes()));
        server.setStopTimeout(settings.grace().toMillis());
        server.setStopAtShutdown(false); // the command stops it, then closes Kafka's clients
    }

    /** @throws IOException when the port cannot be bound */
    public GatewayServer start() throws Exception {
        server.start();
        return this;
    }

    /** The bound port (the given one, or the one chosen for port 0). */
    public int port() {
        return connector.getLocalPort();
    }

    /** Stops accepting, waits up to the grace period for the requests in flight, stops. */
    @Override
    public void close() throws Exception {
        server.stop();
    }

    /** One request's answer: written once, counted once. */
    private final class Exchange {
        private final Request request;
        private final Response response;
        private final Callback callback;
        private final String route;
        private final long start = System.nanoTime();
        private final AtomicBoolean sent = new AtomicBoolean();
        /** The client asked for plain text first ({@code Accept: text/plain}): errors are then one line of text. */
        private final boolean plain;
        private Fields query;

        Exchange(Request request, Response response, Callback callback, String route) {
            this.request = request;
            this.response = response;
            this.callback = callback;
            this.route = route;
            this.plain = prefersText(request.getHeaders().get(HttpHeader.ACCEPT));
            metrics.started();
        }

        void json(int status, JsonNode body) {
            send(status, "application/json", Json.string(body) + "\n");
        }

        void error(int status, String error, String detail) {
            if (plain) {
                send(status, TEXT, error + ": " + String.valueOf(detail).replace('\n', ' ') + "\n");
                return;
            }
            ObjectNode n = Json.mapper().createObjectNode();
            n.put("error", error);
            n.put("detail", detail);
            json(status, n);
        }

        void send(int status, String contentType, String body) {
            if (!sent.compareAndSet(false, true)) {
                return;
            }
            metrics.answered(route, status, System.nanoTime() - start);
            if (status >= 500) {
                log.accept(request.getMethod() + " " + route + " " + status + ": " + body.strip());
            }
            response.setStatus(status);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
            response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
            Content.Sink.write(response, true, body, callback);
        }

        void header(String name, String value) {
            response.getHeaders().put(name, value);
        }

        String header(String name) {
            return request.getHeaders().get(name);
        }

        /**
         * A query parameter. The query is parsed when first asked for, once: only a diff body asks, so a JSON body's
         * request is not failed by its query.
         */
        String query(String name) {
            if (query == null) {
                try {
                    query = Request.extractQueryParameters(request);
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException("the query cannot be read: " + e.getMessage());
                }
            }
            return query.getValue(name);
        }
    }

    /** A body over the limit. */
    private static final class TooLarge extends Exception {
        TooLarge() {
            super(null, null, false, false);
        }
    }

    private final class Routes extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            String path = Request.getPathInContext(request);
            String route = route(path);
            Exchange x = new Exchange(request, response, callback, route);
            try {
                switch (route) {
                    case HEALTH -> {
                        if (method(x, "GET")) {
                            health(x);
                        }
                    }
                    case METRICS -> {
                        if (method(x, "GET")) {
                            x.send(200, "text/plain; version=0.0.4; charset=utf-8", metrics.prometheusText());
                        }
                    }
                    case SUGGESTIONS -> {
                        if (method(x, "POST")) {
                            suggest(x);
                        }
                    }
                    case "other" -> x.error(404, "not_found", "no such endpoint: " + SUGGESTIONS + ", " + WEBHOOKS
                            + "{gitlab,gitea,github}, " + HEALTH + ", " + METRICS);
                    default -> {
                        if (method(x, "POST")) {
                            webhook(x, GitServer.of(route.substring(WEBHOOKS.length())));
                        }
                    }
                }
            } catch (RuntimeException e) {
                x.error(500, "internal", e.toString());
            }
            return true;
        }
    }

    /** The metrics' route: a path the gateway serves, or {@code other}. */
    static String route(String path) {
        if (path == null) {
            return "other";
        }
        if (path.equals(SUGGESTIONS) || path.equals(HEALTH) || path.equals(METRICS)) {
            return path;
        }
        for (GitServer s : GitServer.values()) {
            if (path.equals(WEBHOOKS + s.id())) {
                return path;
            }
        }
        return "other";
    }

    private static boolean method(Exchange x, String allowed) {
        if (x.request.getMethod().equals(allowed)) {
            return true;
        }
        x.header("Allow", allowed);
        x.error(405, "method_not_allowed", "use " + allowed);
        return false;
    }

    private void health(Exchange x) {
        String problem = backend.problem();
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("status", problem == null ? "ok" : "unavailable");
        if (problem != null) {
            n.put("detail", problem);
        }
        x.json(problem == null ? 200 : 503, n);
    }

    private void suggest(Exchange x) {
        // read first (up to the limit), so that a refusal leaves the connection fit for the client's next request
        byte[] body = body(x);
        if (body == null) {
            return;
        }
        String auth = x.header(HttpHeader.AUTHORIZATION.asString());
        String key = auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7) ? auth.substring(7).strip() : null;
        Optional<String> tenant = settings.keys().tenantOf(key);
        if (tenant.isEmpty()) {
            x.header(HttpHeader.WWW_AUTHENTICATE.asString(), "Bearer realm=\"commitflow\"");
            x.error(401, "unauthorized", key == null ? "send Authorization: Bearer API_KEY" : "unknown API key");
            return;
        }
        if (limited(x, "key:" + ApiKeys.id(key))) {
            return;
        }
        DraftRequest draft;
        try {
            draft = DraftRequest.parse(body, x.header(HttpHeader.CONTENT_TYPE.asString()), x::query);
        } catch (IllegalArgumentException e) {
            x.error(400, "bad_request", e.getMessage());
            return;
        }
        String traceId = newTraceId();
        x.header(TRACE_HEADER, traceId);
        CompletableFuture<Answer> answer;
        try {
            answer = backend.suggest(tenant.get(), draft.repo(), draft.diff(), traceId);
        } catch (IllegalArgumentException e) {
            x.error(400, "bad_request", e.getMessage());
            return;
        }
        metrics.produced("draft");
        answer.orTimeout(settings.replyTimeout().toMillis(), TimeUnit.MILLISECONDS).whenComplete((a, e) -> {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof TimeoutException) {
                x.error(504, "timeout", "no answer from the job within " + settings.replyTimeout().toMillis()
                        + " ms (trace " + traceId + ")");
            } else if (cause != null) {
                x.error(503, "unavailable", cause.getMessage() != null ? cause.getMessage() : cause.toString());
            } else if (a instanceof Answer.Suggested s) {
                String replyTenant = s.suggestion().path("tenant").asText(tenant.get());
                if (!replyTenant.equals(tenant.get())) { // cannot be with a trace id of our own, and is never shown
                    x.error(502, "bad_gateway", "the reply to trace " + traceId + " is not this tenant's");
                } else if (x.plain) {
                    x.send(200, TEXT, message(s.suggestion()) + commented(s.suggestion(), draft.candidates(),
                            draft.commentChar()));
                } else {
                    x.json(200, s.suggestion());
                }
            } else if (x.plain) {
                Answer.Refused r = (Answer.Refused) a;
                x.error(422, "refused", r.reason() + ": " + r.detail() + " (trace " + traceId + ")");
            } else {
                Answer.Refused r = (Answer.Refused) a;
                ObjectNode n = Json.mapper().createObjectNode();
                n.put("error", "refused");
                n.put("reason", r.reason());
                n.put("detail", r.detail());
                n.put("traceId", traceId);
                x.json(422, n);
            }
        });
    }

    private void webhook(Exchange x, GitServer git) {
        byte[] body = body(x);
        if (body == null) {
            return;
        }
        Optional<String> tenant = settings.webhooks().tenantOf(git, x.header(git.proofHeader()), body);
        if (tenant.isEmpty()) {
            x.error(401, "unauthorized", x.header(git.proofHeader()) == null ? "no " + git.proofHeader() + " header"
                    : git.proofHeader() + " matches no tenant's " + git.id() + " secret");
            return;
        }
        if (limited(x, git.id() + ":" + tenant.get())) {
            return;
        }
        String event = x.header(git.eventHeader());
        ObjectNode done = Json.mapper().createObjectNode();
        if (git == GitServer.GITHUB && "ping".equals(event)) {
            done.put("status", "pong");
            x.json(200, done);
            return;
        }
        if (!git.isPush(event)) {
            done.put("status", "ignored");
            done.put("detail", git.eventHeader() + " " + event + " is no push; only pushes are sent to the job");
            x.json(202, done);
            return;
        }
        long now = System.currentTimeMillis();
        String shape = PayloadShape.check(git, body);
        var parsed = shape != null ? null : parser.parse(new RawRecord(Origin.synthetic(now), null, body), tenant.get());
        if (shape != null || !(parsed instanceof EventParser.Result.Push push)) {
            String detail = shape != null ? shape
                    : parsed instanceof EventParser.Result.Rejected r ? r.deadLetter().reason() + ": " + r.deadLetter().detail()
                    : "not a push payload";
            x.error(400, "bad_payload", detail);
            return;
        }
        String traceId = newTraceId();
        x.header(TRACE_HEADER, traceId);
        PushEvent e = push.event();
        backend.publish(git, e, traceId).orTimeout(settings.replyTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((ok, failure) -> {
                    if (failure != null) {
                        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                                ? failure.getCause() : failure;
                        x.error(503, "unavailable", "Kafka did not take the event: " + cause);
                        return;
                    }
                    metrics.produced(git.id());
                    done.put("status", "accepted");
                    done.put("tenant", e.tenant());
                    done.put("repo", e.repo());
                    done.put("ref", e.ref());
                    done.put("after", e.after());
                    done.put("traceId", traceId);
                    x.json(202, done);
                });
    }

    /**
     * Whether an {@code Accept} header puts {@code text/plain} before JSON: its first media range, the order a client
     * writes them in (quality values are not weighed; curl and the hook send one).
     */
    static boolean prefersText(String accept) {
        if (accept == null) {
            return false;
        }
        String first = accept.split(",", 2)[0].split(";", 2)[0].strip().toLowerCase(java.util.Locale.ROOT);
        return first.equals("text/plain");
    }

    /** A suggestion as the commit message git writes: the subject, then the body after a blank line when it has one. */
    static String message(JsonNode suggestion) {
        String subject = suggestion.path("subject").asText("").strip();
        String body = suggestion.path("body").asText("").strip();
        return body.isEmpty() ? subject + "\n" : subject + "\n\n" + body + "\n";
    }

    /**
     * Up to {@code max} of the suggestion's alternatives as lines git strips from the message ({@code comment}, its
     * {@code core.commentChar}, then a space), after a blank line: what the developer sees in the editor beside the
     * suggestion. Empty for none.
     */
    static String commented(JsonNode suggestion, int max, char comment) {
        JsonNode alternatives = suggestion.path("alternatives");
        if (max < 1 || alternatives.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("\n").append(comment).append(" Other subjects commitflow could give:\n");
        for (int i = 0; i < Math.min(max, alternatives.size()); i++) {
            b.append(comment).append("   ").append(alternatives.get(i).asText().replace('\n', ' ')).append('\n');
        }
        return b.toString();
    }

    /** Whether the caller is over its rate: then 429 has been sent. */
    private boolean limited(Exchange x, String caller) {
        Duration wait = settings.limiter().acquire(caller);
        if (wait.isZero()) {
            return false;
        }
        x.header(HttpHeader.RETRY_AFTER.asString(), Long.toString(RateLimiter.retryAfterSeconds(wait)));
        x.error(429, "too_many_requests", "over this caller's rate limit; retry after the Retry-After seconds");
        return true;
    }

    /** The request's body, or null when it was refused (413) or could not be read (400). */
    private byte[] body(Exchange x) {
        int max = settings.maxBodyBytes();
        InputStream in = Content.Source.asInputStream(x.request);
        try {
            long declared = x.request.getLength();
            if (declared > max) {
                throw new TooLarge();
            }
            byte[] b = in.readNBytes(max + 1);
            if (b.length > max) {
                throw new TooLarge();
            }
            return b;
        } catch (TooLarge e) {
            // a client that is still sending reads the answer only if the rest is read too: up to a bound, it is
            // read and dropped; beyond, the connection closes after the answer
            long cap = 4L * max;
            try {
                if (x.request.getLength() > cap || !drained(in, cap)) {
                    x.header(HttpHeader.CONNECTION.asString(), "close");
                }
            } catch (IOException ignored) {
                x.header(HttpHeader.CONNECTION.asString(), "close");
            }
            x.error(413, "too_large", "the body may have at most " + max + " bytes");
        } catch (IOException e) {
            x.error(400, "bad_request", "the body cannot be read: " + e.getMessage());
        }
        return null;
    }

    /** Reads and drops up to {@code cap} bytes; whether the body ended within them. */
    private static boolean drained(InputStream in, long cap) throws IOException {
        byte[] buf = new byte[16 * 1024];
        long left = cap;
        while (left > 0) {
            int n = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (n < 0) {
                return true;
            }
            left -= n;
        }
        return in.read() < 0;
    }

    /** A fresh W3C-style trace id: 32 lowercase hex digits, chosen here, never by the caller. */
    static String newTraceId() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
