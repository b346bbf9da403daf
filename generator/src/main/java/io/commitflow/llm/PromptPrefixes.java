package io.commitflow.llm;

import io.commitflow.generate.IndexedCommit;
import io.commitflow.generate.RepoKnowledge;

import java.util.ArrayList;
import java.util.List;

/**
 * Each repository's prompt prefix for its LLM (kept by a {@link Store}: the suggest stage's keyed state): the instructions, the repository's
 * conventions and its newest commits, kept byte-identical from one request to the next so that the inference server
 * can reuse its KV cache, and rebuilt after {@value #REFRESH} learned commits or when the prompt cache (LZ4, TTL)
 * forgot it. A young repository's prefix grows with it until it holds {@value #EXEMPLARS} exemplars.
 */
public final class PromptPrefixes {
    static final int REFRESH = 64;
    static final int EXEMPLARS = 12;

    /** The prefix that goes with one request, and whether the repository's previous request sent the same one. */
    public record Use(String text, boolean reused) {}

    /** Where the current repository's prefix is kept: its key, when it was built, and the prompt cache. */
    public interface Store {
        /** The current repository's prefix key, or null. */
        String key() throws Exception;

        /** The repository's learned-commit sequence when its prefix was built, or null. */
        Long builtAt() throws Exception;

        /** The cached prefix under {@code key}, or null once the cache forgot it. */
        PromptPrefix cached(String key) throws Exception;

        /** Keeps {@code prefix} under {@code key} as the current repository's, built at {@code builtAt}. */
        void put(String key, long builtAt, PromptPrefix prefix) throws Exception;
    }

    private final Store store;

    public PromptPrefixes(Store store) {
        this.store = store;
    }

    /** The current repository's prefix for a request that sees {@code window} of {@code memory}. */
    public Use forRequest(RepoKnowledge memory, RepoKnowledge.Window window) throws Exception {
        PromptPrefix cached = cached(memory);
        return cached != null ? new Use(cached.text(), true) : new Use(rebuild(memory, window).text(), false);
    }

    /** The repository's prefix from the prompt cache, or null when it is due for a rebuild or forgotten. */
    private PromptPrefix cached(RepoKnowledge memory) throws Exception {
        String k = store.key();
        Long at = store.builtAt();
        if (k == null || at == null || memory.model().nextSeq - at >= REFRESH) {
            return null;
        }
        PromptPrefix p = store.cached(k);
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
        store.put(k, memory.model().nextSeq, p);
        return p;
    }
}
