package io.commitflow.mirror;

import io.commitflow.metrics.PrometheusText;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;

import java.io.IOException;

/**
 * The mirror service's metrics: one count per outcome, the time spent in git, what is running — kept by the Prometheus
 * client in a registry of their own (nothing else shows up beside them) and served by its HTTP server.
 *
 * <p>The names, help texts and labels are what dashboards and alerts read; the client keeps a counter's {@code _total}
 * in the text format's sample, HELP and TYPE lines alike.
 */
public final class MirrorMetrics {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter syncs = Counter.builder()
            .name("commitflow_mirror_syncs_total")
            .help("Events handled by outcome: present (the mirror had the commit), cloned, fetched, missing (the server "
                    + "has no such repository), failed (gave up after retries), refused (a name outside the mirror "
                    + "root, or no source for the tenant).")
            .labelNames("outcome")
            .register(registry);
    private final Counter gitRuns = Counter.builder()
            .name("commitflow_mirror_git_runs_total")
            .help("Clones and fetches run, retries included.")
            .register(registry);
    private final Counter gitSeconds = Counter.builder()
            .name("commitflow_mirror_git_seconds_total")
            .unit(Unit.SECONDS)
            .help("Seconds spent in git clone and fetch.")
            .register(registry);
    private final Gauge gitRunning = Gauge.builder()
            .name("commitflow_mirror_git_running")
            .help("Clones and fetches running now.")
            .register(registry);

    public MirrorMetrics() {
        for (MirrorSync.Outcome o : MirrorSync.Outcome.values()) {
            syncs.labelValues(o.label()); // every outcome shows, at 0 until it happens
        }
    }

    void outcome(MirrorSync.Outcome o) {
        syncs.labelValues(o.label()).inc();
    }

    void gitStarted() {
        gitRunning.inc();
    }

    void gitEnded() {
        gitRunning.dec();
    }

    void gitRan(long nanos) {
        gitRuns.inc();
        gitSeconds.inc(nanos / 1e9);
    }

    public long count(MirrorSync.Outcome o) {
        return (long) syncs.labelValues(o.label()).get();
    }

    /** Clones and fetches run, successful or not. */
    public long attempts() {
        return (long) gitRuns.get();
    }

    /** What a scrape of {@link #serve(int)}'s {@code /metrics} reads, in Prometheus' text format. */
    public String prometheusText() {
        return PrometheusText.of(registry);
    }

    /**
     * Serves these metrics on {@code /metrics} at {@code port} (every interface) until the server is closed.
     *
     * @throws java.net.BindException the port is taken
     */
    public HTTPServer serve(int port) throws IOException {
        return HTTPServer.builder().port(port).registry(registry).buildAndStart();
    }
}
