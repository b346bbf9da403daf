package io.commitflow.generate;

import java.util.ArrayList;
import java.util.List;

/**
 * Which {@link ExemplarRanker.Weights} a repository's history rewards, learned online: repositories differ in which
 * exemplar their own messages follow, so the ranking is learned from each one's history. Before a commit is learned
 * its neighbours are ranked under every weighting of {@link #GRID}, and each weighting earns what its pick's
 * description scores (B-Norm) against the commit's real description, which is known then. The weighting that has earned most ranks the next suggestions
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
        return List.copyOf(g);
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
        if (earned == null || earned.length != GRID.size()) {
            return 0; // a model restored from before the choice was kept, or from another grid
        }
        int best = 0;
        for (int i = 1; i < earned.length; i++) {
            if (earned[i] > earned[best]) {
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
        if (earned == null || earned.length != GRID.size()) {
            earned = new float[GRID.size()];
        }
        observed++;
        for (int g = 0; g < earned.length; g++) {
            earned[g] = (float) (earned[g] * DECAY + score[ExemplarRanker.best(f, TERMS[g])]);
        }
    }
}
