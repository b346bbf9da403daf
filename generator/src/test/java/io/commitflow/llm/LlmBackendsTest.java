package io.commitflow.llm;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Both APIs' wire formats against a local server, and every fault the issue names. */
class LlmBackendsTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final LlmRequest REQUEST = new LlmRequest("You write commit messages.\nExamples: …", "diff --git a/x b/x", 200);

    private static CircuitBreaker breaker(int failuresInARow, Duration openFor) {
        return CircuitBreaker.of("test", ResilientBackend.breakerConfig(failuresInARow, openFor));
    }

    /** A clock the test moves by hand, so the breaker's open period passes at once. */
    private static final class MovableClock extends Clock {
        volatile Instant now = Instant.EPOCH;

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    private static LlmException failure(CompletableFuture<?> f) throws Exception {
        try {
            f.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            while (!(c instanceof LlmException) && c.getCause() != null) {
                c = c.getCause();
            }
            return (LlmException) c;
        }
        throw new AssertionError("expected a failure");
    }

    @Test
    void openAiRequestHasTheDocumentedFieldsAndItsReplyIsRead() throws Exception {
        try (FakeLlmServer s = new FakeLlmServer().then(FakeLlmServer.Step.ok(FakeLlmServer.openAi("Add retries to PackWriter")))) {
            LlmReply r = new OpenAiBackend(HTTP, s.base(), "gpt-x", "sk-test").complete(REQUEST, Duration.ofSeconds(5))
                    .get(10, TimeUnit.SECONDS);

            assertThat(r).isEqualTo(new LlmReply("Add retries to PackWriter", 1000, 800));
            var req = s.seen.get(0);
            assertThat(req.path()).isEqualTo("/v1/chat/completions");
            assertThat(req.headers().getFirst("authorization")).isEqualTo("Bearer sk-test");
            List<String> fields = new ArrayList<>();
            req.body().fieldNames().forEachRemaining(fields::add);
            assertThat(fields).containsExactlyInAnyOrder("model", "messages", "max_completion_tokens", "temperature", "n");
            assertThat(req.body().path("messages").get(0).path("role").asText()).isEqualTo("system");
            assertThat(req.body().path("messages").get(0).path("content").asText()).isEqualTo(REQUEST.prefix());
            assertThat(req.body().path("messages").get(1).path("role").asText()).isEqualTo("user");
            assertThat(req.body().path("max_completion_tokens").asInt()).isEqualTo(200);
        }
    }

    /** OpenAI's reply to a reasoning model's request with a temperature, as its API documents its errors. */
    private static final String ONLY_DEFAULT_TEMPERATURE = """
            {"error":{"message":"Unsupported value: 'temperature' does not support 0 with this model. Only the default \
            (1) value is supported.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}}""";
    /** An OpenAI-compatible server that knows only the older parameter. */
    private static final String NO_MAX_COMPLETION_TOKENS = """
            {"error":{"message":"Unrecognized request argument supplied: max_completion_tokens",\
            "type":"invalid_request_error","param":"max_completion_tokens","code":null}}""";

    @Test
    void aReasoningModelThatTakesOnlyItsDefaultTemperatureIsAskedAgainWithoutOne() throws Exception {
        try (FakeLlmServer s = new FakeLlmServer().then(new FakeLlmServer.Step(400, ONLY_DEFAULT_TEMPERATURE, null, 0, false),
                FakeLlmServer.Step.ok(FakeLlmServer.openAi("Add retries to PackWriter")))) {
            OpenAiBackend b = new OpenAiBackend(HTTP, s.base(), "o-reasoning", "sk-test");

            assertThat(b.complete(REQUEST, Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS).text())
                    .isEqualTo("Add retries to PackWriter");
            assertThat(b.complete(REQUEST, Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS).text())
                    .isEqualTo("Add retries to PackWriter");

            assertThat(s.seen).hasSize(3);
            assertThat(s.seen.get(0).body().has("temperature")).isTrue();
            assertThat(s.seen.get(1).body().has("temperature")).as("asked again without it").isFalse();
            assertThat(s.seen.get(2).body().has("temperature")).as("and remembered").isFalse();
            assertThat(s.seen).allSatisfy(r -> assertThat(r.body().path("max_completion_tokens").asInt()).isEqualTo(200));
        }
    }

    @Test
    void aServerThatKnowsOnlyMaxTokensIsAskedAgainWithIt() throws Exception {
        try (FakeLlmServer s = new FakeLlmServer().then(new FakeLlmServer.Step(400, NO_MAX_COMPLETION_TOKENS, null, 0, false),
                FakeLlmServer.Step.ok(FakeLlmServer.openAi("Fix the lock leak in RefUpdate")))) {
            OpenAiBackend b = new OpenAiBackend(HTTP, s.base(), "local-model", null);

            assertThat(b.complete(REQUEST, Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS).text())
                    .isEqualTo("Fix the lock leak in RefUpdate");
            b.complete(REQUEST, Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);

            assertThat(s.seen).hasSize(3);
            assertThat(s.seen.get(1).body().path("max_tokens").asInt()).isEqualTo(200);
            assertThat(s.seen.get(1).body().has("max_completion_tokens")).isFalse();
            assertThat(s.seen.get(2).body().has("max_tokens")).as("remembered").isTrue();
        }
    }

    @Test
    void anyOther400IsTheCallersFaultAndIsNotSentAgain() throws Exception {
        try (FakeLlmServer s = new FakeLlmServer().then(new FakeLlmServer.Step(400, """
                {"error":{"message":"Invalid type for 'messages[1].content'","type":"invalid_request_error",\
                "param":"messages[1].content","code":"invalid_type"}}""", null, 0, false))) {
            LlmException e = failure(new OpenAiBackend(HTTP, s.base(), "m", "k").complete(REQUEST, Duration.ofSeconds(5)));

            assertThat(e.kind()).isEqualTo(LlmException.Kind.CLIENT);
            assertThat(e.getMessage()).contains("messages[1].content");
            assertThat(s.seen).hasSize(1);
        }
    }

    @Test
    void anthropicRequestHasTheDocumentedFieldsAndItsReplyIsRead() throws Exception {
        try (FakeLlmServer s = new FakeLlmServer().then(FakeLlmServer.Step.ok(FakeLlmServer.anthropic("Add retries to PackWriter")))) {
            LlmReply r = new AnthropicBackend(HTTP, s.base(), "claude-x", "key").complete(REQUEST, Duration.ofSeconds(5))
                    .get(10, TimeUnit.SECONDS);

            assertThat(r).isEqualTo(new LlmReply("Add retries to PackWriter", 1000, 800));
            var req = s.seen.get(0);
            assertThat(req.path()).isEqualTo("/v1/messages");
            assertThat(req.headers().getFirst("x-api-key")).isEqualTo("key");
            assertThat(req.headers().getFirst("anthropic-version")).isEqualTo("2023-06-01");
            List<String> fields = new ArrayList<>();
            req.body().fieldNames().forEachRemaining(fields::add);
            assertThat(fields).containsExactlyInAnyOrder("model", "max_tokens", "temperature", "system", "messages");
            assertThat(req.body().path("system").get(0).path("cache_control").path("type").asText()).isEqualTo("ephemeral");
            assertThat(req.body().path("messages").get(0).path("content").asText()).isEqualTo(REQUEST.diff());
        }
    }

    @Test
    void mapsEveryFaultToItsKind() throws Exception {
        try (FakeLlmServer s = new FakeLlmServer()) {
            OpenAiBackend b = new OpenAiBackend(HTTP, s.base(), "m", "k");
            s.then(FakeLlmServer.Step.rateLimited("3"));
            LlmException e = failure(b.complete(REQUEST, Duration.ofSeconds(5)));
            assertThat(e.kind()).isEqualTo(LlmException.Kind.RATE_LIMITED);
            assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(3));
        }
        assertKind(FakeLlmServer.Step.status(503), LlmException.Kind.SERVER);
        assertKind(FakeLlmServer.Step.status(529), LlmException.Kind.SERVER);
        assertKind(FakeLlmServer.Step.status(401), LlmException.Kind.CLIENT);
        assertKind(FakeLlmServer.Step.ok("not json"), LlmException.Kind.MALFORMED);
        assertKind(FakeLlmServer.Step.ok("{\"choices\":[],\"content\":[]}"), LlmException.Kind.MALFORMED);
        assertKind(FakeLlmServer.Step.ok("[]"), LlmException.Kind.MALFORMED);
        assertKind(FakeLlmServer.Step.reset(), LlmException.Kind.CONNECTION);
        assertKind(FakeLlmServer.Step.slow(3000, "{}"), LlmException.Kind.TIMEOUT);
    }

    /** Each fault, against both APIs. */
    private static void assertKind(FakeLlmServer.Step step, LlmException.Kind kind) throws Exception {
        for (String api : List.of("openai", "anthropic")) {
            try (FakeLlmServer s = new FakeLlmServer().then(step)) {
                LlmBackend b = api.equals("openai") ? new OpenAiBackend(HTTP, s.base(), "m", "k")
                        : new AnthropicBackend(HTTP, s.base(), "m", "k");
                Duration t = step.delayMillis() > 0 ? Duration.ofMillis(300) : Duration.ofSeconds(5);
                assertThat(failure(b.complete(REQUEST, t)).kind()).as(api + " " + step).isEqualTo(kind);
            }
        }
    }

    @Test
    void retriesTransientFaultsHonouringRetryAfterThenSucceeds() throws Exception {
        try (FakeLlmServer s = new FakeLlmServer().then(FakeLlmServer.Step.status(500), FakeLlmServer.Step.reset(),
                FakeLlmServer.Step.rateLimited("0.2"), FakeLlmServer.Step.ok(FakeLlmServer.anthropic("Fix the lock leak in RefUpdate")));
             ResilientBackend r = new ResilientBackend(new AnthropicBackend(HTTP, s.base(), "m", "k"),
                     breaker(10, Duration.ofSeconds(30)), 4, Duration.ofMillis(10), Duration.ofMillis(100), 1)) {
            long t = System.nanoTime();
            LlmReply reply = r.complete("acme", REQUEST, Duration.ofSeconds(10)).get(20, TimeUnit.SECONDS);
            assertThat(reply.text()).isEqualTo("Fix the lock leak in RefUpdate");
            assertThat(s.seen).hasSize(4);
            assertThat(System.nanoTime() - t).as("waited the 200 ms Retry-After").isGreaterThan(TimeUnit.MILLISECONDS.toNanos(200));
        }
    }

    @Test
    void aConnectionLostOnTheLastTryReportsWhatTheEndpointAnswered() throws Exception {
        // one 503, then every connection reset until the deadline: the endpoint's own answer is the fault to report
        try (FakeLlmServer s = new FakeLlmServer().then(FakeLlmServer.Step.status(503), FakeLlmServer.Step.reset());
             ResilientBackend r = new ResilientBackend(new OpenAiBackend(HTTP, s.base(), "m", "k"),
                     breaker(1000, Duration.ofSeconds(30)), 4, Duration.ofMillis(20), Duration.ofMillis(50), 1)) {
            LlmException e = failure(r.complete("acme", REQUEST, Duration.ofMillis(800)));
            assertThat(e.kind()).isEqualTo(LlmException.Kind.SERVER);
            assertThat(e.getSuppressed()).as("the lost connection kept beside it")
                    .anyMatch(x -> x instanceof LlmException l && l.kind() == LlmException.Kind.CONNECTION);
            assertThat(s.seen.size()).isGreaterThan(2);
        }
        try (FakeLlmServer s = new FakeLlmServer().then(FakeLlmServer.Step.reset());
             ResilientBackend r = new ResilientBackend(new OpenAiBackend(HTTP, s.base(), "m", "k"),
                     breaker(1000, Duration.ofSeconds(30)), 4, Duration.ofMillis(20), Duration.ofMillis(50), 1)) {
            assertThat(failure(r.complete("acme", REQUEST, Duration.ofMillis(500))).kind())
                    .as("no answer at all: the connection's fault").isEqualTo(LlmException.Kind.CONNECTION);
        }
    }

    @Test
    void givesUpAtTheDeadlineAndOnFaultsThatRetriesCannotFix() throws Exception {
        try (FakeLlmServer s = new FakeLlmServer().then(FakeLlmServer.Step.status(503));
             ResilientBackend r = new ResilientBackend(new OpenAiBackend(HTTP, s.base(), "m", "k"),
                     breaker(1000, Duration.ofSeconds(30)), 4, Duration.ofMillis(20), Duration.ofMillis(50), 1)) {
            long t = System.nanoTime();
            assertThat(failure(r.complete("acme", REQUEST, Duration.ofMillis(1500))).kind()).isEqualTo(LlmException.Kind.SERVER);
            assertThat(System.nanoTime() - t).as("gave up near the deadline").isLessThan(TimeUnit.SECONDS.toNanos(10));
            assertThat(s.seen.size()).as("retried within the deadline").isGreaterThan(2);
        }
        try (FakeLlmServer s = new FakeLlmServer().then(FakeLlmServer.Step.status(400));
             ResilientBackend r = new ResilientBackend(new OpenAiBackend(HTTP, s.base(), "m", "k"),
                     breaker(5, Duration.ofSeconds(30)), 4, Duration.ofMillis(20), Duration.ofMillis(50), 1)) {
            assertThat(failure(r.complete("acme", REQUEST, Duration.ofSeconds(5))).kind()).isEqualTo(LlmException.Kind.CLIENT);
            assertThat(s.seen).as("a bad request is not retried").hasSize(1);
            assertThat(r.breaker().getState()).as("nor held against the endpoint").isEqualTo(CircuitBreaker.State.CLOSED);
        }
    }

    @Test
    void aTryCutShortByTheDeadlineReportsTheFaultThatCausedTheRetry() throws Exception {
        try (FakeLlmServer s = new FakeLlmServer().then(FakeLlmServer.Step.status(502),
                FakeLlmServer.Step.slow(5_000, FakeLlmServer.openAi("too late")));
             ResilientBackend r = new ResilientBackend(new OpenAiBackend(HTTP, s.base(), "m", "k"),
                     breaker(1000, Duration.ofSeconds(30)), 4, Duration.ofMillis(1), Duration.ofMillis(1), 1)) {
            LlmException e = failure(r.complete("acme", REQUEST, Duration.ofMillis(1500)));
            assertThat(e.kind()).as("the 502, not the timeout of the try after it").isEqualTo(LlmException.Kind.SERVER);
            assertThat(e.getSuppressed()).singleElement()
                    .satisfies(x -> assertThat(((LlmException) x).kind()).isEqualTo(LlmException.Kind.TIMEOUT));
        }
    }

    @Test
    void theCircuitOpensAfterRepeatedFailuresAndClosesAfterATrialSucceeds() throws Exception {
        MovableClock clock = new MovableClock();
        CircuitBreaker breaker = CircuitBreaker.of("test",
                CircuitBreakerConfig.from(ResilientBackend.breakerConfig(3, Duration.ofSeconds(10))).clock(clock).build());
        try (FakeLlmServer s = new FakeLlmServer().then(FakeLlmServer.Step.status(500), FakeLlmServer.Step.status(500),
                FakeLlmServer.Step.status(500), FakeLlmServer.Step.ok(FakeLlmServer.openAi("Handle empty packs in PackWriter")));
             ResilientBackend r = new ResilientBackend(new OpenAiBackend(HTTP, s.base(), "m", "k"), breaker, 4,
                     Duration.ofMillis(1), Duration.ofMillis(2), 1)) {
            failure(r.complete("acme", REQUEST, Duration.ofSeconds(5)));
            assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
            assertThat(failure(r.complete("acme", REQUEST, Duration.ofSeconds(5))).kind()).isEqualTo(LlmException.Kind.CIRCUIT_OPEN);
            assertThat(s.seen).as("an open circuit sends nothing").hasSize(3);
            clock.now = clock.now.plusSeconds(11);
            assertThat(r.complete("acme", REQUEST, Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS).text())
                    .isEqualTo("Handle empty packs in PackWriter");
            assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
        }
    }

    @Test
    void theBreakerCountsFailuresInARowAndATrialThatFailsOpensItAgain() {
        MovableClock clock = new MovableClock();
        CircuitBreaker b = CircuitBreaker.of("test",
                CircuitBreakerConfig.from(ResilientBackend.breakerConfig(3, Duration.ofSeconds(10))).clock(clock).build());
        LlmException server = new LlmException(LlmException.Kind.SERVER, "503");
        for (int i = 0; i < 2; i++) {
            b.onError(0, TimeUnit.NANOSECONDS, server);
        }
        b.onSuccess(0, TimeUnit.NANOSECONDS);
        b.onError(0, TimeUnit.NANOSECONDS, new LlmException(LlmException.Kind.CLIENT, "400"));
        b.onError(0, TimeUnit.NANOSECONDS, server);
        b.onError(0, TimeUnit.NANOSECONDS, server);
        assertThat(b.getState()).as("a success in between, and a client error not counted").isEqualTo(CircuitBreaker.State.CLOSED);
        b.onError(0, TimeUnit.NANOSECONDS, server);
        assertThat(b.getState()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(b.tryAcquirePermission()).isFalse();

        clock.now = clock.now.plusSeconds(11);
        assertThat(b.tryAcquirePermission()).as("one trial").isTrue();
        assertThat(b.tryAcquirePermission()).as("and only one").isFalse();
        b.onError(0, TimeUnit.NANOSECONDS, server);
        assertThat(b.getState()).isEqualTo(CircuitBreaker.State.OPEN);
    }

    @Test
    void aTenantsRequestsBeyondItsLimitWaitInsteadOfFailing() throws Exception {
        try (FakeLlmServer s = new FakeLlmServer().then(FakeLlmServer.Step.slow(150, FakeLlmServer.openAi("Add a limit to the fetch queue")));
             ResilientBackend r = new ResilientBackend(new OpenAiBackend(HTTP, s.base(), "m", "k"),
                     breaker(5, Duration.ofSeconds(30)), 2, Duration.ofMillis(10), Duration.ofMillis(50), 1)) {
            List<CompletableFuture<LlmReply>> all = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                all.add(r.complete("acme", REQUEST, Duration.ofSeconds(20)));
            }
            for (CompletableFuture<LlmReply> f : all) {
                assertThat(f.get(20, TimeUnit.SECONDS).text()).isEqualTo("Add a limit to the fetch queue");
            }
            assertThat(s.maxInFlight.get()).as("at most two of the tenant's requests at a time").isEqualTo(2);
        }
    }
}
