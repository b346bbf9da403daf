package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.testing.GitHistory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code commitflow loadtest} end to end on a small history: its report has the reference report's fields. */
class LoadTestITCase {
    @TempDir
    static Path dir;

    @BeforeAll
    static void brokerClasspath() throws IOException {
        DemoITCase.brokerClasspath();
    }

    @Test
    void measuresEachStepAndWritesTheJsonAndHtmlReports() throws Exception {
        GitHistory.create(dir, "app.git", 25);
        StringWriter output = new StringWriter();
        var cli = Commitflow.commandLine();
        cli.setOut(new PrintWriter(output, true));
        cli.setErr(new PrintWriter(output, true));
        Path report = dir.resolve("report");

        // a backlog of 12, a warm-up of 10, then 30 + 60 events from 25 commits: the history runs again under other
        // repository names, over two tenants; a repository of a third tenant joins at the second step. Parallelism 4
        // on two cores: the local cluster gets four slots, and every event is answered
        int exit = cli.execute("loadtest", "--repo", dir.resolve("app.git").toString(), "--rate", "steps:10,20/3s",
                "--warmup", "1s", "--backlog", "12", "--tenants", "2", "--report", report.toString(), "--web-port",
                Integer.toString(DemoITCase.freePort()), "--metrics-port", Integer.toString(DemoITCase.freePort()),
                "--drain-timeout", "90s", "--new-repos", "1", "--reference-runs", "1", "--parallelism", "4");

        assertThat(exit).as(output.toString()).isZero();
        assertThat(output.toString()).contains("the job runs: 4 task slots", "112 outcomes for 112 events");
        JsonNode steps = Json.mapper().readTree(report.resolve("report.json").toFile());
        assertThat(steps).extracting(s -> s.path("step").asText()).containsExactly("backlog", "warm-up", "1", "2",
                "reference");
        for (JsonNode s : steps) {
            if (s.path("step").asText().equals("reference")) {
                continue;
            }
            List<String> fields = new ArrayList<>();
            s.fieldNames().forEachRemaining(fields::add);
            assertThat(fields).startsWith("step", "offered_per_s", "tps", "p50_ms", "p95_ms", "p99_ms", "p999_ms",
                    "error_rate", "peak_rss_mb", "cpu_ms_per_commit", "visible_p50_ms", "visible_p95_ms", "visible_p99_ms",
                    "visible_p999_ms");
            assertThat(s.path("p50_ms").asDouble()).isPositive().isLessThanOrEqualTo(s.path("p999_ms").asDouble());
            assertThat(s.path("visible_p50_ms").asDouble()).as("seen by the consumer after it was made")
                    .isGreaterThanOrEqualTo(s.path("p50_ms").asDouble());
            assertThat(s.path("cpu_ms_per_commit").asDouble()).as(s.toString()).isPositive();
            assertThat(s.path("error_rate").asDouble()).isZero();
        }
        assertThat(steps.get(0).path("drain_s").asDouble()).as("the backlog's catch-up").isPositive();
        assertThat(steps.get(3).path("new_tenant_p99_ms").asDouble()).as("tenant-2's repository").isPositive();
        assertThat(steps.get(3).path("p99_vs_previous_step").asDouble()).isPositive();
        assertThat(steps.get(2).has("p99_vs_previous_step")).as("the step before is the warm-up").isFalse();
        JsonNode reference = steps.get(4);
        assertThat(reference.path("commits").asInt()).isEqualTo(25);
        assertThat(reference.path("diff_code_commits_per_s").asDouble()).isPositive();
        assertThat(reference.path("git_log_p_commits_per_s").asDouble()).as("git is on the PATH here").isPositive();
        assertThat(steps.get(3).path("cpu_vs_diff_code").asDouble()).isPositive();
        assertThat(steps.get(3).path("tps_vs_git_log_p").asDouble()).isPositive();
        assertThat(steps.get(3).path("peak_rss_mb").asDouble()).isGreaterThan(50);
        assertThat(steps.get(0).path("peak_rss_mb").asDouble()).as("sampled during the catch-up too").isGreaterThan(50);
        // the job's own consumer lag, sampled from its Prometheus endpoint once a second
        assertThat(steps.get(3).has("peak_backlog_records")).as(steps.get(3).toString()).isTrue();
        assertThat(steps.get(3).path("peak_backlog_records").asDouble()).isNotNegative();
        assertThat(steps.get(3).path("peak_event_age_ms").asDouble()).isNotNegative();
        assertThat(output.toString()).contains("backlog  lag s");
        assertThat(steps.get(1).path("offered_per_s").asDouble()).isBetween(8.0, 12.0);
        assertThat(steps.get(2).path("offered_per_s").asDouble()).isBetween(8.0, 12.0);
        assertThat(steps.get(3).path("offered_per_s").asDouble()).isBetween(16.0, 24.0);
        String html = Files.readString(report.resolve("report.html"));
        assertThat(html.split("<svg", -1)).hasSize(4);
        assertThat(html).contains("tenant-0", "tenant-1", "tenant-2", "Achieved vs offered");
        assertThat(html.replace("http://www.w3.org/2000/svg", "")).as("viewable offline").doesNotContain("http", "<script");
    }
}
