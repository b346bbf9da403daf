package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TestTitleRuleTest {
    private static final String[] BEHAVIOURS = {"keep the order of slots", "warn on a missing prop",
            "skip empty fragments", "reuse the cached vnode", "flush watchers in order", "hydrate a teleport target",
            "merge class bindings", "resolve async components", "unwrap refs in templates", "track map keys",
            "stop nested effects", "patch keyed children"};

    @Test
    void theTestsTitleIsTheSubjectOnlyWhereTheHistorysSubjectsSayTheirTests() {
        for (boolean mirrored : new boolean[] {true, false}) {
            try (Rules r = new Rules()) {
                for (int i = 0; i < BEHAVIOURS.length; i++) {
                    String subject = mirrored ? "Should " + BEHAVIOURS[i] : "Rework the renderer, part " + i;
                    r.learn(TestDiffs.withTest(TestDiffs.change("r", String.format("%040d", i), "Renderer", "patch",
                            subject + "\n", null), "should " + BEHAVIOURS[i]));
                }
                DiffedCommit d = TestDiffs.withTest(TestDiffs.change("r", "e".repeat(40), "Renderer", "patch", null, null),
                        "should not leak the current instance");
                SubjectRule.Written w = new TestTitleRule().write(r.composition(d));
                if (mirrored) {
                    assertThat(w.subject().render()).isEqualToIgnoringCase("should not leak the current instance");
                } else {
                    assertThat(w).isNull();
                }
            }
        }
    }
}
