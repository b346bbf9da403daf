package io.commitflow.generate;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link Bleu#sentence} between any two of a few token sequences, equal bit for bit: the ranker scores each
 * neighbour's description against every other's, which with boxed n-gram maps hashed lists of strings for every pair.
 *
 * <p>Here each token gets a small id (1 and up) and an n-gram becomes a {@code long} of up to four 16-bit ids. Each
 * sequence's n-grams are counted once, into sorted arrays, and two sequences' clipped matches are one merge of
 * those arrays. The matches of a pair do not depend on which of the two is the hypothesis ({@code min} of two
 * counts), so each pair is merged once; only the lengths in {@link Bleu#score} differ. Sequences with more than
 * 65,535 distinct tokens between them (never a few commit subjects) are scored by {@link Bleu.Counts} instead.
 */
final class PairwiseBleu {
    private static final int N = 4;
    private static final int MAX_ID = 0xFFFF;

    private final int[] sizes;
    /** Per sequence, per n (1..4): its distinct n-grams in ascending order, and how often each occurs. */
    private final long[][][] grams;
    private final int[][][] counts;
    /** Per pair {@code (i, j)}, {@code i < j}: the clipped matches for n = 1..4, once merged. */
    private final int[][][] matches;
    /** When the tokens do not fit the ids: the generic counts. */
    private final List<Bleu.Counts<String>> generic;

    PairwiseBleu(List<List<String>> sequences) {
        int m = sequences.size();
        this.sizes = new int[m];
        this.matches = new int[m][m][];
        Map<String, Integer> ids = new HashMap<>();
        int[][] encoded = new int[m][];
        for (int i = 0; i < m; i++) {
            List<String> tokens = sequences.get(i);
            sizes[i] = tokens.size();
            encoded[i] = new int[tokens.size()];
            for (int t = 0; t < tokens.size(); t++) {
                encoded[i][t] = ids.computeIfAbsent(tokens.get(t), x -> ids.size() + 1);
            }
        }
        if (ids.size() > MAX_ID) {
            this.generic = sequences.stream().map(Bleu.Counts::of).toList();
            this.grams = null;
            this.counts = null;
            return;
        }
        this.generic = null;
        this.grams = new long[m][N + 1][];
        this.counts = new int[m][N + 1][];
        for (int i = 0; i < m; i++) {
            for (int n = 1; n <= N; n++) {
                count(encoded[i], n, i);
            }
        }
    }

    /** {@code Bleu.sentence(sequences.get(hyp), sequences.get(ref))}. */
    double sentence(int hyp, int ref) {
        if (generic != null) {
            return Bleu.sentence(generic.get(hyp), generic.get(ref));
        }
        return Bleu.score(sizes[hyp], sizes[ref], matches(Math.min(hyp, ref), Math.max(hyp, ref)));
    }

    private int[] matches(int i, int j) {
        if (matches[i][j] == null) {
            int[] correct = new int[N + 1];
            for (int n = 1; n <= N; n++) {
                correct[n] = clipped(grams[i][n], counts[i][n], grams[j][n], counts[j][n]);
            }
            matches[i][j] = correct;
        }
        return matches[i][j];
    }

    /** How many n-grams the two have in common, each counted as often as the one that has it less often has it. */
    private static int clipped(long[] a, int[] aCount, long[] b, int[] bCount) {
        int common = 0;
        for (int x = 0, y = 0; x < a.length && y < b.length; ) {
            if (a[x] < b[y]) {
                x++;
            } else if (a[x] > b[y]) {
                y++;
            } else {
                common += Math.min(aCount[x], bCount[y]);
                x++;
                y++;
            }
        }
        return common;
    }

    /** Sequence {@code i}'s distinct n-grams, sorted, with their counts. */
    private void count(int[] tokens, int n, int i) {
        int total = Math.max(0, tokens.length - n + 1);
        long[] keys = new long[total];
        for (int at = 0; at < total; at++) {
            long key = 0;
            for (int k = 0; k < n; k++) {
                key = key << 16 | tokens[at + k];
            }
            keys[at] = key;
        }
        Arrays.sort(keys);
        int distinct = 0;
        int[] runs = new int[total];
        for (int at = 0; at < total; at++) {
            if (distinct > 0 && keys[distinct - 1] == keys[at]) {
                runs[distinct - 1]++;
            } else {
                keys[distinct] = keys[at];
                runs[distinct++] = 1;
            }
        }
        grams[i][n] = Arrays.copyOf(keys, distinct);
        counts[i][n] = Arrays.copyOf(runs, distinct);
    }
}
