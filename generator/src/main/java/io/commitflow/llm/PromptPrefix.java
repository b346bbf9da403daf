package io.commitflow.llm;

import net.jpountz.xxhash.XXHashFactory;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The stable part of an LLM prompt, which an inference server can keep in its KV cache across requests: the
 * template's instructions, the repository's style notes and the exemplar commits. Its {@link #structureHash()}
 * (64-bit XXH64 over a canonical encoding) keys the prompt cache, so that two requests with the same structure send
 * a byte-identical prefix.
 *
 * @param template  template name and version, e.g. {@code commit-message/v1}
 * @param style     the repository's conventions as text (prefix form, types, length)
 * @param exemplars the exemplar commits' shas, in prompt order
 * @param text      the rendered prefix
 * @param tokens    its length in tokens, as the backend counts them (0 when unknown)
 */
public record PromptPrefix(String template, String style, List<String> exemplars, String text, int tokens) {
    private static final long SEED = 0x636f6d6d6974666cL; // "commitfl"

    /** A 64-bit hash of what determines the prefix (not of the rendered text, which it determines). */
    public long structureHash() {
        return structureHash(template, style, exemplars);
    }

    public static long structureHash(String template, String style, List<String> exemplars) {
        StringBuilder canonical = new StringBuilder();
        field(canonical, template);
        field(canonical, style);
        canonical.append(exemplars.size()).append(':');
        exemplars.forEach(e -> field(canonical, e));
        byte[] bytes = canonical.toString().getBytes(StandardCharsets.UTF_8);
        return XXHashFactory.fastestJavaInstance().hash64().hash(bytes, 0, bytes.length, SEED);
    }

    /** Length-prefixed, so that ("ab","c") and ("a","bc") differ. */
    private static void field(StringBuilder b, String s) {
        b.append(s.length()).append(':').append(s).append(';');
    }

    /** The hash as the prompt cache's key: 16 hex digits. */
    public static String key(long hash) {
        return String.format("%016x", hash);
    }
}
