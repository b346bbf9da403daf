package io.commitflow.llm;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A backend with the faults handled: retries of retryable failures (429 after its Retry-After, 5xx, timeouts,
 * resets) with exponential backoff and full jitter, all within the request's deadline; a circuit breaker per
 * endpoint; and at most {@code perTenant} requests in flight per tenant — more wait their turn (back-pressure, not
 * failure). A failure that cannot be retried, or the deadline, completes the future with the last
 * {@link LlmException} (where that is a connection's failure after the endpoint had answered 5xx or 429, with that
 * answer): the caller falls back to the built-in generator and records why.
 *
 * <p>The retries and the breaker are Resilience4j's ({@link Retry}, {@link CircuitBreaker}); what stays here is what
 * it does not know: the deadline, the Retry-After and jitter schedule, which fault is worth reporting, and the
 * tenants' queues.
 */
public final class ResilientBackend implements AutoCloseable {
    private final LlmBackend backend;
    private final CircuitBreaker breaker;
    private final int perTenant;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final Random random;
    private final ScheduledExecutorService timer;
    private final Map<String, Tenant> tenants = new ConcurrentHashMap<>();

    /** A tenant's permits and the requests waiting for one. */
    private static final class Tenant {
        int inFlight;
        final Queue<Runnable> waiting = new ArrayDeque<>();
    }

