package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Kubernetes scrape configurations find the pods {@code flink-conf/kubernetes/commitflow-deployment.yaml} makes:
 * the PodMonitor's selector matches the labels of its pod template, on the port that serves Flink's Prometheus
 * reporter, and so does the {@code kubernetes_sd_configs} example commented in {@code prometheus.yml}. A label or port
 * renamed on one side only would leave Prometheus with no target and every alert silent.
 */
class ScrapeConfigTest {
    private static final Path CONF = Path.of("..", "flink-conf").toAbsolutePath().normalize();
    private static final YAMLMapper YAML = new YAMLMapper();

    @Test
    void podMonitorSelectsTheFlinkPodsOnTheReportersPort() throws IOException {
        JsonNode deployment = YAML.readTree(CONF.resolve("kubernetes/commitflow-deployment.yaml").toFile());
        JsonNode monitor = YAML.readTree(CONF.resolve("kubernetes/commitflow-podmonitor.yaml").toFile());
        Map<String, String> podLabels = strings(deployment.path("spec").path("podTemplate").path("metadata").path("labels"));
        Map<String, String> selector = strings(monitor.path("spec").path("selector").path("matchLabels"));

        assertThat(monitor.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(monitor.path("kind").asText()).isEqualTo("PodMonitor");
        assertThat(monitor.path("spec").path("selector").has("matchExpressions")).isFalse();
        assertThat(selector).isNotEmpty();
        assertThat(podLabels).containsAllEntriesOf(selector);
        assertThat(podLabels).containsKey(monitor.path("spec").path("jobLabel").asText());

        String port = reporterPort(deployment);
        assertThat(port).as("the reporter's port in the FlinkDeployment and in config.yaml")
                .isEqualTo(configYamlValue("metrics.reporter.prom.port"));
        Map<String, Integer> containerPorts = new HashMap<>();
        for (JsonNode c : deployment.path("spec").path("podTemplate").path("spec").path("containers")) {
            c.path("ports").forEach(p -> containerPorts.put(p.path("name").asText(), p.path("containerPort").asInt()));
        }
        JsonNode endpoints = monitor.path("spec").path("podMetricsEndpoints");
        assertThat(endpoints).hasSize(1);
        assertThat(endpoints.get(0).path("path").asText()).isEqualTo("/metrics");
        assertThat(containerPorts.get(endpoints.get(0).path("port").asText()))
                .as("the PodMonitor's named port on the Flink container").isEqualTo(Integer.parseInt(port));
    }

    @Test
    void commentedKubernetesDiscoveryKeepsTheSamePods() throws IOException {
        // Debian's promtool is built without Kubernetes discovery, so the example is checked here, not by promtool
        List<String> example = new ArrayList<>();
        boolean in = false;
        for (String line : Files.readAllLines(CONF.resolve("prometheus.yml"))) {
            in |= line.contains("- job_name: commitflow-kubernetes");
            if (in && line.startsWith("  # ")) {
                example.add(line.substring("  # ".length()));
            }
        }
        JsonNode job = YAML.readTree(String.join("\n", example)).get(0);
        assertThat(job.path("kubernetes_sd_configs").get(0).path("role").asText()).isEqualTo("pod");
        JsonNode deployment = YAML.readTree(CONF.resolve("kubernetes/commitflow-deployment.yaml").toFile());
        Map<String, String> podLabels = strings(deployment.path("spec").path("podTemplate").path("metadata").path("labels"));
        Map<String, String> discovered = new HashMap<>(podLabels.entrySet().stream().collect(Collectors.toMap(
                e -> "__meta_kubernetes_pod_label_" + e.getKey().replaceAll("[^A-Za-z0-9_]", "_"), Map.Entry::getValue)));
        discovered.put("__meta_kubernetes_pod_container_port_name", "metrics");
        int keeps = 0;
        for (JsonNode rule : job.path("relabel_configs")) {
            if (rule.path("action").asText().equals("keep")) {
                String source = rule.path("source_labels").get(0).asText();
                assertThat(discovered.get(source)).as(source).isNotNull().matches(rule.path("regex").asText());
                keeps++;
            }
        }
        assertThat(keeps).isEqualTo(2);
    }

    private static String reporterPort(JsonNode deployment) {
        return deployment.path("spec").path("flinkConfiguration").path("metrics.reporter.prom.port").asText();
    }

    private static String configYamlValue(String key) throws IOException {
        return YAML.readTree(CONF.resolve("config.yaml").toFile()).path(key).asText();
    }

    private static Map<String, String> strings(JsonNode object) {
        Map<String, String> map = new HashMap<>();
        object.properties().forEach(e -> map.put(e.getKey(), e.getValue().asText()));
        return map;
    }
}
