package io.commitflow.generate;

import java.util.ArrayList;
import java.util.List;

/**
 * Which {@link ExemplarRanker.Weights} a repository's history rewards, learned online (issue 16: "learn to rank the
 * candidates from the repository's own history"). Before a commit is learned its neighbours are ranked under every
 * weighting of {@link #GRID}, and each weighting earns what its pick's description scores (B-Norm) against the
 * commit's real description, which is known then. The weighting that has earned most ranks the next suggestions
 * (follow the leader: every weighting's pick is scored on every commit, so none needs to be tried out). Earnings
 * decay by {@value #DECAY} a commit, so a history that changes its habits is followed and the sums stay bounded.
 * <p>Deterministic (the same commits in the same order give the same choice); a POJO inside the {@link RepoModel},
 * so it is checkpointed with the repository and restored with it.
 */
public final class RankerChoice {
    /** The weightings, the default first: it wins every tie, so a repository with nothing learned ranks as before. */
    public static final List<ExemplarRanker.Weights> GRID = grid();
    /** What is left of an earning after each later commit: about the last 4,000 commits count. */
    static final double DECAY = 1 - 1.0 / 4096;
    private static final double[][] TERMS = terms();

    /** What each weighting of {@link #GRID} has earned, decayed. */
    public float[] earned = new float[GRID.size()];
    /** Commits observed. */
    public long observed;

    private static List<ExemplarRanker.Weights> grid() {
        ExemplarRanker.Weights d = ExemplarRanker.DEFAULT_WEIGHTS;
        List<ExemplarRanker.Weights> g = new ArrayList<>();
        g.add(d);
        for (double diff : new double[] {0, 0.5, 1, 2}) {
            for (double consensus : new double[] {0, 0.5, 1, 2}) {
                for (double fit : new double[] {0, 0.5, 1}) {
                    for (double author : new double[] {0, 0.25, 0.5, 1, 2}) {
                        for (double recency : new double[] {0, 0.25, 0.5, 1}) {
                            ExemplarRanker.Weights w = new ExemplarRanker.Weights(d.k(), d.kBag(), diff, consensus, fit,
                                    d.shape(), author, recency);
                            if (!w.equals(d)) {
                                g.add(w);
                            }
                        }
                    }
                }
            }
        }
        // each weighting again, counting the description's length: after all of the others, so a model learned
        // before the length was counted keeps its leader ({@link #migrated})
        int unmeasured = g.size();
        for (int i = 0; i < unmeasured; i++) {
            g.add(g.get(i).withLength(LENGTH));
        }
        return List.copyOf(g);
    }

    /**
     * The weight a weighting of the grid's second half gives a description's length ({@link ExemplarRanker#LENGTH_CAP}).
     * Learned beside the first half, on the four tuned histories (1,000 suggestions, flink-connector-kafka 300): vuejs/core
     * 27.86 -> 28.11 B-Norm, the other three unchanged; 0.5 instead gave vuejs/core 27.92, and 0.25 and 0.5 both
     * 28.11. A fixed weight for every history instead: 0.25 gave vuejs/core 28.10 but flink-connector-kafka 24.80 ->
     * 24.50.
     */
    static final double LENGTH = 0.25;

    /** How many weightings the grid held before the description's length was counted: its first half. */
    static final int UNMEASURED = GRID.size() / 2;

    /**
     * {@code earned} of a model restored from before the description's length was counted (the first half of the grid
     * only), each weighting's earning copied to its twin that counts the length, so the leader stays the one it was
     * (ties go to the first); {@code earned} itself otherwise.
     */
    static float[] migrated(float[] earned) {
        if (earned == null || earned.length != UNMEASURED) {
            return earned;
        }
        float[] both = new float[2 * UNMEASURED];
        System.arraycopy(earned, 0, both, 0, UNMEASURED);
        System.arraycopy(earned, 0, both, UNMEASURED, UNMEASURED);
        return both;
    }

    private static double[][] terms() {
        double[][] t = new double[GRID.size()][];
        for (int i = 0; i < t.length; i++) {
            t[i] = GRID.get(i).terms();
        }
        return t;
    }

    /** The index in {@link #GRID} of the weighting that has earned most; the first of equals. */
    public int leader() {
        float[] e = migrated(earned); // read only: a request may ask while another reads too
        if (e == null || e.length != GRID.size()) {
            return 0; // a model restored from before the choice was kept, or from another grid
        }
        int best = 0;
        for (int i = 1; i < e.length; i++) {
            if (e[i] > e[best]) {
                best = i;
            }
        }
        return best;
    }

    /**
     * One learned commit: neighbours with terms {@code f} ({@link ExemplarRanker#features}) whose descriptions scored
     * {@code score} against the commit's real one.
     */
    void observe(double[][] f, double[] score) {
        earned = migrated(earned);
        if (earned == null || earned.length != GRID.size()) {
            earned = new float[GRID.size()];
        }
        observed++;
        for (int g = 0; g < earned.length; g++) {
            earned[g] = (float) (earned[g] * DECAY + score[ExemplarRanker.best(f, TERMS[g])]);
        }
    }
}
