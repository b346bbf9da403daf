package io.commitflow.cli;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.CheckpointingMode;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The Flink configuration of local runs: {@code flink-conf/config.yaml}, the one a cluster uses, with only the
 * paths and ports of this run replaced.
 */
final class LocalFlink {
    /** The system property through which the launcher passes the checkout's root. */
    static final String HOME_PROPERTY = "commitflow.home";

    private LocalFlink() {}

    static Path home() {
        return Path.of(System.getProperty(HOME_PROPERTY, ".")).toAbsolutePath().normalize();
    }

    static Configuration configuration(Path workDir, int webPort, int metricsPort) throws IOException {
        Path confDir = home().resolve("flink-conf");
        if (!Files.isRegularFile(confDir.resolve("config.yaml"))) {
            throw new UserError("no Flink configuration at " + confDir.resolve("config.yaml") + " (run through ./commitflow)");
        }
        Configuration conf = GlobalConfiguration.loadConfiguration(confDir.toString());
        Path checkpoints = Files.createDirectories(workDir.resolve("checkpoints"));
        Path savepoints = Files.createDirectories(workDir.resolve("savepoints"));
        Path tmp = Files.createDirectories(workDir.resolve("flink-tmp"));
        conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
        conf.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, savepoints.toUri().toString());
        conf.set(CoreOptions.TMP_DIRS, tmp.toString());
        conf.set(RestOptions.PORT, webPort);
        conf.setString("metrics.reporter.prom.port", Integer.toString(metricsPort));
        return conf;
    }

    /** Shorter checkpoints than a cluster's, so that the exactly-once output shows up within a second. */
    static void interactiveCheckpoints(Configuration conf, Duration interval) {
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, interval);
        conf.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
        conf.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, Duration.ZERO);
    }

    /** @throws UserError naming the port, what needs it, and the option that moves it */
    static void requireFreePort(int port, String what, String option) {
        try (ServerSocket s = new ServerSocket()) {
            // a listener makes the bind fail; connections of an earlier run in TIME_WAIT (a scrape of its
            // metrics) must not, as they would not stop the server that binds the port next
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(port));
        } catch (IOException e) {
            throw new UserError("port " + port + " for " + what + " is in use; stop what holds it, or choose another with "
                    + option + " PORT");
        }
    }
}
