package io.commitflow.job;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** flink-conf/config.yaml says what the README says, under the keys Flink 2.2 reads (a misspelt key is ignored silently). */
class FlinkConfTest {
    private static final Path CONF = Path.of("..", "flink-conf");

    @Test
    void setsRocksDbCheckpointsWebUiAndPrometheus() {
        Configuration c = GlobalConfiguration.loadConfiguration(CONF.toString());

        assertThat(c.get(StateBackendOptions.STATE_BACKEND)).isEqualTo("rocksdb");
        assertThat(c.get(CheckpointingOptions.INCREMENTAL_CHECKPOINTS)).isTrue();
        assertThat(c.get(CheckpointingOptions.CHECKPOINTING_INTERVAL)).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY)).startsWith("file:///");
        assertThat(c.get(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION))
                .isEqualTo(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        assertThat(c.get(PipelineOptions.GENERIC_TYPES)).isFalse();
        assertThat(c.get(RestOptions.PORT)).isEqualTo(8081);
        assertThat(c.get(RestOptions.BIND_ADDRESS)).isEqualTo("localhost");
        assertThat(c.toMap()).containsEntry("metrics.reporter.prom.port", "9249")
                .containsEntry("metrics.reporter.prom.factory.class", "org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
        assertThat(c.toMap().get("env.java.opts.all")).contains("--add-opens=java.base/java.util=ALL-UNNAMED");
    }

    @Test
    void shipsTheLogConfigurationsFlinkLooksFor() {
        for (String f : new String[] {"log4j.properties", "log4j-console.properties", "log4j-cli.properties"}) {
            assertThat(CONF.resolve(f)).isRegularFile();
        }
        assertThat(Files.exists(CONF.resolve("flink-conf.yaml"))).as("Flink 2.x reads config.yaml only").isFalse();
    }
}
