package io.commitflow.dedup;

import io.commitflow.event.CommitEvent;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import java.time.Duration;

/**
 * Drops redelivered commits. Keyed by (repo, sha) with {@link #KEY}; the first delivery passes, later ones
 * within the TTL are dropped and counted in {@code dedupDropped}.
 *
 * <p>State: one {@code Long} per key (the first delivery's Kafka timestamp), written once. It lives for
 * the TTL after that write (processing time) and is then cleared by RocksDB's compaction filter; an
 * expired entry is never returned, so a redelivery after the TTL passes again — the TTL must outlast the
 * longest redelivery window of the producers (default 24 h).
 */
public class DedupCommits extends KeyedProcessFunction<String, CommitEvent, CommitEvent> {
    private static final long serialVersionUID = 1L;

    public static final Duration DEFAULT_TTL = Duration.ofHours(24);

    /** The key this function must be keyed by. */
    public static final KeySelector<CommitEvent, String> KEY = new RepoAndSha();

    private final Duration ttl;
    private transient ValueState<Long> firstSeen;
    private transient Counter dropped;

    public DedupCommits(Duration ttl) {
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("dedup TTL must be positive, got " + ttl);
        }
        this.ttl = ttl;
    }

    @Override
    public void open(OpenContext openContext) {
        ValueStateDescriptor<Long> descriptor = new ValueStateDescriptor<>("first-seen", Types.LONG);
        descriptor.enableTimeToLive(StateTtlConfig.newBuilder(ttl)
                .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                .cleanupInRocksdbCompactFilter(1000)
                .build());
        firstSeen = getRuntimeContext().getState(descriptor);
        dropped = getRuntimeContext().getMetricGroup().counter("dedupDropped");
    }

    @Override
    public void processElement(CommitEvent commit, Context ctx, Collector<CommitEvent> out) throws Exception {
        if (firstSeen.value() != null) {
            dropped.inc();
            return;
        }
        firstSeen.update(commit.origin().kafkaTs());
        out.collect(commit);
    }

    private static final class RepoAndSha implements KeySelector<CommitEvent, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(CommitEvent commit) {
            return commit.repoAndSha();
        }
    }
}
