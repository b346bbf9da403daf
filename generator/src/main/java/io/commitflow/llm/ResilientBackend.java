package io.commitflow.llm;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A backend with the faults handled: retries of retryable failures (429 after its Retry-After, 5xx, timeouts,
 * resets) with exponential backoff and full jitter, all within the request's deadline; a circuit breaker per
 * endpoint; and at most {@code perTenant} requests in flight per tenant — more wait their turn (back-pressure, not
 * failure). A failure that cannot be retried, or the deadline, completes the future with the last
 * {@link LlmException} (where that is a connection's failure after the endpoint had answered 5xx or 429, with that
 * answer): the caller falls back to the built-in generator and records why.
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

    public String name() {
        return backend.name();
    }

    public CircuitBreaker breaker() {
        return breaker;
    }

    /** The completion for {@code tenant}, within {@code deadline} from now. */
    public CompletableFuture<LlmReply> complete(String tenant, LlmRequest request, Duration deadline) {
        CompletableFuture<LlmReply> out = new CompletableFuture<>();
        long end = System.nanoTime() + deadline.toNanos();
        Tenant t = tenants.computeIfAbsent(tenant, x -> new Tenant());
        Runnable start = () -> attempt(request, end, 0, out, null, null);
        synchronized (t) {
            if (t.inFlight < perTenant) {
                t.inFlight++;
            } else {
                t.waiting.add(start);
                return out.whenComplete((r, e) -> release(t));
            }
        }
        start.run();
        return out.whenComplete((r, e) -> release(t));
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

    /**
     * One try of {@code request}; {@code last} is the fault that made us try again, {@code answered} the last fault the
     * endpoint itself answered with (a 5xx or a 429; null when none).
     */
    private void attempt(LlmRequest request, long end, int tries, CompletableFuture<LlmReply> out, LlmException last,
                         LlmException answered) {
        long left = end - System.nanoTime();
        if (left <= 0) {
            out.completeExceptionally(last != null ? reported(last, answered)
                    : new LlmException(LlmException.Kind.TIMEOUT, backend.name() + ": the deadline passed"));
            return;
        }
        if (!breaker.allow()) {
            out.completeExceptionally(new LlmException(LlmException.Kind.CIRCUIT_OPEN,
                    backend.name() + ": circuit open after repeated failures", null, last));
            return;
        }
        backend.complete(request, Duration.ofNanos(left)).whenComplete((reply, error) -> {
            if (error == null) {
                breaker.success();
                out.complete(reply);
                return;
            }
            LlmException e = error instanceof LlmException l ? l : error.getCause() instanceof LlmException l2 ? l2
                    : new LlmException(LlmException.Kind.CONNECTION, String.valueOf(error), null, error);
            if (e.kind() != LlmException.Kind.CLIENT) {
                breaker.failure(); // a bad request is ours, not the endpoint's
            }
            if (e.kind() == LlmException.Kind.TIMEOUT && last != null) {
                // each try is given the rest of the deadline, so its timeout is the deadline's: the fault worth
                // reporting is the one that made us retry
                LlmException worth = reported(last, answered);
                worth.addSuppressed(e);
                out.completeExceptionally(worth);
                return;
            }
            if (!e.kind().retryable) {
                out.completeExceptionally(e);
                return;
            }
            LlmException endpoints = e.kind() == LlmException.Kind.SERVER || e.kind() == LlmException.Kind.RATE_LIMITED
                    ? e : answered;
            long wait = backoff(tries, e);
            if (System.nanoTime() + wait >= end) {
                out.completeExceptionally(reported(e, endpoints)); // no time left for another try
                return;
            }
            timer.schedule(() -> attempt(request, end, tries + 1, out, e, endpoints), wait, TimeUnit.NANOSECONDS);
        });
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

    /** Retry-After when the server gave one, else full jitter over an exponential ceiling. */
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
