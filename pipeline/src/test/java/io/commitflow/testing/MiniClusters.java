package io.commitflow.testing;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

import java.nio.file.Path;
import java.time.Duration;

/** The Flink MiniCluster the ITCases share per class: one TaskManager, as many slots as the job's parallelism. */
public final class MiniClusters {
    private MiniClusters() {}

    public static MiniClusterExtension oneTaskManager(int slots) {
        return oneTaskManager(slots, new Configuration());
    }

    public static MiniClusterExtension oneTaskManager(int slots, Configuration configuration) {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(slots).setConfiguration(configuration).build());
    }

    /**
     * A job's configuration as the job runs on a cluster: RocksDB state, checkpoints every {@code interval} (into
     * {@code checkpoints}, when not null), and no type that falls back to Kryo.
     */
    public static Configuration job(Duration interval, Path checkpoints) {
        Configuration conf = new Configuration();
        conf.set(StateBackendOptions.STATE_BACKEND, "rocksdb");
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, interval);
        if (checkpoints != null) {
            conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
        }
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        return conf;
    }
}
