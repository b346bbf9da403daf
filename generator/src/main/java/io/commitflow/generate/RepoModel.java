package io.commitflow.generate;

/**
 * What a repository's generator has learned besides its rows: the TF-IDF document frequencies, the subject style,
 * and the next row number. Kept in Flink state beside the rows.
 */
public final class RepoModel {
    public FeatureSpace features;
    public RepoStyle style;
    public long nextSeq;
    /** Which ranking weights this history rewards, learned online; null in a model saved before it was kept. */
    public RankerChoice ranker = new RankerChoice();

    public RepoModel() {
        this(FeatureSpace.DEFAULT_DIMENSION);
    }

    public RepoModel(int dimension) {
        features = new FeatureSpace(dimension);
        style = new RepoStyle();
    }
}
