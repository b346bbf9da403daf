package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MovesRuleTest {
    /** A commit of {@code cls} that moves method {@code b} before {@code a}: it only moves lines. */
    @Test
    void aMoveTakesTheHistorysMovesAsItsExemplarsAndWritesNothingItself() {
        try (Rules r = new Rules()) {
            r.learn(TestDiffs.move("1".repeat(40), "Pack", "alpha", "beta", "Sort members\n"))
                    .learn(TestDiffs.change("r", "2".repeat(40), "Widget", "run", "Widget: Retry runs\n", null))
                    .learn(TestDiffs.move("3".repeat(40), "Walk", "gamma", "delta", "Sort members.\n"))
                    .learn(TestDiffs.move("4".repeat(40), "Tree", "epsilon", "zeta", "Sort methods\n"));

            Composition moved = r.composition(TestDiffs.move("5".repeat(40), "Widget", "run", "walk", null));
            assertThat(new MovesRule().write(moved)).isNull();
            assertThat(moved.subjects).extracting(Subject::description).allMatch(d -> d.startsWith("Sort"))
                    .hasSize(3);

            Composition changed = r.composition(TestDiffs.change("r", "6".repeat(40), "Widget", "run", null, null));
            var before = changed.candidates;
            assertThat(new MovesRule().write(changed)).isNull();
            assertThat(changed.candidates).as("not a move: the neighbours by content stay").isSameAs(before);
        }
    }
}
