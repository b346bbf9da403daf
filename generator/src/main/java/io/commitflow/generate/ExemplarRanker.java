package io.commitflow.generate;

import java.util.ArrayList;
import java.util.List;

/**
 * Chooses which of a diff's nearest earlier commits to adapt. In: the neighbours (most similar first), this diff's
 * word signature, version shape and author, and the {@link Weights}. Out: the neighbours' order, best exemplar first.
 * <p>Each neighbour scores its cosine similarity, plus how closely its diff matches this one word by word (BLEU
 * between the diffs, NNGen's re-ranking), plus how much its description agrees with the other neighbours' (expected
 * B-Norm, weighted by similarity: a minimum-Bayes-risk choice), plus how well its description's words fit this diff,
 * plus whether both diffs move to the same kind of version, plus whether the same person wrote it, plus how recent it
 * is. Ties go to the more similar neighbour. Which weights a repository's history rewards is learned online
 * ({@link RankerChoice}).
 */
public final class ExemplarRanker {
    /**
     * Candidates by TF-IDF. More candidates give the learned weights more to choose from, and the acceptance chain
     * more to fall back on: 30 (and 10 by bag of words) scored better than 10 on every tuned history and than 20 on
     * three of four; 40 scored worse than 30 on three of four. Agreement is still counted among the nearest
     * {@value #CONSENSUS_NEIGHBOURS} only: counted among all of them, it scored worse on every one.
     */
    static final int K = 30;
    /** Agreement is measured against the most similar neighbours only. */
    static final int CONSENSUS_NEIGHBOURS = 10;
    /** Recency falls to 1/e in this many learned commits ({@code exp(-age / RECENCY_ROWS)}). */
    static final double RECENCY_ROWS = 300;

    /**
     * How the exemplar is chosen: how many neighbours by TF-IDF ({@code k}) and by bag of words ({@code kBag}), and
     * the weights of the diff's word-by-word match, of agreement, of fit, of version shape, of the same author and of
     * recency (the similarity's weight is 1).
     */
    public record Weights(int k, int kBag, double diff, double consensus, double fit, double shape, double author,
                          double recency) implements java.io.Serializable {
        /** The weight of each of {@link #features}' terms, the similarity's first. */
        double[] terms() {
            return new double[] {1, diff, consensus, fit, shape, author, recency};
        }
    }

    /** The weights measured with {@code commitflow eval} on four histories before any is learned. */
    public static final Weights DEFAULT_WEIGHTS = new Weights(K, 10, 1.0, 0.5, 0.5, 0.3, 0, 0);

    /** How many terms {@link #features} gives each neighbour. */
    static final int FEATURES = 7;

    private ExemplarRanker() {}

    /**
     * The neighbours' indexes, best exemplar first (ties to the more similar neighbour); {@code subjects} are their
     * subjects, parsed ({@link RepoKnowledge#subjects}), {@code nextSeq} the repository's next row number (how old a
     * neighbour is).
     */
    static List<Integer> order(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, int[] signature,
                               String versionShape, String author, long nextSeq, Weights weights) {
        return order(nn, subjects, signature, versionShape, author, nextSeq, java.util.Set.of(), weights);
    }

    /**
     * As {@link #order(List, List, int[], String, String, long, Weights)}, where the rows in {@code foreign} (a
     * young repository's fleet exemplars, numbered by another memory) have no recency.
     */
    static List<Integer> order(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, int[] signature,
                               String versionShape, String author, long nextSeq, java.util.Set<IndexedCommit> foreign,
                               Weights weights) {
        return order(nn, subjects, signature, versionShape, author, nextSeq, foreign, weights,
                Double.NEGATIVE_INFINITY);
    }

