package io.commitflow.cli;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Origin;
import io.commitflow.git.CommitDiffer;
import io.commitflow.git.DiffBudget;
import io.commitflow.git.History;
import org.eclipse.jgit.lib.Repository;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Interactive traffic beside the load test's learning traffic: drafts sent at a fixed rate through a
 * {@link DraftClient}, as {@code commitflow suggest} sends them, each timed from just before it is sent until its
 * reply is read — the round trip a connected hook sees (its JVM's start is not in it).
 */
final class DraftLoad {
    /**
     * The round trips of the drafts answered.
     *
     * @param timedOut drafts without a reply within the wait ({@link #REPLY_WAIT})
     */
    record Figures(double perSecond, int sent, int answered, int refused, int timedOut, double p50Ms, double p95Ms,
                   double p99Ms, double maxMs, String firstRefusal) {
        String line() {
            return String.format(Locale.ROOT, "drafts: %d sent at %.1f/s beside the replay after its warm-up, %d answered, "
                    + "%d refused, %d without a reply in %d s; round trip P50 %.0f ms, P95 %.0f ms, P99 %.0f ms, max %.0f ms%s",
                    sent, perSecond, answered, refused, timedOut, REPLY_WAIT.toSeconds(), p50Ms, p95Ms, p99Ms, maxMs,
                    firstRefusal == null ? "" : "; first refusal: " + firstRefusal);
        }
    }

    static final Duration REPLY_WAIT = Duration.ofSeconds(10);

    private final DraftClient client;
    private final String tenant;
    private final String repo;
    private final List<String> patches;
    private final double perSecond;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<CompletableFuture<Long>> rounds = new ArrayList<>();
    private final AtomicInteger refused = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicReference<String> firstRefusal =
            new java.util.concurrent.atomic.AtomicReference<>();
    private Thread sender;

    DraftLoad(DraftClient client, String tenant, String repo, List<String> patches, double perSecond) {
        if (patches.isEmpty()) {
            throw new IllegalArgumentException("no patches to send as drafts");
        }
        this.client = client;
        this.tenant = tenant;
        this.repo = repo;
        this.patches = List.copyOf(patches);
        this.perSecond = perSecond;
    }

    /**
     * Up to {@code n} patches of the history, evenly spread over it, in git's format and cut to the job's default diff
     * budget: what a developer would stage.
     */
    static List<String> patches(Repository repo, List<History.Commit> commits, int n) throws IOException {
        CommitDiffer differ = new CommitDiffer(DiffBudget.UNTIMED);
        List<String> out = new ArrayList<>();
        int step = Math.max(1, commits.size() / Math.max(1, n));
        for (int i = 0; i < commits.size() && out.size() < n; i += step) {
            History.Commit c = commits.get(i);
            CommitEvent e = new CommitEvent("load", "load", c.sha(), c.parents(), "", 0L, null, null, "load",
                    Origin.synthetic(0L));
            try {
                var diffed = differ.diff(repo, e);
                if (!diffed.patch().isBlank() && !diffed.truncated()) { // a cut patch is not one git would print
                    out.add(diffed.patch());
                }
            } catch (InvalidEventException ex) {
                // a commit that cannot be diffed (a gap in a shallow history): another one serves
            }
        }
        return out;
    }

    /** Starts sending after {@code delay} (the replay's warm-up: the drafts measure a warm job). */
    void start(Duration delay) {
        sender = new Thread(() -> {
            try {
                Thread.sleep(delay.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            send();
        }, "commitflow-loadtest-drafts");
        sender.setDaemon(true);
        sender.start();
    }

    private void send() {
        long periodNanos = (long) (1e9 / perSecond);
        long next = System.nanoTime();
        for (int i = 0; !stop.get(); i++) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } catch (InterruptedException e) {
                    return;
                }
            }
            next += periodNanos;
            long start = System.nanoTime();
            CompletableFuture<Long> round = new CompletableFuture<>();
            try {
                client.ask(tenant, repo, patches.get(i % patches.size()), DraftClient.newTraceId()).whenComplete((r, e) -> {
                    if (r instanceof DraftClient.Reply.Suggested) {
                        round.complete(System.nanoTime() - start);
                        return;
                    }
                    refused.incrementAndGet();
                    firstRefusal.compareAndSet(null, r instanceof DraftClient.Reply.Refused f
                            ? f.reason() + ": " + f.detail() : String.valueOf(e));
                    round.complete(-1L);
                });
            } catch (UserError e) {
                firstRefusal.compareAndSet(null, e.getMessage());
                refused.incrementAndGet();
                round.complete(-1L);
            }
            synchronized (rounds) {
                rounds.add(round);
            }
        }
    }

    /** Stops sending, waits up to {@link #REPLY_WAIT} for the replies still out, and sums up. */
    Figures stop() throws InterruptedException {
        stop.set(true);
        if (sender != null) {
            sender.interrupt();
            sender.join(TimeUnit.SECONDS.toMillis(5));
        }
        List<CompletableFuture<Long>> all;
        synchronized (rounds) {
            all = List.copyOf(rounds);
        }
        long deadline = System.nanoTime() + REPLY_WAIT.toNanos();
        List<Long> answered = new ArrayList<>();
        int timedOut = 0;
        for (CompletableFuture<Long> f : all) {
            try {
                long left = Math.max(1, deadline - System.nanoTime());
                long nanos = f.get(left, TimeUnit.NANOSECONDS);
                if (nanos >= 0) {
                    answered.add(nanos);
                }
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                timedOut++;
            }
        }
        long[] sorted = answered.stream().mapToLong(Long::longValue).sorted().toArray();
        return new Figures(perSecond, all.size(), sorted.length, refused.get(), timedOut, ms(sorted, 50), ms(sorted, 95),
                ms(sorted, 99), ms(sorted, 100), firstRefusal.get());
    }

    /** The load report's nearest-rank quantile of the sorted round trips, in ms; NaN when there are none. */
    private static double ms(long[] sortedNanos, double percent) {
        return LoadReport.quantile(sortedNanos, percent) / 1e6;
    }
}
