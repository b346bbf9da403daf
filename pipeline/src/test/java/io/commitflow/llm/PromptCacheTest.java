package io.commitflow.llm;

import io.commitflow.cache.CompressedCache;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The prompt cache: a repository's prefixes by their structure hash, in RocksDB, LZ4-compressed, with a TTL. */
class PromptCacheTest {
    private static final Duration TTL = Duration.ofHours(24);

    /** Looks a prefix up by its structure hash and stores it on a miss; emits "hit" or "miss". */
    static final class LookUp extends KeyedProcessFunction<String, PromptPrefix, String> {
        private final CompressedCache<PromptPrefix> cache = new CompressedCache<>("promptCache", PromptPrefix.class, TTL);

        @Override
        public void open(OpenContext openContext) {
            cache.open(getRuntimeContext());
        }

        @Override
        public void processElement(PromptPrefix p, Context ctx, Collector<String> out) throws Exception {
            String key = PromptPrefix.key(p.structureHash());
            PromptPrefix cached = cache.get(key);
            if (cached == null) {
                cache.put(key, p);
                out.collect("miss");
            } else {
                out.collect("hit:" + cached.text().length() + ":" + cached.tokens());
            }
        }
    }

    private static PromptPrefix prefix(String style, List<String> exemplars) {
        String text = "You write commit messages.\n" + style + "\n" + String.join("\n", exemplars) + "\n" + "x".repeat(2000);
        return new PromptPrefix("commit-message/v1", style, exemplars, text, 612);
    }

    @Test
    void hitsOnTheSameStructureAndExpiresAfterTheTtl() throws Exception {
        var harness = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new LookUp()),
                (PromptPrefix p) -> "one-repository", Types.STRING);
        harness.setStateBackend(new EmbeddedRocksDBStateBackend());
        harness.open();
        try {
            PromptPrefix a = prefix("conventional commits, scope = module", List.of("a1", "b2"));
            harness.setStateTtlProcessingTime(0);
            harness.processElement(a, 0);
            harness.processElement(a, 0);
            harness.processElement(prefix("conventional commits, scope = module", List.of("b2", "a1")), 0);
            harness.setStateTtlProcessingTime(TTL.toMillis() + 1);
            harness.processElement(a, 0);

            assertThat(harness.extractOutputValues()).containsExactly("miss", "hit:" + a.text().length() + ":612", "miss", "miss");
        } finally {
            harness.close();
        }
    }

    @Test
    void hashesStructureNotJustConcatenation() {
        long h = PromptPrefix.structureHash("t", "ab", List.of("c"));
        assertThat(PromptPrefix.structureHash("t", "ab", List.of("c"))).isEqualTo(h);
        assertThat(PromptPrefix.structureHash("t", "a", List.of("bc"))).isNotEqualTo(h);
        assertThat(PromptPrefix.structureHash("t2", "ab", List.of("c"))).isNotEqualTo(h);
        assertThat(PromptPrefix.key(h)).hasSize(16);
    }
}
