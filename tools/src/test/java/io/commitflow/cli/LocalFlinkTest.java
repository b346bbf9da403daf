package io.commitflow.cli;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.HighAvailabilityOptions;
import org.apache.flink.configuration.RestOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Local runs read the cluster's config.yaml under the local overlay, then set their own ports and folders. */
class LocalFlinkTest {
    @Test
    void localRunsBindToLoopbackWithoutHighAvailability(@TempDir Path work) throws IOException {
        Path home = Path.of(System.getProperty(LocalFlink.HOME_PROPERTY, "..")).toAbsolutePath().normalize();
        Path confDir = home.resolve("flink-conf");
        Configuration cluster = GlobalConfiguration.loadConfiguration(confDir.toString());
        assertThat(cluster.getOptional(RestOptions.BIND_ADDRESS)).as("the cluster file binds no address").isEmpty();
        assertThat(cluster.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY)).startsWith("s3://");

        Configuration local = LocalFlink.load(confDir);
        assertThat(local.get(RestOptions.BIND_ADDRESS)).isEqualTo("localhost");
        assertThat(local.toMap()).containsEntry("jobmanager.bind-host", "localhost")
                .containsEntry("taskmanager.bind-host", "localhost");
        assertThat(local.get(HighAvailabilityOptions.HA_MODE)).isEqualToIgnoringCase("none");
        assertThat(local.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY)).startsWith("file:///");
        // the cluster file's other settings come through
        assertThat(local.toMap()).containsEntry("execution.checkpointing.interval",
                cluster.toMap().get("execution.checkpointing.interval"));

        String before = System.getProperty(LocalFlink.HOME_PROPERTY);
        System.setProperty(LocalFlink.HOME_PROPERTY, home.toString());
        Configuration run;
        try {
            run = LocalFlink.configuration(work, 18081, 19249, 2);
        } finally {
            if (before == null) {
                System.clearProperty(LocalFlink.HOME_PROPERTY);
            }
        }
        assertThat(run.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY)).isEqualTo(work.resolve("checkpoints").toUri().toString());
        assertThat(run.get(RestOptions.PORT)).isEqualTo(18081);
        assertThat(run.get(RestOptions.BIND_ADDRESS)).isEqualTo("localhost");
    }

    @Test
    void withoutAnOverlayTheClusterFileIsReadAlone(@TempDir Path conf) throws IOException {
        Files.writeString(conf.resolve("config.yaml"), "rest.port: 8082\n");
        assertThat(LocalFlink.load(conf).get(RestOptions.PORT)).isEqualTo(8082);
        Files.createDirectories(conf.resolve("local"));
        Files.writeString(conf.resolve("local/config.yaml"), "rest.port: 8083\n");
        assertThat(LocalFlink.load(conf).get(RestOptions.PORT)).as("the overlay's key wins").isEqualTo(8083);
    }
}
