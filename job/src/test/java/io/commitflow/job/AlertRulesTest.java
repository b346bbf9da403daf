package io.commitflow.job;

import org.apache.flink.runtime.metrics.MetricNames;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code flink-conf/commitflow-alerts.yml} as Prometheus reads it: {@code promtool} checks the scrape configuration
 * that loads it and runs its unit tests ({@code commitflow-alerts-test.yml}: each alert fires on its condition and
 * not before), and every metric a rule reads is one that Flink or the job registers.
 */
class AlertRulesTest {
    private static final Path CONF = Path.of("..", "flink-conf").toAbsolutePath().normalize();

    @Test
    void promtoolChecksTheConfigurationAndEachAlertFiresOnItsConditionOnly() throws Exception {
        Path promtool = promtool();
        assertThat(run(promtool, "check", "config", CONF.resolve("prometheus.yml").toString()))
                .contains("SUCCESS: 4 rules found");
        assertThat(run(promtool, "test", "rules", CONF.resolve("commitflow-alerts-test.yml").toString()))
                .contains("SUCCESS");
    }

    @Test
    void everyMetricARuleReadsIsRegistered() throws IOException {
        String rules = Files.readString(CONF.resolve("commitflow-alerts.yml"));
        Matcher m = Pattern.compile("flink_taskmanager_job_task_operator_(\\w+)").matcher(rules);
        List<String> named = m.results().map(r -> r.group(1)).distinct().toList();
        String sources = Files.readString(Path.of("src/main/java/io/commitflow/job/FreshTransactionSink.java"))
                + Files.readString(Path.of("src/main/java/io/commitflow/job/RedeliveringCommitter.java"))
                + Files.readString(Path.of("src/main/java/io/commitflow/job/PartitionLag.java"));
        assertThat(named).hasSize(5).allSatisfy(metric -> assertThat(
                metric.equals(MetricNames.FAILED_COMMITTABLES) || sources.contains("\"" + metric + "\"")
                        || metric.startsWith("deserializer_consumerLag_") && sources.contains("\"recordsBehind\""))
                .as(metric + " is registered").isTrue());
    }

    private static Path promtool() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path p = Path.of(dir, "promtool");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        Assumptions.abort("no promtool on PATH: Debian's prometheus package has it (.ci/run installs it when it can)");
        return null;
    }

    private static String run(Path promtool, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(promtool.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(CONF.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("promtool %s:%n%s", String.join(" ", args), out).isZero();
        return out;
    }
}
