package io.commitflow.mirror;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import org.junit.jupiter.api.Test;

import java.net.BindException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The names, help texts, types and labels that dashboards and alerts read, as a scrape of /metrics sees them. */
class MirrorMetricsTest {
    @Test
    void servesTheMetricsUnderTheirNamesOnMetrics() throws Exception {
        MirrorMetrics m = new MirrorMetrics();
        m.outcome(MirrorSync.Outcome.MISSING);
        m.outcome(MirrorSync.Outcome.MISSING);
        m.gitStarted();
        m.gitRan(1_500_000_000L);
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        try (HTTPServer http = m.serve(port)) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("content-type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
            assertThat(r.body()).isEqualTo(m.prometheusText());
            assertThat(r.body().lines()).contains(
                    "# HELP commitflow_mirror_syncs_total Events handled by outcome: present (the mirror had the commit), "
                            + "cloned, fetched, missing (the server has no such repository), failed (gave up after "
                            + "retries), refused (a name outside the mirror root, or no source for the tenant).",
                    "# TYPE commitflow_mirror_syncs_total counter",
                    "commitflow_mirror_syncs_total{outcome=\"missing\"} 2.0",
                    "commitflow_mirror_syncs_total{outcome=\"cloned\"} 0.0",
                    "# HELP commitflow_mirror_git_runs_total Clones and fetches run, retries included.",
                    "# TYPE commitflow_mirror_git_runs_total counter",
                    "commitflow_mirror_git_runs_total 1.0",
                    "# HELP commitflow_mirror_git_seconds_total Seconds spent in git clone and fetch.",
                    "# TYPE commitflow_mirror_git_seconds_total counter",
                    "commitflow_mirror_git_seconds_total 1.5",
                    "# HELP commitflow_mirror_git_running Clones and fetches running now.",
                    "# TYPE commitflow_mirror_git_running gauge",
                    "commitflow_mirror_git_running 1.0");
            assertThat(r.body().lines().filter(l -> l.startsWith("commitflow_mirror_syncs_total{")))
                    .as("every outcome, counted or not").hasSize(MirrorSync.Outcome.values().length);
            assertThat(r.body().lines().filter(l -> !l.startsWith("#")).map(l -> l.substring(0, l.indexOf(' '))))
                    .as("nothing but the mirror's own metrics")
                    .allMatch(name -> name.startsWith("commitflow_mirror_"));
            assertThat(m.count(MirrorSync.Outcome.MISSING)).isEqualTo(2);
            assertThat(m.attempts()).isEqualTo(1);

            assertThatThrownBy(() -> m.serve(port)).as("the port is taken").isInstanceOf(BindException.class);
        }
    }
}
