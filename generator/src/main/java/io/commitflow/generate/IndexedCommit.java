package io.commitflow.generate;

import java.util.List;

/**
 * One earlier commit of a repository in its retrieval index: its real subject, the names of the files it changed
 * (most-changed first, for editing identifiers), and its TF-IDF vector, sparse.
 *
 * @param seq   the repository's running number of learned commits; lower is older
 * @param files     changed files' names without extension, at most eight
 * @param signature the diff's first words, hashed ({@link DiffTokens#signature}), to compare diffs word by word
 * @param added     fingerprint of the lines the diff adds ({@link DiffTokens#lineFingerprints})
 * @param removed   fingerprint of the lines it removes
 * @param ts        the commit event's time: a query never sees rows of events later than its own
 * @param versionShape the kind of version the diff moved to ({@link DiffTokens#versionShape}), or null
 * @param merge     the commit had several parents: its subject ("Merge …") is an exemplar only for merges
 * @param author    the author as the event named it (empty when it did not; null in rows learned before authors
 *                  were kept): people keep their own phrasing, so the ranker may prefer an exemplar by the same author
 */
public record IndexedCommit(long seq, String sha, String subject, List<String> files, int[] index, float[] value,
                            int[] signature, long added, long removed, long ts, String versionShape, boolean merge,
                            String author) {

    public float[] dense(int dimension) {
        float[] v = new float[dimension];
        for (int i = 0; i < index.length; i++) {
            v[index[i]] = value[i];
        }
        return v;
    }

    static IndexedCommit of(long seq, String sha, String subject, List<String> files, float[] dense, int[] signature,
                            long[] lines, long ts, String versionShape, boolean merge, String author) {
        Sparse v = Sparse.of(dense);
        return new IndexedCommit(seq, sha, subject, List.copyOf(files), v.index(), v.value(), signature, lines[0], lines[1],
                ts, versionShape, merge, author == null ? "" : author);
    }

    /** A vector by its non-zero positions and values. */
    public record Sparse(int[] index, float[] value) {
        public static Sparse of(float[] dense) {
            int nonZero = 0;
            for (float x : dense) {
                if (x != 0) {
                    nonZero++;
                }
            }
            int[] idx = new int[nonZero];
            float[] val = new float[nonZero];
            for (int i = 0, j = 0; i < dense.length; i++) {
                if (dense[i] != 0) {
                    idx[j] = i;
                    val[j++] = dense[i];
                }
            }
            return new Sparse(idx, val);
        }
    }
}
