package io.commitflow.cache;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.commitflow.event.Json;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;

import java.io.IOException;
import java.io.Serializable;
import java.time.Duration;

/**
 * A cache in Flink keyed state (RocksDB in the job): entries by a string key within the current key of the enclosing
 * keyed function (commitflow keys by repository, so a repository's entries never reach another), written as JSON and
 * LZ4-compressed, a few hundred bytes each. Each entry lives for the TTL after it was written (processing time) and
 * is then removed by RocksDB's compaction filter; an expired entry is never read. Counts {@code <name>Hits} and
 * {@code <name>Misses}.
 *
 * <pre>{@code
 * cache = new CompressedCache<>("resultCache", CachedMessage.class, Duration.ofHours(24));
 * cache.open(getRuntimeContext());              // in open()
 * CachedMessage hit = cache.get(patchId);       // for the current repository, null on a miss
 * cache.put(patchId, message);
 * }</pre>
 */
public final class CompressedCache<V> implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final Duration DEFAULT_TTL = Duration.ofHours(24);

    private final String name;
    private final Class<V> type;
    private final Duration ttl;
    private transient MapState<String, byte[]> state;
    private transient Counter hits;
    private transient Counter misses;
    private transient Counter corrupt;

    public CompressedCache(String name, Class<V> type, Duration ttl) {
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException(name + " TTL must be positive, got " + ttl);
        }
        this.name = name;
        this.type = type;
        this.ttl = ttl;
    }

    public void open(RuntimeContext context) {
        MapStateDescriptor<String, byte[]> d =
                new MapStateDescriptor<>(name, Types.STRING, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
        d.enableTimeToLive(StateTtl.of(ttl));
        state = context.getMapState(d);
        hits = context.getMetricGroup().counter(name + "Hits");
        misses = context.getMetricGroup().counter(name + "Misses");
        corrupt = context.getMetricGroup().counter(name + "Unreadable");
    }

    /** The entry {@code key} of the current key, or {@code null} (a miss). An unreadable entry counts as a miss. */
    public V get(String key) throws Exception {
        byte[] packed = state.get(key);
        if (packed == null) {
            misses.inc();
            return null;
        }
        try {
            V v = Json.mapper().readValue(Lz4.decompress(packed), type);
            hits.inc();
            return v;
        } catch (IOException | RuntimeException e) {
            // written by an older, incompatible version: treat as absent and let the caller overwrite it
            corrupt.inc();
            misses.inc();
            return null;
        }
    }

    public void put(String key, V value) throws Exception {
        try {
            state.put(key, Lz4.compress(Json.mapper().writeValueAsBytes(value)));
        } catch (JsonProcessingException e) {
            throw new IOException("cannot write " + name + " entry", e);
        }
    }
}
