package io.commitflow.generate;

import java.util.Arrays;
import java.util.Map;

/**
 * Hashed TF-IDF vectors of one repository's diffs: each term goes to one of {@code dimension} buckets with a sign
 * (the hashing trick), weighted {@code (1 + ln tf) * idf}, {@code idf = ln((docs + 1) / (df + 1)) + 1} from the
 * document frequencies of the repository's history so far, and L2-normalised. A row keeps the IDF of the moment it
 * joined the index, so restoring the same rows gives the same answers.
 *
 * <p>This object is the repository's model state: {@link #docs} and {@link #df} grow as commits are learned.
 */
public final class FeatureSpace {
    public static final int DEFAULT_DIMENSION = 1024;

    /** Commits learned. */
    public long docs;
    /** Per bucket, how many learned commits had a term in it. */
    public int[] df;

    public FeatureSpace() {
        this(DEFAULT_DIMENSION);
    }

    public FeatureSpace(int dimension) {
        this.df = new int[dimension];
    }

    public int dimension() {
        return df.length;
    }

    /** The commit's unit vector under the current IDF. */
    public float[] vector(Map<String, Integer> terms) {
        int dim = df.length;
        float[] v = new float[dim];
        for (var e : terms.entrySet()) {
            int h = hash(e.getKey());
            int bucket = Math.floorMod(h, dim);
            float sign = (h & 0x40000000) == 0 ? 1f : -1f;
            double idf = Math.log((docs + 1.0) / (df[bucket] + 1.0)) + 1.0;
            v[bucket] += (float) ((1 + Math.log(e.getValue())) * idf) * sign;
        }
        normalise(v);
        return v;
    }

    /**
     * The diff's bag of words as NNGen sees it (raw counts of the words of {@link DiffTokens#signature}, no IDF),
     * hashed into the same width and L2-normalised: a second, literal view of the diff that finds near-copies
     * (a bot's dependency bump, a revert) that TF-IDF ranks lower.
     */
    public float[] bag(int[] signature) {
        int dim = df.length;
        float[] v = new float[dim];
        for (int h : signature) {
            int mixed = h * 0x9E3779B1;
            v[Math.floorMod(mixed ^ (mixed >>> 15), dim)] += 1f;
        }
        normalise(v);
        return v;
    }

    /** Counts a learned commit's terms in the document frequencies. */
    public void learn(Map<String, Integer> terms) {
        int dim = df.length;
        boolean[] seen = new boolean[dim];
        for (String t : terms.keySet()) {
            int b = Math.floorMod(hash(t), dim);
            if (!seen[b]) {
                seen[b] = true;
                df[b]++;
            }
        }
        docs++;
    }

    static void normalise(float[] v) {
        double n = 0;
        for (float x : v) {
            n += (double) x * x;
        }
        if (n == 0) {
            return;
        }
        float inv = (float) (1 / Math.sqrt(n));
        for (int i = 0; i < v.length; i++) {
            v[i] *= inv;
        }
    }

    /** A stable 32-bit hash (FNV-1a over UTF-16 units, then mixed): the same bucket on every JVM. */
    static int hash(String s) {
        int h = 0x811c9dc5;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x01000193;
        }
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        return h;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FeatureSpace f && f.docs == docs && Arrays.equals(f.df, df);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(docs) * 31 + Arrays.hashCode(df);
    }
}
