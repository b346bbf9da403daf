package io.commitflow.cli;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.CheckpointingMode;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The Flink configuration of local runs: {@code flink-conf/config.yaml}, the one a cluster uses, under the local
 * overlay {@code flink-conf/local/config.yaml} (loopback addresses, local checkpoint folders, no high availability),
 * with the paths and ports of this run replaced, and the local cluster shaped for the job's parallelism: as many task slots, and the
 * network and managed memory that many slots need (the file's {@code taskmanager.numberOfTaskSlots} describes a
 * cluster's TaskManager, not this one).
 */
final class LocalFlink {
    /** The system property through which the launcher passes the checkout's root. */
    static final String HOME_PROPERTY = "commitflow.home";

    private LocalFlink() {}

    static Path home() {
        return Path.of(System.getProperty(HOME_PROPERTY, ".")).toAbsolutePath().normalize();
    }

    /** Managed memory per slot: RocksDB's block cache and write buffers of the operators in that slot. */
    static final MemorySize MANAGED_PER_SLOT = MemorySize.ofMebiBytes(128);
    /** The keyed and rebalanced exchanges of the job (parse, expand, dedup, fleet, suggest, SLA, sinks), with room. */
    private static final int EXCHANGES = 8;

    /**
     * The job's settings that flink-conf/config.yaml sets ({@code commitflow.*}): the defaults of a local run's job
     * flags, as a cluster's config.yaml is for {@code flink run}. Empty where there is no flink-conf folder.
     */
    static Configuration jobSettings() {
        Path confDir = home().resolve("flink-conf");
        Configuration out = new Configuration();
        if (java.nio.file.Files.isRegularFile(confDir.resolve("config.yaml"))) {
            load(confDir).toMap().forEach((k, v) -> {
                if (k.startsWith("commitflow.")) {
                    out.setString(k, v);
                }
            });
        }
        return out;
    }

    /** The folder of the local overlay, beside the cluster's config.yaml. */
    static final String LOCAL_OVERLAY = "local";

    /**
     * {@code confDir/config.yaml} with {@code confDir/local/config.yaml} on top (each key of the overlay replaces the
     * cluster file's); the cluster file alone where there is no overlay.
     */
    static Configuration load(Path confDir) {
        Path overlay = confDir.resolve(LOCAL_OVERLAY);
        Configuration local = Files.isRegularFile(overlay.resolve("config.yaml"))
                ? GlobalConfiguration.loadConfiguration(overlay.toString()) : new Configuration();
        return GlobalConfiguration.loadConfiguration(confDir.toString(), local);
    }

    static Configuration configuration(Path workDir, int webPort, int metricsPort, int parallelism) throws IOException {
        Path confDir = home().resolve("flink-conf");
        if (!Files.isRegularFile(confDir.resolve("config.yaml"))) {
            throw new UserError("no Flink configuration at " + confDir.resolve("config.yaml") + " (run through ./commitflow)");
        }
        Configuration conf = load(confDir);
        Path checkpoints = Files.createDirectories(workDir.resolve("checkpoints"));
        Path savepoints = Files.createDirectories(workDir.resolve("savepoints"));
        Path tmp = Files.createDirectories(workDir.resolve("flink-tmp"));
        conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
        conf.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, savepoints.toUri().toString());
        conf.set(CoreOptions.TMP_DIRS, tmp.toString());
        conf.set(RestOptions.PORT, webPort);
        conf.setString("metrics.reporter.prom.port", Integer.toString(metricsPort));
        shape(conf, parallelism);
        return conf;
    }

    /**
     * One TaskManager with {@code parallelism} slots, the default parallelism, and memory to match: without this a
     * job of a higher parallelism than the file's slots waits for slots forever.
     */
    static void shape(Configuration conf, int parallelism) {
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, parallelism);
        conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        MemorySize network = networkMemory(parallelism);
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MIN, network);
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MAX, network);
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MANAGED_PER_SLOT.multiply(parallelism));
    }

    /**
     * Network buffers for {@code p} subtasks on every exchange: an all-to-all exchange needs about 2 exclusive buffers
     * per input channel and 8 floating per gate on the receiving side, and one per subpartition and 8 more on the
     * sending side, of 32 KiB each; a quarter more for the sources and sinks, and 64 MiB at least (Flink's default).
     */
    static MemorySize networkMemory(int p) {
        long buffers = (long) EXCHANGES * (3L * p * p + 17L * p) + 256;
        long bytes = buffers * 32 * 1024 * 5 / 4;
        return new MemorySize(Math.max(bytes, MemorySize.ofMebiBytes(64).getBytes()));
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
