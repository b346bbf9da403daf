package io.commitflow.llm;

import io.commitflow.cache.CompressedCache;
import io.commitflow.generate.IndexedCommit;
import io.commitflow.generate.RepoKnowledge;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Each repository's prompt prefix for its LLM (keyed state of the suggest stage): the instructions, the repository's
 * conventions and its newest commits, kept byte-identical from one request to the next so that the inference server
 * can reuse its KV cache, and rebuilt after {@value #REFRESH} learned commits or when the prompt cache (LZ4, TTL)
 * forgot it. A young repository's prefix grows with it until it holds {@value #EXEMPLARS} exemplars. Counts
 * {@code promptCacheHits} and {@code promptCacheMisses}.
 */
public final class PromptPrefixes implements Serializable {
    private static final long serialVersionUID = 1L;
    static final int REFRESH = 64;
    static final int EXEMPLARS = 12;

    /** The prefix that goes with one request, and whether the repository's previous request sent the same one. */
    public record Use(String text, boolean reused) {}

    private final CompressedCache<PromptPrefix> cache;
    private transient ValueState<String> key;
    private transient ValueState<Long> builtAt;

    public PromptPrefixes(Duration ttl) {
        cache = new CompressedCache<>("promptCache", PromptPrefix.class, ttl);
    }

    public void open(RuntimeContext context) {
        cache.open(context);
        key = context.getState(new ValueStateDescriptor<>("prompt-prefix-key", Types.STRING));
        builtAt = context.getState(new ValueStateDescriptor<>("prompt-prefix-seq", Types.LONG));
    }

    /** The current repository's prefix for a request that sees {@code window} of {@code memory}. */
    public Use forRequest(RepoKnowledge memory, RepoKnowledge.Window window) throws Exception {
        PromptPrefix cached = cached(memory);
        return cached != null ? new Use(cached.text(), true) : new Use(rebuild(memory, window).text(), false);
    }

    /** The repository's prefix from the prompt cache, or null when it is due for a rebuild or forgotten. */
    private PromptPrefix cached(RepoKnowledge memory) throws Exception {
        String k = key.value();
        Long at = builtAt.value();
        if (k == null || at == null || memory.model().nextSeq - at >= REFRESH) {
            return null;
        }
        PromptPrefix p = cache.get(k);
        if (p != null && p.exemplars().size() < EXEMPLARS && memory.size() > p.exemplars().size()) {
            return null; // a young repository: the prefix grows with it until it holds all its exemplars
        }
        return p;
    }

    /** A new prefix, kept in the prompt cache under its structure hash. */
    private PromptPrefix rebuild(RepoKnowledge memory, RepoKnowledge.Window window) throws Exception {
        String style = memory.model().style.describe();
        List<Prompts.Exemplar> exemplars = new ArrayList<>();
        List<String> shas = new ArrayList<>();
        for (IndexedCommit r : memory.newest(EXEMPLARS, window)) {
            exemplars.add(new Prompts.Exemplar(r.subject(), r.files()));
            shas.add(r.sha());
        }
        String text = Prompts.prefix(style, exemplars);
        PromptPrefix p = new PromptPrefix(Prompts.TEMPLATE, style, shas, text, Prompts.tokens(text));
        String k = PromptPrefix.key(p.structureHash());
        cache.put(k, p);
        key.update(k);
        builtAt.update(memory.model().nextSeq);
        return p;
    }
}
