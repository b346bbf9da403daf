package io.commitflow.mirror;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The mirror service's counters, in Prometheus' text format: one per outcome, the time spent in git, what is running. */
public final class MirrorMetrics {
    private final Map<MirrorSync.Outcome, AtomicLong> outcomes = new EnumMap<>(MirrorSync.Outcome.class);
    private final AtomicLong gitNanos = new AtomicLong();
    private final AtomicLong attempts = new AtomicLong();
    final AtomicInteger running = new AtomicInteger();

    public MirrorMetrics() {
        for (MirrorSync.Outcome o : MirrorSync.Outcome.values()) {
            outcomes.put(o, new AtomicLong());
        }
    }

    void outcome(MirrorSync.Outcome o) {
        outcomes.get(o).incrementAndGet();
    }

    void gitRan(long nanos) {
        attempts.incrementAndGet();
        gitNanos.addAndGet(nanos);
    }

    public long count(MirrorSync.Outcome o) {
        return outcomes.get(o).get();
    }

    /** Clones and fetches run, successful or not. */
    public long attempts() {
        return attempts.get();
    }

    public String prometheusText() {
        StringBuilder b = new StringBuilder();
        b.append("# HELP commitflow_mirror_syncs_total Events handled by outcome: present (the mirror had the commit), "
                + "cloned, fetched, missing (the server has no such repository), failed (gave up after retries), refused "
                + "(a name outside the mirror root, or no source for the tenant).\n");
        b.append("# TYPE commitflow_mirror_syncs_total counter\n");
        outcomes.forEach((o, n) -> b.append("commitflow_mirror_syncs_total{outcome=\"").append(o.label()).append("\"} ")
                .append(n.get()).append('\n'));
        b.append("# HELP commitflow_mirror_git_runs_total Clones and fetches run, retries included.\n");
        b.append("# TYPE commitflow_mirror_git_runs_total counter\n");
        b.append("commitflow_mirror_git_runs_total ").append(attempts.get()).append('\n');
        b.append("# HELP commitflow_mirror_git_seconds_total Seconds spent in git clone and fetch.\n");
        b.append("# TYPE commitflow_mirror_git_seconds_total counter\n");
        b.append(String.format(Locale.ROOT, "commitflow_mirror_git_seconds_total %.3f%n", gitNanos.get() / 1e9));
        b.append("# HELP commitflow_mirror_git_running Clones and fetches running now.\n");
        b.append("# TYPE commitflow_mirror_git_running gauge\n");
        b.append("commitflow_mirror_git_running ").append(running.get()).append('\n');
        return b.toString();
    }
}
