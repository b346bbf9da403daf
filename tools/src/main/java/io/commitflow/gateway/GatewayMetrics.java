package io.commitflow.gateway;

import io.commitflow.metrics.PrometheusText;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;


/**
 * The gateway's metrics, in a registry of their own, served on its {@code /metrics}: requests by route and status,
 * their latency, what is in flight, and the events and drafts sent to Kafka. A route is one of the gateway's paths
 * ({@code /v1/suggestions}, {@code /v1/webhooks/github}, …) or {@code other}, so that no caller can add series.
 */
public final class GatewayMetrics {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter requests = Counter.builder()
            .name("commitflow_gateway_requests_total")
            .help("HTTP requests answered, by route and status code.")
            .labelNames("route", "status")
            .register(registry);
    private final Histogram latency = Histogram.builder()
            .name("commitflow_gateway_request_duration_seconds")
            .unit(Unit.SECONDS)
            .help("Time from a request's arrival to its answer, by route; a suggestion's includes the job's answer.")
            .labelNames("route")
            .classicOnly()
            .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
            .register(registry);
    private final Gauge inFlight = Gauge.builder()
            .name("commitflow_gateway_requests_in_flight")
            .help("Requests being answered now.")
            .register(registry);
    private final Counter produced = Counter.builder()
            .name("commitflow_gateway_produced_total")
            .help("Records the broker took: push events by Git server (gitlab, gitea, github) and drafts (draft).")
            .labelNames("kind")
            .register(registry);

    public GatewayMetrics() {
        for (GitServer s : GitServer.values()) {
            produced.labelValues(s.id());
        }
        produced.labelValues("draft");
    }

    void started() {
        inFlight.inc();
    }

    void answered(String route, int status, long nanos) {
        inFlight.dec();
        requests.labelValues(route, Integer.toString(status)).inc();
        latency.labelValues(route).observe(nanos / 1e9);
    }

    void produced(String kind) {
        produced.labelValues(kind).inc();
    }

    /** Requests answered on a route with a status, for tests. */
    public long count(String route, int status) {
        return (long) requests.labelValues(route, Integer.toString(status)).get();
    }

    /** What {@code /metrics} serves, in Prometheus' text format. */
    public String prometheusText() {
        return PrometheusText.of(registry);
    }
}
