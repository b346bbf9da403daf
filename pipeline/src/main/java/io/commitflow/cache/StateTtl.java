package io.commitflow.cache;

import org.apache.flink.api.common.state.StateTtlConfig;

import java.time.Duration;

/** The time to live of commitflow's expiring state: the dedup marks, the result cache, the prompt cache. */
public final class StateTtl {
    private StateTtl() {}

    /**
     * An entry lives {@code ttl} from its last write and is never returned after that. RocksDB drops expired
     * entries when it compacts their files (the compaction filter reads the clock every 1,000 entries), and a file
     * older than {@code ttl} is compacted even when no write reaches its level: without that periodic compaction
     * (RocksDB's default is 30 days) expired entries in cold files stay on disk, and the state keeps growing.
     */
    public static StateTtlConfig of(Duration ttl) {
        return StateTtlConfig.newBuilder(ttl)
                .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                .cleanupInRocksdbCompactFilter(1000, ttl)
                .build();
    }
}
