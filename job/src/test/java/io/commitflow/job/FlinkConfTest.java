package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.HighAvailabilityOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * flink-conf/config.yaml (a cluster's) and local/config.yaml (what local runs put on top of it) say what the README
 * says, under the keys Flink 2.2 reads (a misspelt key is ignored silently), and the FlinkDeployment sets the cluster
 * file's settings.
 */
class FlinkConfTest {
    private static final Path CONF = Path.of("..", "flink-conf");

    /** The cluster's file alone. */
    static Configuration cluster() {
        return GlobalConfiguration.loadConfiguration(CONF.toString());
    }

    /** The cluster's file with the local overlay on top, as LocalFlink loads it for demo, job and loadtest. */
    static Configuration local() {
        return GlobalConfiguration.loadConfiguration(CONF.toString(),
                GlobalConfiguration.loadConfiguration(CONF.resolve("local").toString()));
    }

    @Test
    void setsRocksDbCheckpointsWebUiAndPrometheus() {
        for (Configuration c : new Configuration[] {cluster(), local()}) {
            assertThat(c.get(StateBackendOptions.STATE_BACKEND)).isEqualTo("rocksdb");
            assertThat(c.get(CheckpointingOptions.INCREMENTAL_CHECKPOINTS)).isTrue();
            assertThat(c.get(CheckpointingOptions.CHECKPOINTING_INTERVAL)).isEqualTo(Duration.ofSeconds(5));
            assertThat(c.get(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION))
                    .isEqualTo(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
            assertThat(c.get(PipelineOptions.GENERIC_TYPES)).isFalse();
            assertThat(c.get(RestOptions.PORT)).isEqualTo(8081);
            assertThat(c.toMap()).containsEntry("metrics.reporter.prom.port", "9249")
                    .containsEntry("metrics.reporter.prom.factory.class", "org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
            assertThat(c.toMap().get("env.java.opts.all")).contains("--add-opens=java.base/java.util=ALL-UNNAMED");
            assertThat(c.toMap().get("env.java.opts.taskmanager")).as("the JIT inlines less (docs/scale.md)")
                    .contains("-XX:MaxInlineLevel=6", "-XX:FreqInlineSize=50", "-XX:InlineSmallCode=500");
        }
    }

    @Test
    void theClusterFileListensOnTheNetworkAndKeepsStateInObjectStorage() {
        Configuration c = cluster();
        assertThat(c.toMap().values()).as("no loopback address on a cluster")
                .noneMatch(v -> v.equals("localhost") || v.startsWith("127."));
        assertThat(c.getOptional(RestOptions.BIND_ADDRESS)).isEmpty();
        assertThat(c.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY)).startsWith("s3://");
        assertThat(c.get(CheckpointingOptions.SAVEPOINT_DIRECTORY)).startsWith("s3://");
        assertThat(c.get(HighAvailabilityOptions.HA_STORAGE_PATH)).startsWith("s3://");
    }

    @Test
    void theLocalOverlayBindsToLoopbackAndCheckpointsUnderTmp() {
        Configuration c = local();
        assertThat(c.get(RestOptions.BIND_ADDRESS)).isEqualTo("localhost");
        assertThat(c.get(RestOptions.ADDRESS)).isEqualTo("localhost");
        assertThat(c.toMap()).containsEntry("jobmanager.bind-host", "localhost")
                .containsEntry("taskmanager.bind-host", "localhost").containsEntry("taskmanager.host", "localhost");
        assertThat(c.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY)).isEqualTo("file:///tmp/commitflow/checkpoints");
        assertThat(c.get(CheckpointingOptions.SAVEPOINT_DIRECTORY)).isEqualTo("file:///tmp/commitflow/savepoints");
        assertThat(c.get(HighAvailabilityOptions.HA_MODE)).isEqualToIgnoringCase("none");
    }

    /** Settings a FlinkDeployment gives in its own fields (resources, job parallelism), not in flinkConfiguration. */
    private static final Set<String> SET_BY_THE_SPEC =
            Set.of("jobmanager.memory.process.size", "taskmanager.memory.process.size", "parallelism.default");
    /** What only Kubernetes has: its high-availability type and the S3 plugin's endpoint settings. */
    static final Set<String> KUBERNETES_ONLY = Set.of("high-availability.type", "s3.endpoint", "s3.path.style.access");

    @Test
    void theFlinkDeploymentSetsTheClusterFilesSettings() throws IOException {
        JsonNode deployment = new YAMLMapper().readTree(CONF.resolve("kubernetes/commitflow-deployment.yaml").toFile());
        Map<String, String> given = flinkConfiguration(deployment);
        // the same parsing as the file's (booleans, numbers), so that "true" and true compare equal
        Map<String, String> operator = Configuration.fromMap(given).toMap();
        Map<String, String> file = cluster().toMap();

        file.forEach((key, value) -> {
            if (!SET_BY_THE_SPEC.contains(key)) {
                assertThat(operator.get(key)).as("%s in the FlinkDeployment", key).isEqualTo(value);
            }
        });
        assertThat(operator.keySet()).as("keys the cluster file lacks")
                .allSatisfy(key -> assertThat(file.containsKey(key) || KUBERNETES_ONLY.contains(key)).as(key).isTrue());
        assertThat(operator).containsEntry("high-availability.type", "kubernetes");

        JsonNode container = deployment.path("spec").path("podTemplate").path("spec").path("containers").get(0);
        Map<String, JsonNode> env = new HashMap<>();
        container.path("env").forEach(e -> env.put(e.path("name").asText(), e));
        assertThat(env.get("ENABLE_BUILT_IN_PLUGINS").path("value").asText()).as("the plugin of the Flink the job is built on")
                .isEqualTo("flink-s3-fs-hadoop-" + EnvironmentInformation.getVersion() + ".jar");
        for (String secret : new String[] {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "KAFKA_SASL_JAAS_CONFIG"}) {
            assertThat(env.get(secret).has("value")).as(secret + " is no literal").isFalse();
            assertThat(env.get(secret).path("valueFrom").path("secretKeyRef").path("name").asText()).as(secret).isNotEmpty();
        }
        assertThat(deployment.path("spec").path("job").path("args").toString())
                .contains("--mirror-root=/srv/mirrors").contains("${env:KAFKA_SASL_JAAS_CONFIG}");
    }

    static Map<String, String> flinkConfiguration(JsonNode deployment) {
        Map<String, String> given = new HashMap<>();
        deployment.path("spec").path("flinkConfiguration").properties()
                .forEach(e -> given.put(e.getKey(), e.getValue().asText()));
        assertThat(given).isNotEmpty();
        return given;
    }

    @Test
    void shipsTheLogConfigurationsFlinkLooksFor() {
        for (String f : new String[] {"log4j.properties", "log4j-console.properties", "log4j-cli.properties"}) {
            assertThat(CONF.resolve(f)).isRegularFile();
        }
        assertThat(Files.exists(CONF.resolve("flink-conf.yaml"))).as("Flink 2.x reads config.yaml only").isFalse();
        assertThat(Files.exists(CONF.resolve("local/flink-conf.yaml"))).isFalse();
    }
}
