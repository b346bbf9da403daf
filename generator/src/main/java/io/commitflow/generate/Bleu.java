package io.commitflow.generate;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * B-Norm: sentence-level BLEU-4 on {@link MessageTokens}, with add-one smoothing of the 2- to 4-gram precisions
 * (numerator and denominator) and the brevity penalty {@code min(1, exp(1 - (r + 1) / (c + 1)))}, as in the
 * smoothed BLEU that commit-message-generation papers report (CodeXGLUE's {@code bleu.py}, Tao et al. 2021). A
 * value in 0..1; reports multiply by 100.
 */
public final class Bleu {
    private static final int N = 4;

    private Bleu() {}

    public static double bnorm(String hypothesis, String reference) {
        return sentence(MessageTokens.of(hypothesis), MessageTokens.of(reference));
    }

    public static <T> double sentence(List<T> hyp, List<T> ref) {
        return sentence(Counts.of(hyp), Counts.of(ref));
    }

    /**
     * A token sequence's 1- to 4-gram counts, made once: scoring a sequence against many others (the generator
     * compares every neighbour with every other) then builds each sequence's n-grams once, not once per pair.
     */
    public static final class Counts<T> {
        private final int size;
        private final List<Map<List<T>, Integer>> byN;

        private Counts(int size, List<Map<List<T>, Integer>> byN) {
            this.size = size;
            this.byN = byN;
        }

        public static <T> Counts<T> of(List<T> tokens) {
            List<Map<List<T>, Integer>> byN = new java.util.ArrayList<>(N);
            for (int n = 1; n <= N; n++) {
                byN.add(ngrams(tokens, n));
            }
            return new Counts<>(tokens.size(), byN);
        }
    }

    /** {@link #sentence(List, List)} of sequences counted already. */
    public static <T> double sentence(Counts<T> hyp, Counts<T> ref) {
        int[] correct = new int[N + 1];
        for (int n = 1; n <= N; n++) {
            Map<List<T>, Integer> h = hyp.byN.get(n - 1);
            Map<List<T>, Integer> r = ref.byN.get(n - 1);
            for (var e : h.entrySet()) {
                correct[n] += Math.min(e.getValue(), r.getOrDefault(e.getKey(), 0));
            }
        }
        return score(hyp.size, ref.size, correct);
    }

    /**
     * B-Norm from its counts: the lengths of hypothesis and reference and, for each n from 1 to 4,
     * {@code correct[n]}, the hypothesis's n-grams found in the reference (clipped at the reference's counts). The
     * one formula of every scorer here ({@link SignatureBleu}, {@link PairwiseBleu}): equal counts, equal bits.
     */
    static double score(int hypSize, int refSize, int[] correct) {
        double logSum = 0;
        for (int n = 1; n <= N; n++) {
            int guess = Math.max(0, hypSize - n + 1);
            int add = n > 1 ? 1 : 0;
            logSum += log(correct[n] + add) - log(guess + add);
        }
        double log = logSum / N;
        double brevity = Math.min(0, 1 - (refSize + 1.0) / (hypSize + 1.0));
        return Math.exp(log + brevity);
    }

    /**
     * {@code Math.log(i + Double.MIN_VALUE)}, the same bits, from a table for the small counts that scoring meets
     * (the generator scores hundreds of pairs per suggestion, eight logarithms each); {@code MIN_VALUE} makes a
     * count of 0 a very negative number rather than −∞, and leaves every other count as it is.
     */
    static double log(int i) {
        return i < LOGS.length ? LOGS[i] : Math.log(i + Double.MIN_VALUE);
    }

    private static final double[] LOGS = new double[1024];

    static {
        for (int i = 0; i < LOGS.length; i++) {
            LOGS[i] = Math.log(i + Double.MIN_VALUE);
        }
    }

    static <T> Map<List<T>, Integer> ngrams(List<T> tokens, int n) {
        Map<List<T>, Integer> out = new HashMap<>();
        for (int i = 0; i + n <= tokens.size(); i++) {
            out.merge(tokens.subList(i, i + n), 1, Integer::sum);
        }
        return out;
    }

    /** ROUGE-L F1: the longest common subsequence of tokens, over both lengths. In 0..1. */
    public static double rougeL(String hypothesis, String reference) {
        List<String> h = MessageTokens.of(hypothesis);
        List<String> r = MessageTokens.of(reference);
        if (h.isEmpty() || r.isEmpty()) {
            return 0;
        }
        int[] prev = new int[r.size() + 1];
        int[] cur = new int[r.size() + 1];
        for (String x : h) {
            for (int j = 1; j <= r.size(); j++) {
                cur[j] = x.equals(r.get(j - 1)) ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        int lcs = prev[r.size()];
        if (lcs == 0) {
            return 0;
        }
        double p = (double) lcs / h.size();
        double rc = (double) lcs / r.size();
        return 2 * p * rc / (p + rc);
    }
}
