package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import io.commitflow.gpu.CpuEngine;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RankerChoiceTest {
    static final String ANN = "Ann <ann@example.com>";
    static final String BOB = "Bob <bob@example.com>";

    @Test
    void ranksWithTheDefaultWeightsUntilAnotherWeightingHasEarnedMore() {
        RankerChoice choice = new RankerChoice();
        assertThat(RankerChoice.GRID.get(0)).isEqualTo(ExemplarRanker.DEFAULT_WEIGHTS);
        assertThat(choice.leader()).isZero();

        // the default's pick (the most similar) is as good as any other pick: nobody earns more than it
        double[][] f = {{0.9, 0, 0, 0, 0, 0, 1}, {0.8, 0, 0, 0, 0, 1, 0.5}};
        choice.observe(f, new double[] {0.4, 0.4});
        assertThat(choice.leader()).isZero();
        assertThat(choice.observed).isEqualTo(1);
    }

    @Test
    void followsTheWeightingWhosePicksMatchedTheRealSubjects() {
        RankerChoice choice = new RankerChoice();
        // the less similar neighbour is the author's own, and it is the one whose subject the author wrote again
        double[][] f = {{0.9, 0, 0, 0, 0, 0, 1}, {0.8, 0, 0, 0, 0, 1, 0.9}};
        for (int i = 0; i < 20; i++) {
            choice.observe(f, new double[] {0.1, 0.7});
        }
        ExemplarRanker.Weights leader = RankerChoice.GRID.get(choice.leader());
        assertThat(leader.author()).isPositive();
        assertThat(ExemplarRanker.best(f, leader.terms())).isEqualTo(1);
    }

    @Test
    void learnsFromEveryCommitOfASmallHistoryAndFromFewerAsTheLookupGrowsDearer() {
        assertThat(RetrievalGenerator.lessonStride(1)).isEqualTo(1);
        assertThat(RetrievalGenerator.lessonStride(499)).isEqualTo(1);
        assertThat(RetrievalGenerator.lessonStride(500)).isEqualTo(2);
        assertThat(RetrievalGenerator.lessonStride(5000)).isEqualTo(20);
    }

    @Test
    void aRestoredModelWithoutEarningsRanksWithTheDefault() {
        RankerChoice old = new RankerChoice();
        old.earned = null; // a model saved before the choice was kept
        assertThat(old.leader()).isZero();
        old.observe(new double[][] {{1, 0, 0, 0, 0, 0, 1}}, new double[] {1});
        assertThat(old.earned).hasSize(RankerChoice.GRID.size());
    }

    /**
     * Ann and Bob change the same class the same way and describe it each in their own words; Bob commits twice as
     * often, so the neighbours' consensus (the default weights) writes Bob's words for Ann too. Learned as the
     * history is replayed, the ranker writes each in their own.
     */
    @Test
    void aRepositoryWhoseAuthorsKeepTheirOwnPhrasingIsWrittenInTheAuthorsWords() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge learned = RepoKnowledge.fresh(engine, 0, 1000);
            RepoKnowledge fixed = RepoKnowledge.fresh(engine, 1, 1000);
            RetrievalGenerator generator = new RetrievalGenerator();
            for (int i = 0; i < 60; i++) {
                boolean ann = i % 3 == 0;
                DiffedCommit d = TestDiffs.by(TestDiffs.change("r", sha(i), "Widget", "run" + (i % 7),
                        ann ? "Make retries configurable\n" : "Harden the retry loop\n", null), ann ? ANN : BOB);
                DiffFeatures f = DiffFeatures.of(d);
                generator.observe(d, f, learned, learned.vector(f.terms()), d.commit().message());
                learned.learn(d, f, learned.vector(f.terms()), d.commit().message());
                fixed.learn(d, f, fixed.vector(f.terms()), d.commit().message());
            }
            DiffedCommit next = TestDiffs.by(TestDiffs.change("r", sha(99), "Widget", "run3", null, null), ANN);
            DiffFeatures f = DiffFeatures.of(next);

            assertThat(RankerChoice.GRID.get(RetrievalGenerator.ranker(learned.model())).author()).isPositive();
            assertThat(generator.generate(next, f, learned, learned.vector(f.terms())).subject())
                    .isEqualTo("Make retries configurable");
            assertThat(fixed.model().ranker.observed).isZero();
            assertThat(generator.generate(next, f, fixed, fixed.vector(f.terms())).subject())
                    .as("the default weights, nothing learned").isEqualTo("Harden the retry loop");
        }
    }

    static String sha(int i) {
        return String.format("%040x", i + 1);
    }
}
