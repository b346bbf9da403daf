package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.mirror.MirrorMetrics;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Prometheus server (Debian's {@code prometheus}; {@code .ci/run} installs it) scrapes {@code commitflow
 * demo} while it runs, and the SLA gauges of the demo's tenant can be queried through Prometheus's HTTP API. The
 * Grafana dashboard is checked against the same server: its {@code $job} and {@code $tenant} variables list the demo's
 * job and tenant, and every panel query is valid PromQL that reads series the job (or {@link MirrorMetrics}) exports.
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
            JsonNode tps = null;
            JsonNode scored = null;
            JsonNode bnorm = null;
            // live quality: the replayed events carry their real messages, so the job scored its own suggestions
            String quality = "flink_taskmanager_job_task_operator_tenant_backend_slaQuality";
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            // each gauge is registered when its first window closes, so one scrape can hold some and not yet others:
            // wait until Prometheus has all four (or the demo ends)
            while (System.nanoTime() < deadline && !demo.isDone()) {
                series = query(http, promPort, GAUGE + "{tenant=\"acme\",backend=\"all\"}");
                tps = query(http, promPort, "flink_taskmanager_job_task_operator_tenant_backend_slaThroughputPerSecond{tenant=\"acme\",backend=\"retrieval\"}");
                scored = query(http, promPort, "max_over_time(" + quality + "ScoredSuggestions{tenant=\"acme\",backend=\"all\"}[10m])");
                bnorm = query(http, promPort, "max_over_time(" + quality + "BnormPercent{tenant=\"acme\",backend=\"all\"}[10m])");
                if (series != null && tps != null && scored != null && bnorm != null) {
                    break;
                }
                Thread.sleep(500);
            }
            // every series the Grafana dashboard reads exists, and each of its queries is valid PromQL with its
            // variables filled in as Grafana does: "All" (.*) and a value their own label_values queries list
            JsonNode dashboard = Json.mapper().readTree(HOME.resolve("flink-conf/grafana/commitflow-sla.json").toFile());
            Map<String, String> all = new HashMap<>();
            Map<String, List<String>> listed = new HashMap<>();
            for (JsonNode variable : dashboard.path("templating").path("list")) {
                String name = variable.path("name").asText();
                all.put(name, variable.path("allValue").asText());
                Matcher lv = Pattern.compile("label_values\\((.+), (\\w+)\\)").matcher(variable.path("definition").asText());
                assertThat(lv.matches()).as("$%s is a label_values query: %s", name, variable.path("definition")).isTrue();
                listed.put(name, labelValues(http, promPort, lv.group(2), fill(lv.group(1), all)));
            }
            List<String> jobs = listed.getOrDefault("job", List.of());
            Map<String, String> chosen = Map.of("tenant", "acme", "job", jobs.isEmpty() ? "none" : jobs.get(0));
            Set<String> names = new TreeSet<>();
            List<String> exprs = new ArrayList<>();
            for (JsonNode panel : dashboard.path("panels")) {
                for (JsonNode target : panel.path("targets")) {
                    String expr = target.path("expr").asText();
                    exprs.add(expr);
                    Matcher m = Pattern.compile("(flink|commitflow_mirror)_[A-Za-z0-9_]+").matcher(expr);
                    while (m.find()) {
                        names.add(m.group());
                    }
                }
            }
            // the demo runs no mirror service: its series are those MirrorMetrics writes
            Set<String> mirrorSeries = new MirrorMetrics().prometheusText().lines().filter(l -> !l.startsWith("#"))
                    .map(l -> l.split("[{ ]", 2)[0]).collect(Collectors.toSet());
            List<String> missing = new ArrayList<>();
            for (String name : names) {
                boolean exists = name.startsWith("commitflow_mirror_") ? mirrorSeries.contains(name)
                        : query(http, promPort, "count({__name__=\"" + name + "\"})") != null;
                if (!exists) {
                    missing.add(name);
                }
            }
            List<String> invalid = new ArrayList<>();
            List<String> emptyForTheTenant = new ArrayList<>();
            for (String expr : exprs) {
                for (Map<String, String> values : List.of(all, chosen)) {
                    if (!status(http, promPort, fill(expr, values)).startsWith("success")) {
                        invalid.add(fill(expr, values));
                    }
                }
                if (expr.contains("$tenant") && query(http, promPort, fill(expr, chosen)) == null) {
                    emptyForTheTenant.add(fill(expr, chosen));
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
            assertThat(listed.keySet()).containsExactlyInAnyOrder("job", "tenant");
            assertThat(listed.get("tenant")).as("$tenant's values").contains("acme");
            assertThat(jobs).as("$job's values").isNotEmpty();
            assertThat(names).hasSizeGreaterThan(8).contains("flink_jobmanager_job_numRestarts",
                    "flink_jobmanager_job_numberOfFailedCheckpoints", "commitflow_mirror_syncs_total");
            assertThat(missing).as("series the dashboard reads that Prometheus (or MirrorMetrics) does not have").isEmpty();
            assertThat(invalid).as("dashboard queries Prometheus refuses").isEmpty();
            assertThat(emptyForTheTenant).as("per-tenant queries without a series for tenant acme of job %s",
                    chosen.get("job")).isEmpty();
            assertThat(exit).as(output.toString()).isZero();
        } finally {
            prom.destroy();
            if (!prom.waitFor(10, TimeUnit.SECONDS)) {
                prom.destroyForcibly();
            }
        }
    }

    /** A query with Grafana's variables ({@code $name} or {@code ${name}}) replaced by {@code values}. */
    private static String fill(String expr, Map<String, String> values) {
        return Pattern.compile("\\$(?:\\{(\\w+)}|(\\w+))").matcher(expr).replaceAll(m -> {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            String v = values.get(name);
            assertThat(v).as("a value for $%s in %s", name, expr).isNotNull();
            return Matcher.quoteReplacement(v);
        });
    }

    /** The values of {@code label} on the series {@code selector} matches, as Grafana's label_values lists them. */
    private static List<String> labelValues(HttpClient http, int port, String label, String selector)
            throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/v1/label/" + label + "/values?match[]=" + URLEncoder.encode(selector, StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("label values %s of %s: %s", label, selector, r.body()).isEqualTo(200);
        List<String> values = new ArrayList<>();
        Json.mapper().readTree(r.body()).path("data").forEach(v -> values.add(v.asText()));
        return values;
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
