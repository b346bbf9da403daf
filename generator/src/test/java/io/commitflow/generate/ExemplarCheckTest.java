package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ExemplarCheckTest {
    private static ExemplarCheck.Candidate candidate(Composition c, String edited) {
        RepoKnowledge.Neighbor n = c.candidates.get(0);
        Subject s = Subject.parse(edited);
        return new ExemplarCheck.Candidate(n, s, s, s, true);
    }

    @Test
    void eachCheckTurnsDownWhatItIsFor() {
        try (Rules r = new Rules()) {
            r.learn(TestDiffs.change("r", "1".repeat(40), "Widget", "run", "Retry runs in Widget\n", null));
            Composition c = r.composition(TestDiffs.change("r", "2".repeat(40), "Widget", "run", null, null));

            assertThat(ExemplarCheck.mayEdit(c, c.candidates.get(0), Subject.parse("Revert \"Retry runs\"")))
                    .isFalse();
            assertThat(ExemplarCheck.mayEdit(c, c.candidates.get(0), new Subject(java.util.List.of(), "", false, "",
                    "", false, "", "+=codecov => notifications", false))).isFalse();
            assertThat(ExemplarCheck.mayEdit(c, c.candidates.get(0), Subject.parse("Retry runs in Widget"))).isTrue();

            assertThat(ExemplarCheck.passes(c, candidate(c, "Retry runs in Widget"))).isTrue();
            assertThat(ExemplarCheck.FAITHFUL.test(c, candidate(c, "Retry runs in PackWriter"))).isFalse();
            assertThat(ExemplarCheck.NO_OLD_NUMBER.test(c, candidate(c, "Retry runs in Widget, see #123 and FLINK-123"))).isFalse();
            assertThat(ExemplarCheck.NAMES_THE_BUMPED_LIBRARY.test(c, new ExemplarCheck.Candidate(
                    c.candidates.get(0), Subject.parse("x"), Subject.parse("x"), Subject.parse("x"), false))).isFalse();
            assertThat(ExemplarCheck.passes(c, candidate(c, "Retry runs in PackWriter"))).isFalse();
        }
    }
}