    /**
     * As {@link #order(List, List, int[], String, String, long, java.util.Set, Weights)}, of the neighbours whose
     * similarity is at least {@code floor} only: the others are not ranked (their terms are not computed) but still
     * count in the agreement of those that are. Their order is the full order's with the others left out.
     */
    static List<Integer> order(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, int[] signature,
                               String versionShape, String author, long nextSeq, java.util.Set<IndexedCommit> foreign,
                               Weights weights, double floor) {
        boolean[] among = new boolean[nn.size()];
        int size = 0;
        int last = -1;
        for (int i = 0; i < nn.size(); i++) {
            among[i] = nn.get(i).score() >= floor;
            if (among[i]) {
                size++;
                last = i;
            }
        }
        if (size <= 1) {
            return size == 0 ? List.of() : List.of(last);
        }
        double[][] f = features(nn, subjects, signature, versionShape, author, nextSeq, null, null, among);
        for (int i = 0; i < f.length; i++) {
            if (f[i] != null && foreign.contains(nn.get(i).commit())) {
                f[i][FEATURES - 1] = 0;
            }
        }
        return order(f, weights.terms());
    }

    /**
     * Each neighbour's terms, in {@link Weights#terms()}' order: cosine similarity, BLEU between the diffs, agreement
     * with the other neighbours, fit of its words to this diff, version shape (+1, 0, -1), the same author (1 or 0;
     * never for an empty author) and recency ({@code exp(-age / }{@value #RECENCY_ROWS}{@code )}, age in learned rows).
     */
    static double[][] features(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, int[] signature,
                               String versionShape, String author, long nextSeq) {
        return features(nn, subjects, signature, versionShape, author, nextSeq, null, null);
    }

    /**
     * {@link #features(List, List, int[], String, String, long)}, and each neighbour's description scored (B-Norm)
     * against {@code real} into {@code score}: the ranker's lesson once the real description is known, from the
     * n-grams the agreement term counts anyway.
     */
    static double[][] features(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, int[] signature,
                               String versionShape, String author, long nextSeq, String real, double[] score) {
        return features(nn, subjects, signature, versionShape, author, nextSeq, real, score, null);
    }

    /**
     * As {@link #features(List, List, int[], String, String, long, String, double[])}, for the neighbours in
     * {@code among} only (null: all); the others' rows are null.
     */
    private static double[][] features(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, int[] signature,
                                       String versionShape, String author, long nextSeq, String real, double[] score,
                                       boolean[] among) {
        WordSet ourWords = WordSet.of(signature);
        List<List<String>> tokens = new ArrayList<>();
        double[] w = new double[nn.size()];
        for (int i = 0; i < nn.size(); i++) {
            // agreement reads the nearest CONSENSUS_NEIGHBOURS' words: a neighbour that is neither ranked nor among
            // those is never read
            boolean read = among == null || among[i] || i < CONSENSUS_NEIGHBOURS;
            tokens.add(read ? MessageTokens.of(subjects.get(i).description()) : List.of());
            double s = Math.max(0, nn.get(i).score());
            w[i] = s * s;
        }
        if (real != null) {
            tokens.add(MessageTokens.of(real)); // after the neighbours: agreement reads pairs of them only
        }
        PairwiseBleu descriptions = new PairwiseBleu(tokens);
        if (real != null) {
            for (int i = 0; i < nn.size(); i++) {
                score[i] = descriptions.sentence(i, nn.size());
            }
        }
        SignatureBleu diffBleu = new SignatureBleu(signature);
        boolean known = author != null && !author.isEmpty();
        double[][] f = new double[nn.size()][];
        for (int i = 0; i < nn.size(); i++) {
            if (among != null && !among[i]) {
                continue;
            }
            IndexedCommit theirs = nn.get(i).commit();
            double agree = 0;
            double total = 0;
            for (int j = 0; j < Math.min(nn.size(), CONSENSUS_NEIGHBOURS); j++) {
                if (i != j) {
                    agree += w[j] * descriptions.sentence(i, j);
                    total += w[j];
                }
            }
            f[i] = new double[] {nn.get(i).score(), diffBleu.against(theirs.signature()), total == 0 ? 0 : agree / total,
                    fit(tokens.get(i), ourWords, theirs.signature()), shapeMatch(versionShape, theirs.versionShape()),
                    known && author.equals(theirs.author()) ? 1 : 0,
                    Math.exp(-Math.max(0, nextSeq - 1 - theirs.seq()) / RECENCY_ROWS)};
        }
        return f;
    }

