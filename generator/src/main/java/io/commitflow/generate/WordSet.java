package io.commitflow.generate;

import java.util.Arrays;

/**
 * The distinct words of a diff's {@link DiffTokens#signature} (their hashes), for asking whether it has a word:
 * a sorted array searched by halves, where a {@code HashSet<Integer>} boxed every word of every diff compared.
 */
final class WordSet {
    private final int[] sorted;

    private WordSet(int[] sorted) {
        this.sorted = sorted;
    }

    static WordSet of(int[] words) {
        int[] sorted = words.clone();
        Arrays.sort(sorted);
        return new WordSet(sorted);
    }

    boolean contains(int word) {
        return Arrays.binarySearch(sorted, word) >= 0;
    }
}
