package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ExemplarRuleTest {
    @Test
    void writesTheFirstSupportedExemplarOfTheRankersOrderAndKnowsTheOthers() {
        try (Rules r = new Rules()) {
            List<String> subjects = List.of("Retry runs in Widget", "Let Widget retry its runs",
                    "Widget retries each run", "Bump widget to 2.0.0");
            for (int i = 0; i < subjects.size(); i++) {
                r.learn(TestDiffs.change("r", String.valueOf(i + 1).repeat(40), "Widget", "run",
                        subjects.get(i) + "\n", null));
            }
            Composition c = r.composition(TestDiffs.change("r", "9".repeat(40), "Widget", "run", null, null));

            SubjectRule.Written first = new ExemplarRule().write(c);
            List<SubjectRule.Written> all = ExemplarRule.all(c);
            assertThat(all).hasSize(3).first().isEqualTo(first);
            assertThat(all).extracting(w -> w.subject().render())
                    .containsExactlyInAnyOrderElementsOf(subjects.subList(0, 3));
            assertThat(first.exemplars()).hasSizeBetween(1, 3);
        }
    }

    @Test
    void writesNothingWhenNoExemplarSurvivesItsChecks() {
        try (Rules r = new Rules()) {
            r.learn(TestDiffs.change("r", "1".repeat(40), "Widget", "run", "Bump widget to 2.0.0\n", null))
                    .learn(TestDiffs.change("r", "2".repeat(40), "Widget", "run", "Revert \"Widget: Retry runs\"\n",
                            null));
            DiffedCommit d = TestDiffs.change("r", "3".repeat(40), "Widget", "run", null, null);
            assertThat(new ExemplarRule().write(r.composition(d))).isNull();
        }
        try (Rules r = new Rules()) {
            DiffedCommit d = TestDiffs.change("r", "3".repeat(40), "Widget", "run", null, null);
            assertThat(new ExemplarRule().write(r.composition(d))).as("no history at all").isNull();
        }
    }

    @Test
    void aNeighboursSubjectOnlyWhereItsDiffIsAsAlikeAsTheFloor() {
        try (Rules r = new Rules()) {
            r.learn(TestDiffs.change("r", "1".repeat(40), "Widget", "run", "Retry runs in Widget\n", null));
            DiffedCommit other = TestDiffs.change("r", "2".repeat(40), "Widget", "stop", null, null);
            DiffFeatures f = DiffFeatures.of(other);
            float[] query = r.memory.vector(f.terms());
            java.util.function.DoubleFunction<Composition> at = floor -> new RetrievalGenerator(
                    ExemplarRanker.DEFAULT_WEIGHTS, floor).composition(other, f, r.memory, query, null);
            float score = at.apply(0).candidates.get(0).score();
            assertThat(score).as("a neighbour's diff, alike in part").isStrictlyBetween(0f, 1f);

            assertThat(new ExemplarRule().write(at.apply(0)).subject().render()).isEqualTo("Retry runs in Widget");
            assertThat(new ExemplarRule().write(at.apply(score))).as("as alike as the floor").isNotNull();
            assertThat(new ExemplarRule().write(at.apply(Math.nextUp(score)))).as("less alike than the floor").isNull();
            assertThat(ExemplarRule.all(at.apply(Math.nextUp(score)))).isEmpty();
            assertThat(new RetrievalGenerator().reuseFloor()).isEqualTo(RetrievalGenerator.DEFAULT_REUSE_FLOOR);
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RetrievalGenerator(ExemplarRanker.DEFAULT_WEIGHTS, 1.5))
                .hasMessageContaining("0 to 1: 1.5");
    }
}
