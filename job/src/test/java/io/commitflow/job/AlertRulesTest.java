package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.apache.flink.runtime.checkpoint.DefaultCheckpointStatsTracker;
import org.apache.flink.runtime.metrics.MetricNames;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code flink-conf/commitflow-alerts.yml} as Prometheus reads it: {@code promtool} checks the scrape configuration
 * that loads it and runs its unit tests ({@code commitflow-alerts-test.yml}: each alert fires on its condition and
 * not before), every alert carries what an operator needs and has a test on each side, and every metric a rule reads
 * is one that Flink, the job or the mirror service exports — a misspelt name would never fire.
 */
class AlertRulesTest {
    private static final Path CONF = Path.of("..", "flink-conf").toAbsolutePath().normalize();
    private static final YAMLMapper YAML = new YAMLMapper();
    /** The prefixes of the series the rules read: an operator's, the JobManager's per job, the mirror service's. */
    private static final Pattern SERIES = Pattern.compile(
            "\\b(flink_taskmanager_job_task_operator|flink_jobmanager_job|commitflow_mirror)_(\\w+)");

    @Test
    void promtoolChecksTheConfigurationAndEachAlertFiresOnItsConditionOnly() throws Exception {
        Path promtool = promtool();
        assertThat(run(promtool, "check", "config", CONF.resolve("prometheus.yml").toString()))
                .contains("SUCCESS: " + rules().size() + " rules found");
        assertThat(run(promtool, "test", "rules", CONF.resolve("commitflow-alerts-test.yml").toString()))
                .contains("SUCCESS");
    }

    @Test
    void everyAlertHasASeverityARunbookAndATestThatItFiresAndOneThatItDoesNot() throws IOException {
        Map<String, Set<Boolean>> tested = new HashMap<>(); // alert → whether a test expects it firing, silent
        for (JsonNode test : YAML.readTree(CONF.resolve("commitflow-alerts-test.yml").toFile()).path("tests")) {
            for (JsonNode t : test.path("alert_rule_test")) {
                tested.computeIfAbsent(t.path("alertname").asText(), k -> new HashSet<>())
                        .add(!t.path("exp_alerts").isEmpty());
            }
        }
        List<JsonNode> rules = rules();
        assertThat(rules).hasSizeGreaterThanOrEqualTo(13);
        for (JsonNode rule : rules) {
            String name = rule.path("alert").asText();
            assertThat(rule.path("labels").path("severity").asText()).as(name).isIn("critical", "warning");
            for (String annotation : List.of("summary", "description", "runbook")) {
                assertThat(rule.path("annotations").path(annotation).asText()).as(name + " " + annotation).isNotBlank();
            }
            assertThat(tested.get(name)).as(name + ": tested firing and silent").containsExactlyInAnyOrder(true, false);
        }
    }

    @Test
    void everyMetricARuleReadsIsExported() throws Exception {
        String sources = sources(Path.of("src/main/java"), Path.of("../pipeline/src/main/java"));
        String mirror = Files.readString(Path.of("../tools/src/main/java/io/commitflow/mirror/MirrorMetrics.java"));
        Set<String> flink = flinkMetricNames();
        Set<String> unknown = new TreeSet<>();
        for (JsonNode rule : rules()) {
            String expr = rule.path("expr").asText();
            Matcher m = SERIES.matcher(expr);
            List<String> read = new ArrayList<>();
            while (m.find()) {
                read.add(m.group());
                String scope = m.group(1);
                String metric = m.group(2);
                boolean exported = switch (scope) {
                    case "flink_taskmanager_job_task_operator" -> flink.contains(metric)
                            || sources.contains("\"" + metric.replaceFirst("^tenant_backend_", "") + "\"")
                            || metric.startsWith("deserializer_consumerLag_") && sources.contains("\"recordsBehind\"");
                    case "flink_jobmanager_job" -> flink.contains(metric);
                    default -> mirror.contains(".name(\"" + m.group() + "\")"); // the Prometheus client's builders
                };
                if (!exported) {
                    unknown.add(m.group());
                }
            }
            assertThat(read).as(rule.path("alert").asText() + " reads a series this test knows: " + expr).isNotEmpty();
        }
        assertThat(unknown).as("series the rules read that nothing registers").isEmpty();
    }

    private static List<JsonNode> rules() throws IOException {
        List<JsonNode> rules = new ArrayList<>();
        YAML.readTree(CONF.resolve("commitflow-alerts.yml").toFile()).path("groups")
                .forEach(g -> g.path("rules").forEach(rules::add));
        return rules;
    }

    /** Flink's own metric names: {@link MetricNames} and the checkpoint statistics' (package-private constants). */
    private static Set<String> flinkMetricNames() throws IllegalAccessException {
        Set<String> names = new HashSet<>();
        for (Class<?> c : List.of(MetricNames.class, DefaultCheckpointStatsTracker.class)) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                    f.setAccessible(true);
                    names.add((String) f.get(null));
                }
            }
        }
        assertThat(names).contains(MetricNames.NUM_RESTARTS, "numberOfFailedCheckpoints");
        return names;
    }

    private static String sources(Path... roots) throws IOException {
        StringBuilder all = new StringBuilder();
        for (Path root : roots) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    all.append(Files.readString(f));
                }
            }
        }
        return all.toString();
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
        List<String> command = new ArrayList<>(List.of(promtool.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(CONF.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("promtool %s:%n%s", String.join(" ", args), out).isZero();
        return out;
    }
}
