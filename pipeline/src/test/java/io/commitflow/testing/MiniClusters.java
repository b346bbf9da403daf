package io.commitflow.testing;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

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
}
