package io.commitflow.generate;

import java.util.ArrayList;
import java.util.List;

/**
 * Chooses which of a diff's nearest earlier commits to adapt. In: the neighbours (most similar first), this diff's
 * word signature and version shape, and the {@link Weights}. Out: the index of the exemplar among the neighbours.
 * <p>Each neighbour scores its cosine similarity, plus how closely its diff matches this one word by word (BLEU
 * between the diffs, NNGen's re-ranking), plus how much its description agrees with the other neighbours' (expected
 * B-Norm, weighted by similarity: a minimum-Bayes-risk choice), plus how well its description's words fit this diff,
 * plus whether both diffs move to the same kind of version. Ties go to the more similar neighbour.
 */
public final class ExemplarRanker {
    static final int K = 10;
    /** Agreement is measured against the most similar neighbours only. */
    static final int CONSENSUS_NEIGHBOURS = 10;

    /**
     * How the exemplar is chosen: how many neighbours by TF-IDF ({@code k}) and by bag of words ({@code kBag}), and
     * the weights of the diff's word-by-word match, of agreement, of fit and of version shape.
     */
    public record Weights(int k, int kBag, double diff, double consensus, double fit, double shape)
            implements java.io.Serializable {}

    public static final Weights DEFAULT_WEIGHTS = new Weights(K, 5, 1.0, 0.5, 0.5, 0.3);

    private ExemplarRanker() {}

    /**
     * The index of the neighbour to adapt; {@code nn} is not empty, {@code subjects} are its subjects, parsed
     * ({@link RepoKnowledge#subjects}).
     */
    static int choose(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, int[] signature, String versionShape,
                      Weights weights) {
        return order(nn, subjects, signature, versionShape, weights).get(0);
    }

    /** The neighbours' indexes, best exemplar first (ties to the more similar neighbour). */
    static List<Integer> order(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, int[] signature,
                               String versionShape, Weights weights) {
        if (nn.size() == 1) {
            return List.of(0);
        }
        WordSet ourWords = WordSet.of(signature);
        List<List<String>> tokens = new ArrayList<>();
        double[] w = new double[nn.size()];
        for (int i = 0; i < nn.size(); i++) {
            tokens.add(MessageTokens.of(subjects.get(i).description()));
            double s = Math.max(0, nn.get(i).score());
            w[i] = s * s;
        }
        PairwiseBleu descriptions = new PairwiseBleu(tokens);
        SignatureBleu diffBleu = new SignatureBleu(signature);
        double[] scores = new double[nn.size()];
        for (int i = 0; i < nn.size(); i++) {
            IndexedCommit theirs = nn.get(i).commit();
            double agree = 0;
            double total = 0;
            for (int j = 0; j < Math.min(nn.size(), CONSENSUS_NEIGHBOURS); j++) {
                if (i != j) {
                    agree += w[j] * descriptions.sentence(i, j);
                    total += w[j];
                }
            }
            double diffMatch = diffBleu.against(theirs.signature());
            double fit = fit(tokens.get(i), ourWords, theirs.signature());
            scores[i] = nn.get(i).score() + weights.diff() * diffMatch
                    + weights.consensus() * (total == 0 ? 0 : agree / total) + weights.fit() * fit
                    + weights.shape() * shapeMatch(versionShape, theirs.versionShape());
        }
        // the best: a later neighbour must beat an earlier, more similar one by more than rounding
        int best = 0;
        for (int i = 1; i < nn.size(); i++) {
            if (scores[i] > scores[best] + 1e-12) {
                best = i;
            }
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < nn.size(); i++) {
            if (i != best) {
                order.add(i);
            }
        }
        order.sort((a, b) -> scores[a] != scores[b] ? Double.compare(scores[b], scores[a]) : Integer.compare(a, b));
        order.add(0, best);
        return order;
    }

    /**
     * How well a description fits this diff: +1 for each of its words that this diff contains, -1 for each that its
     * own diff contained and this one does not (it names something this change does not touch), over its words.
     */
    static double fit(List<String> description, WordSet ourWords, int[] theirSignature) {
        int words = 0;
        double score = 0;
        for (String w : description) {
            if (w.length() < 3 || !Character.isLetterOrDigit(w.charAt(0))) {
                continue;
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

    /** A scan: a description has a few words, a signature a few hundred, so this beats building a set of them. */
    private static boolean contains(int[] words, int word) {
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
