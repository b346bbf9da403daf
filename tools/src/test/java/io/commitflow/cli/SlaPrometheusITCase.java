package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.testing.GitHistory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Prometheus server (Debian's {@code prometheus}; {@code .ci/run} installs it) scrapes {@code commitflow
 * demo} while it runs, and the SLA gauges of the demo's tenant can be queried through Prometheus's HTTP API.
 */
class SlaPrometheusITCase {
    private static final Path HOME = DemoITCase.HOME;
    private static final String GAUGE = "flink_taskmanager_job_task_operator_tenant_backend_slaLatencyP99Millis";

    @TempDir
    static Path work;

    @BeforeAll
    static void brokerClasspath() throws IOException {
        DemoITCase.brokerClasspath();
    }

    static Path prometheus() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path p = Path.of(dir, "prometheus");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        Assumptions.abort("no prometheus binary on PATH: install Debian's package (apt-get install prometheus; "
                + ".ci/run does when it can) to run this test");
        return null;
    }

    @Test
    void prometheusScrapesTheSlaGaugesOfTheRunningJob() throws Exception {
        Path binary = prometheus();
        GitHistory.create(work, "history.git", 80);
        int webPort = DemoITCase.freePort();
        int metricsPort = DemoITCase.freePort();
        int promPort = DemoITCase.freePort();
        Path config = work.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                scrape_configs:
                  - job_name: commitflow
                    static_configs:
                      - targets: ['localhost:%d']
                """.formatted(metricsPort));
        Process prom = new ProcessBuilder(binary.toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + work.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + promPort)
                .redirectErrorStream(true).redirectOutput(work.resolve("prometheus.log").toFile()).start();
        try {
            StringWriter output = new StringWriter();
            var cli = Commitflow.commandLine();
            cli.setOut(new PrintWriter(output, true));
            cli.setErr(new PrintWriter(output, true));
            // small windows so that several close while the demo runs (80 commits at 4 per second)
            CompletableFuture<Integer> demo = CompletableFuture.supplyAsync(() -> cli.execute("demo",
                    "--repo", work.resolve("history.git").toString(), "--max", "80", "--rate", "4", "--tenant", "acme",
                    "--web-port", Integer.toString(webPort), "--metrics-port", Integer.toString(metricsPort),
                    "--sla-window", "2s", "--sla-slide", "1s", "--sla-out-of-orderness", "500ms", "--sla-idleness", "1s"));

            HttpClient http = HttpClient.newHttpClient();
            JsonNode series = null;
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (series == null && System.nanoTime() < deadline && !demo.isDone()) {
                series = query(http, promPort, GAUGE + "{tenant=\"acme\",backend=\"all\"}");
                if (series == null) {
                    Thread.sleep(500);
                }
            }
            JsonNode tps = query(http, promPort, "flink_taskmanager_job_task_operator_tenant_backend_slaThroughputPerSecond{tenant=\"acme\",backend=\"retrieval\"}");
            // live quality: the replayed events carry their real messages, so the job scored its own suggestions
            String quality = "flink_taskmanager_job_task_operator_tenant_backend_slaQuality";
            JsonNode scored = query(http, promPort, "max_over_time(" + quality + "ScoredSuggestions{tenant=\"acme\",backend=\"all\"}[10m])");
            JsonNode bnorm = query(http, promPort, "max_over_time(" + quality + "BnormPercent{tenant=\"acme\",backend=\"all\"}[10m])");
            // every series the Grafana dashboard reads exists, and each of its queries is valid PromQL
            JsonNode dashboard = Json.mapper().readTree(HOME.resolve("flink-conf/grafana/commitflow-sla.json").toFile());
            java.util.Set<String> names = new java.util.TreeSet<>();
            java.util.List<String> exprs = new java.util.ArrayList<>();
            for (JsonNode panel : dashboard.path("panels")) {
                for (JsonNode target : panel.path("targets")) {
                    String expr = target.path("expr").asText();
                    exprs.add(expr);
                    java.util.regex.Matcher m = java.util.regex.Pattern.compile("flink_[A-Za-z0-9_]+").matcher(expr);
                    while (m.find()) {
                        names.add(m.group());
                    }
                }
            }
            java.util.List<String> missing = new java.util.ArrayList<>();
            for (String name : names) {
                if (query(http, promPort, "count({__name__=\"" + name + "\"})") == null) {
                    missing.add(name);
                }
            }
            java.util.List<String> invalid = new java.util.ArrayList<>();
            for (String expr : exprs) {
                if (!status(http, promPort, expr).startsWith("success")) {
                    invalid.add(expr);
                }
            }
            int exit = demo.get(5, TimeUnit.MINUTES);

            assertThat(series).as("the gauge through Prometheus while the demo ran; demo printed:\n%s\nprometheus log:\n%s",
                    output, Files.readString(work.resolve("prometheus.log"))).isNotNull();
            assertThat(series.path("metric").path("job").asText()).isEqualTo("commitflow");
            assertThat(series.path("value").get(1).asDouble()).as("P99 in ms").isGreaterThan(0);
            assertThat(tps).isNotNull();
            assertThat(tps.path("value").get(1).asDouble()).as("suggestions per second").isGreaterThan(0);
            assertThat(scored).isNotNull();
            assertThat(scored.path("value").get(1).asDouble()).as("suggestions scored in a window").isGreaterThan(0);
            assertThat(bnorm).isNotNull();
            assertThat(bnorm.path("value").get(1).asDouble()).as("mean B-Norm, percent").isBetween(0.0, 100.0);
            assertThat(names).hasSizeGreaterThan(8);
            assertThat(missing).as("series the dashboard reads that Prometheus does not have").isEmpty();
            assertThat(invalid).as("dashboard queries Prometheus refuses").isEmpty();
            assertThat(exit).as(output.toString()).isZero();
        } finally {
            prom.destroy();
            if (!prom.waitFor(10, TimeUnit.SECONDS)) {
                prom.destroyForcibly();
            }
        }
    }

    /** The status of an instant query: {@code success}, or why not. */
    private static String status(HttpClient http, int port, String promql) throws InterruptedException {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return Json.mapper().readTree(r.body()).path("status").asText() + " " + r.body();
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** The first series an instant query returns, or null. */
    private static JsonNode query(HttpClient http, int port, String promql) throws InterruptedException {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return null;
            }
            JsonNode result = Json.mapper().readTree(r.body()).path("data").path("result");
            return result.isArray() && !result.isEmpty() ? result.get(0) : null;
        } catch (IOException e) {
            return null; // not up yet
        }
    }
}
