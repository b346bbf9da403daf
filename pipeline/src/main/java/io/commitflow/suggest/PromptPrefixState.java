package io.commitflow.suggest;

import io.commitflow.cache.CompressedCache;
import io.commitflow.llm.PromptPrefix;
import io.commitflow.llm.PromptPrefixes;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;

import java.io.Serializable;
import java.time.Duration;

/**
 * The prompt prefixes' keyed state in the suggest stage: {@code prompt-prefix-key} and {@code prompt-prefix-seq} per
 * repository, and the prompt cache ({@code promptCache}, LZ4, TTL; counts {@code promptCacheHits} and
 * {@code promptCacheMisses}).
 */
final class PromptPrefixState implements PromptPrefixes.Store, Serializable {
    private static final long serialVersionUID = 1L;

    private final CompressedCache<PromptPrefix> cache;
    private transient ValueState<String> key;
    private transient ValueState<Long> builtAt;

    PromptPrefixState(Duration ttl) {
        cache = new CompressedCache<>("promptCache", PromptPrefix.class, ttl);
    }

    void open(RuntimeContext context) {
        cache.open(context);
        key = context.getState(new ValueStateDescriptor<>("prompt-prefix-key", Types.STRING));
        builtAt = context.getState(new ValueStateDescriptor<>("prompt-prefix-seq", Types.LONG));
    }

    @Override
    public String key() throws Exception {
        return key.value();
    }

    @Override
    public Long builtAt() throws Exception {
        return builtAt.value();
    }

    @Override
    public PromptPrefix cached(String k) throws Exception {
        return cache.get(k);
    }

    @Override
    public void put(String k, long at, PromptPrefix prefix) throws Exception {
        cache.put(k, prefix);
        key.update(k);
        builtAt.update(at);
    }
}