    /**
     * The index of the best neighbour under {@code terms} (a null row is not ranked): a later one must beat an
     * earlier, more similar one by more than rounding.
     */
    static int best(double[][] f, double[] terms) {
        int best = -1;
        double top = 0;
        for (int i = 0; i < f.length; i++) {
            if (f[i] == null) {
                continue; // not ranked
            }
            double s = score(f[i], terms);
            if (best < 0 || s > top + 1e-12) {
                best = i;
                top = s;
            }
        }
        return best;
    }

    /** The neighbours' indexes by their scores under {@code terms}, best first. */
    static List<Integer> order(double[][] f, double[] terms) {
        double[] scores = new double[f.length];
        for (int i = 0; i < f.length; i++) {
            scores[i] = f[i] == null ? Double.NaN : score(f[i], terms);
        }
        int best = best(f, terms);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < f.length; i++) {
            if (i != best && f[i] != null) {
                order.add(i);
            }
        }
        order.sort((a, b) -> scores[a] != scores[b] ? Double.compare(scores[b], scores[a]) : Integer.compare(a, b));
        order.add(0, best);
        return order;
    }

    private static double score(double[] f, double[] terms) {
        double s = 0;
        for (int i = 0; i < terms.length; i++) {
            s += terms[i] * f[i];
        }
        return s;
    }

    /**
     * How well a description fits this diff: +1 for each of its words that this diff contains, -1 for each that its
     * own diff contained and this one does not (it names something this change does not touch), over its words; an
     * id ({@link #isId}) is not counted.
     */
    static double fit(List<String> description, WordSet ourWords, int[] theirSignature) {
        int words = 0;
        double score = 0;
        for (String w : description) {
            if (w.length() < 3 || !Character.isLetterOrDigit(w.charAt(0))) {
                continue;
            }
            if (isId(w)) {
                continue; // a build id the exemplar moved to becomes this diff's (CarriedNameEdit.replaceCarried)
            }
            words++;
            int h = DiffTokens.wordHash(w);
            if (ourWords.contains(h)) {
                score += 1;
            } else if (contains(theirSignature, h)) {
                score -= 1;
            }
        }
        return words == 0 ? 0 : score / words;
    }

    /**
     * An id: five letters and digits or more, with both ({@code s20220215213605}, {@code i20220502200629},
     * {@code jdk18on}). Neither fits nor misfits: an exemplar's "Update Orbit to S20211108222137" counted its old
     * build id against it, though the editor writes this diff's own. Not every word with a digit: years and version
     * stamps do count, and leaving them out too lost on the histories that name versions.
     */
    static boolean isId(String word) {
        if (word.length() < 5) {
            return false;
        }
        boolean digit = false;
        boolean letter = false;
        for (int i = 0; i < word.length() && !(digit && letter); i++) {
            char c = word.charAt(i); // a char as String.chars() gives it, surrogates one by one
            digit |= Character.isDigit((int) c);
            letter |= Character.isLetter((int) c);
        }
        return digit && letter;
    }

    /** A scan: a description has a few words, a signature a few hundred, so this beats building a set of them. */
    static boolean contains(int[] words, int word) {
        for (int x : words) {
            if (x == word) {
                return true;
            }
        }
        return false;
    }

    /** +1 when both diffs move to the same kind of version (both snapshots, both releases), -1 when they differ. */
    static int shapeMatch(String ours, String theirs) {
        if (ours == null || theirs == null) {
            return 0;
        }
        return ours.equals(theirs) ? 1 : -1;
    }
}
