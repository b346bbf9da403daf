package io.commitflow.llm;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** What both APIs share: a JSON POST over Java's non-blocking HTTP client, and the mapping of failures. */
abstract class HttpBackend implements LlmBackend {
    private final HttpClient http;
    private final String provider;
    protected final URI endpoint;
    protected final String model;

    /**
     * @param provider the API's name in {@link #name()}
     * @param baseUrl  the server's address ({@code https://api.openai.com}, {@code http://vllm:8000}); {@code path} is
     *                 added
     */
    HttpBackend(HttpClient http, String provider, String baseUrl, String path, String model) {
        this.http = http;
        this.provider = provider;
        this.endpoint = URI.create(baseUrl.replaceAll("/+$", "") + path);
        this.model = model;
    }

    @Override
    public String name() {
        return provider + ":" + model;
    }

    /** The request body, in the API's documented fields. */
    abstract JsonNode body(LlmRequest request);

    abstract HttpRequest.Builder headers(HttpRequest.Builder b);

    /** The reply's text and token counts; throws {@link LlmException} (MALFORMED) when the format is not the API's. */
    abstract LlmReply parse(JsonNode reply);

    /**
     * Whether a 400 reply names a request parameter this endpoint's model does not take, and the backend changed its
     * requests so that it is left out (or written another way): then the request is sent again, once.
     *
     * @param error the reply's JSON, or an empty object when it is not JSON
     */
    boolean adapt(JsonNode error) {
        return false;
    }

    @Override
    public CompletableFuture<LlmReply> complete(LlmRequest request, Duration timeout) {
        return send(request, timeout, true);
    }

    private CompletableFuture<LlmReply> send(LlmRequest request, Duration timeout, boolean mayAdapt) {
        HttpRequest r = headers(HttpRequest.newBuilder(endpoint).timeout(timeout)
                .header("content-type", "application/json"))
                .POST(HttpRequest.BodyPublishers.ofString(Json.string(body(request)))).build();
        return http.sendAsync(r, HttpResponse.BodyHandlers.ofString())
                .handle((resp, error) -> {
                    if (error != null) {
                        throw failure(error);
                    }
                    return resp;
                })
                .thenCompose(resp -> mayAdapt && resp.statusCode() == 400 && adapt(errorOf(resp.body()))
                        ? send(request, timeout, false)
                        : CompletableFuture.completedFuture(reply(resp)));
    }

    private static JsonNode errorOf(String body) {
        try {
            JsonNode json = Json.mapper().readTree(body);
            return json != null && json.isObject() ? json : Json.mapper().createObjectNode();
        } catch (IOException e) {
            return Json.mapper().createObjectNode();
        }
    }

    private LlmReply reply(HttpResponse<String> resp) {
        int status = resp.statusCode();
        if (status == 429) {
            throw new LlmException(LlmException.Kind.RATE_LIMITED, name() + ": 429 rate limited",
                    retryAfter(resp.headers().firstValue("retry-after").orElse(null)), null);
        }
        if (status >= 500) {
            throw new LlmException(LlmException.Kind.SERVER, name() + ": HTTP " + status + " " + clip(resp.body()));
        }
        if (status != 200) {
            throw new LlmException(LlmException.Kind.CLIENT, name() + ": HTTP " + status + " " + clip(resp.body()));
        }
        JsonNode json;
        try {
            json = Json.mapper().readTree(resp.body());
        } catch (IOException e) {
            throw new LlmException(LlmException.Kind.MALFORMED, name() + ": the reply is not JSON", null, e);
        }
        if (json == null || !json.isObject()) {
            throw new LlmException(LlmException.Kind.MALFORMED, name() + ": the reply is not a JSON object");
        }
        return parse(json);
    }

    private LlmException failure(Throwable error) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (e instanceof LlmException l) {
            return l;
        }
        if (e instanceof HttpTimeoutException) {
            return new LlmException(LlmException.Kind.TIMEOUT, name() + ": no reply in time", null, e);
        }
        return new LlmException(LlmException.Kind.CONNECTION, name() + ": " + e, null, e); // refused, reset, …
    }

    /** Retry-After as seconds or an HTTP date; null when absent or unreadable. */
    static Duration retryAfter(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Duration.ofMillis((long) (Double.parseDouble(value.trim()) * 1000));
        } catch (NumberFormatException e) {
            try {
                Instant at = ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                Duration d = Duration.between(Instant.now(), at);
                return d.isNegative() ? Duration.ZERO : d;
            } catch (RuntimeException e2) {
                return null;
            }
        }
    }

    static String clip(String s) {
        return s == null ? "" : s.length() <= 300 ? s : s.substring(0, 300) + "…";
    }

    static LlmException malformed(String backend, String what) {
        return new LlmException(LlmException.Kind.MALFORMED, backend + ": " + what);
    }
}
