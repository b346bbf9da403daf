package io.commitflow.generate;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * {@link Bleu#sentence} of one diff signature (the hypothesis) against many others, on primitive arrays: the same
 * value, bit for bit, at a fraction of the cost of boxed n-gram maps, which were a quarter of the CPU of a loaded job.
 *
 * <p>Words of ours get small ids; an n-gram becomes a {@code long} of up to four 16-bit ids. A word of theirs that
 * we do not have can only sit in n-grams that never match ours, so it takes the id "none" and its n-grams are
 * dropped from their side. Their n-grams are looked up in our sorted keys and counted, clipped at our counts. The signature is at most
 * {@value DiffTokens#SIGNATURE_WORDS} words, so ids fit in 16 bits with room to spare.
 */
public final class SignatureBleu {
    private static final int N = 4;
    private static final int NONE = -1;

    private final Map<Integer, Integer> ids = new HashMap<>();
    private final int size;
    /** Per n, our distinct n-gram keys ascending and their counts. */
    private final long[][] keys = new long[N][];
    private final int[][] counts = new int[N][];

    public SignatureBleu(int[] ours) {
        if (ours.length > 0xFFFF) {
            throw new IllegalArgumentException("a signature of " + ours.length + " words is longer than 65,535");
        }
        this.size = ours.length;
        int[] mapped = new int[ours.length];
        for (int i = 0; i < ours.length; i++) {
            Integer id = ids.get(ours[i]);
            if (id == null) {
                id = ids.size() + 1; // 0 never occurs: n-grams of different n cannot collide, nor need to
                ids.put(ours[i], id);
            }
            mapped[i] = id;
        }
        for (int n = 1; n <= N; n++) {
            long[] k = grams(mapped, n);
            Arrays.sort(k);
            int distinct = 0;
            int[] c = new int[k.length];
            for (int i = 0; i < k.length; i++) {
                if (distinct > 0 && k[distinct - 1] == k[i]) {
                    c[distinct - 1]++;
                } else {
                    k[distinct] = k[i];
                    c[distinct++] = 1;
                }
            }
            keys[n - 1] = Arrays.copyOf(k, distinct);
            counts[n - 1] = Arrays.copyOf(c, distinct);
        }
    }

    /** B-Norm of our signature against {@code theirs}: {@code Bleu.sentence(ours, theirs)}. */
    public double against(int[] theirs) {
        int[] mapped = new int[theirs.length];
        for (int i = 0; i < theirs.length; i++) {
            mapped[i] = ids.getOrDefault(theirs[i], NONE);
        }
        double logSum = 0;
        for (int n = 1; n <= N; n++) {
            long[] k = keys[n - 1];
            int[] c = counts[n - 1];
            int[] theirCount = new int[k.length];
            int correct = 0;
            for (long t : grams(mapped, n)) {
                int i = Arrays.binarySearch(k, t);
                if (i >= 0 && theirCount[i]++ < c[i]) {
                    correct++; // clipped: an n-gram counts at most as often as we have it
                }
            }
            int guess = Math.max(0, size - n + 1);
            double add = n > 1 ? 1 : 0;
            logSum += Math.log(correct + add + Double.MIN_VALUE) - Math.log(guess + add + Double.MIN_VALUE);
        }
        double log = logSum / N;
        double brevity = Math.min(0, 1 - (theirs.length + 1.0) / (size + 1.0));
        return Math.exp(log + brevity);
    }

    /** The n-gram keys of a mapped sequence, leaving out those with a word we do not have. */
    private static long[] grams(int[] mapped, int n) {
        long[] out = new long[Math.max(0, mapped.length - n + 1)];
        int m = 0;
        outer:
        for (int i = 0; i + n <= mapped.length; i++) {
            long key = 0;
            for (int j = 0; j < n; j++) {
                int id = mapped[i + j];
                if (id == NONE) {
                    continue outer;
                }
                key = key << 16 | id;
            }
            out[m++] = key;
        }
        return m == out.length ? out : Arrays.copyOf(out, m);
    }
}