    /**
     * @param breaker the endpoint's circuit breaker, usually configured by {@link #breakerConfig(int, Duration)}; a
     *                client error (400 and the like) is not counted against the endpoint unless its config says so
     */
    public ResilientBackend(LlmBackend backend, CircuitBreaker breaker, int perTenant, Duration initialBackoff,
                            Duration maxBackoff, long seed) {
        if (perTenant < 1) {
            throw new IllegalArgumentException("per-tenant concurrency must be at least 1: " + perTenant);
        }
        this.backend = backend;
        this.breaker = breaker;
        this.perTenant = perTenant;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        this.random = new Random(seed);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "commitflow-llm-retry");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * A breaker that opens after {@code failuresInARow} failures in a row and refuses calls for {@code openFor}; then
     * it lets one call through (half-open) — a success closes it, a failure opens it again. A client error is ours,
     * not the endpoint's, so it is not counted; a slow answer is the deadline's business, not the breaker's.
     *
     * <p>"In a row" is Resilience4j's count window of {@code failuresInARow} calls that must all have failed.
     */
    public static CircuitBreakerConfig breakerConfig(int failuresInARow, Duration openFor) {
        if (failuresInARow < 1) {
            throw new IllegalArgumentException("threshold must be at least 1: " + failuresInARow);
        }
        return CircuitBreakerConfig.custom()
                .slidingWindow(failuresInARow, failuresInARow, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .failureRateThreshold(100)
                .waitDurationInOpenState(openFor)
                .permittedNumberOfCallsInHalfOpenState(1)
                .ignoreException(e -> e instanceof LlmException l && l.kind() == LlmException.Kind.CLIENT)
                .slowCallDurationThreshold(Duration.ofNanos(Long.MAX_VALUE))
                .build();
    }

    public String name() {
        return backend.name();
    }

    public CircuitBreaker breaker() {
        return breaker;
    }

    /** The completion for {@code tenant}, within {@code deadline} from now. */
    public CompletableFuture<LlmReply> complete(String tenant, LlmRequest request, Duration deadline) {
        CompletableFuture<LlmReply> out = new CompletableFuture<>();
        Request r = new Request(request, System.nanoTime() + deadline.toNanos());
        Tenant t = tenants.computeIfAbsent(tenant, x -> new Tenant());
        Runnable start = () -> r.run().whenComplete((reply, error) -> {
            if (error == null) {
                out.complete(reply);
            } else {
                out.completeExceptionally(r.reported(error));
            }
        });
        synchronized (t) {
            if (t.inFlight < perTenant) {
                t.inFlight++;
            } else {
                t.waiting.add(start);
                return out.whenComplete((x, e) -> release(t));
            }
        }
        start.run();
        return out.whenComplete((x, e) -> release(t));
    }

    private void release(Tenant t) {
        Runnable next;
        synchronized (t) {
            next = t.waiting.poll();
            if (next == null) {
                t.inFlight--;
            }
        }
        if (next != null) {
            next.run(); // the permit passes to the next waiting request
        }
    }

    /** One request's tries: Resilience4j's retry over the breaker, bounded by the request's deadline. */
    private final class Request {
        private final LlmRequest request;
        private final long end;
        /** The fault that made us try again (null before the first retry). */
        private LlmException last;
        /** The last fault the endpoint itself answered with (a 5xx or a 429; null when none). */
        private LlmException answered;

        Request(LlmRequest request, long end) {
            this.request = request;
            this.end = end;
        }

        CompletionStage<LlmReply> run() {
            Retry retry = Retry.of(backend.name(), RetryConfig.<LlmReply>custom()
                    .maxAttempts(Integer.MAX_VALUE) // the deadline, not a count, ends the tries
                    .retryOnException(this::worthAnotherTry)
                    .intervalBiFunction((tries, outcome) -> next(tries, fault(outcome.getLeft())))
                    .build());
            return Retry.decorateCompletionStage(retry, timer, this::attempt).get();
        }

        /**
         * One try through the breaker, given the rest of the deadline; it fails with an {@link LlmException} (or the
         * breaker's {@link CallNotPermittedException}), whatever went wrong. A try the deadline leaves no time for
         * reports the fault that made us retry, and the breaker never hears of it.
         */
        private CompletionStage<LlmReply> attempt() {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return CompletableFuture.failedFuture(last != null ? ResilientBackend.reported(last, answered)
                        : new LlmException(LlmException.Kind.TIMEOUT, backend.name() + ": the deadline passed"));
            }
            return breaker.decorateCompletionStage(() -> {
                CompletableFuture<LlmReply> f = new CompletableFuture<>();
                backend.complete(request, Duration.ofNanos(left)).whenComplete((reply, error) -> {
                    if (error == null) {
                        f.complete(reply);
                    } else {
                        f.completeExceptionally(fault(error));
                    }
                });
                return f;
            }).get();
        }

        /**
         * A retryable fault, unless it is the timeout of a retry: each try is given the rest of the deadline, so its
         * timeout is the deadline's.
         */
        private boolean worthAnotherTry(Throwable error) {
            return error instanceof LlmException e && e.kind().retryable
                    && !(e.kind() == LlmException.Kind.TIMEOUT && last != null);
        }

        /**
         * Milliseconds until the next try, after try {@code tries} (from 1) failed with {@code e}; -1 (no more tries)
         * when the next would start past the deadline. Only here, where a retry is decided, do {@code last} and
         * {@code answered} move on.
         */
        private long next(int tries, LlmException e) {
            long wait = backoff(tries - 1, e);
            if (System.nanoTime() + wait >= end) {
                return -1;
            }
            answered = answeredBy(e);
            last = e;
            return Duration.ofNanos(wait).toMillis();
        }

        /** The endpoint's own answer as of {@code e}: {@code e} if it is one (5xx, 429), else the one before it. */
        private LlmException answeredBy(LlmException e) {
            return e.kind() == LlmException.Kind.SERVER || e.kind() == LlmException.Kind.RATE_LIMITED ? e : answered;
        }

        /** The fault to give the caller when the tries end on {@code error}. */
        LlmException reported(Throwable error) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (cause instanceof CallNotPermittedException) {
                return new LlmException(LlmException.Kind.CIRCUIT_OPEN,
                        backend.name() + ": circuit open after repeated failures", null, last);
            }
            LlmException e = fault(cause);
            if (e.kind() == LlmException.Kind.TIMEOUT && last != null) {
                // the fault worth reporting is the one that made us retry
                LlmException worth = ResilientBackend.reported(last, answered);
                if (worth != e) {
                    worth.addSuppressed(e);
                }
                return worth;
            }
            return ResilientBackend.reported(e, answeredBy(e));
        }
    }

    private static LlmException fault(Throwable error) {
        return error instanceof LlmException l ? l : error.getCause() instanceof LlmException l2 ? l2
                : new LlmException(LlmException.Kind.CONNECTION, String.valueOf(error), null, error);
    }

    /**
     * The fault to report when the retries end on {@code e}: a connection's failure gives way to the last answer the
     * endpoint gave ({@code answered}, null: none), which it keeps as suppressed — an endpoint that answered 503 for
     * the whole deadline is failing, whatever happened to the connection of the last try (the JDK's client can lose
     * a pooled connection to a race, JDK-8336655).
     */
    private static LlmException reported(LlmException e, LlmException answered) {
        if (e.kind() != LlmException.Kind.CONNECTION || answered == null) {
            return e;
        }
        answered.addSuppressed(e);
        return answered;
    }

    /** Nanoseconds to wait: Retry-After when the server gave one, else full jitter over an exponential ceiling. */
    private long backoff(int tries, LlmException e) {
        if (e.retryAfter() != null) {
            return e.retryAfter().toNanos();
        }
        long ceiling = Math.min(maxBackoff.toNanos(), initialBackoff.toNanos() << Math.min(tries, 20));
        synchronized (random) {
            return (long) (random.nextDouble() * ceiling);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
