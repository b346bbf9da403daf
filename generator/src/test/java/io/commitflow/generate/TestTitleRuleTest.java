package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TestTitleRuleTest {
    private static final String[] BEHAVIOURS = {"keep the order of slots", "warn on a missing prop",
            "skip empty fragments", "reuse the cached vnode", "flush watchers in order", "hydrate a teleport target",
            "merge class bindings", "resolve async components", "unwrap refs in templates", "track map keys",
            "stop nested effects", "patch keyed children"};

    private static DiffedCommit withTest(DiffedCommit d, String title) {
        String spec = "diff --git a/src/renderer.spec.ts b/src/renderer.spec.ts\n--- a/src/renderer.spec.ts\n"
                + "+++ b/src/renderer.spec.ts\n@@ -1,1 +1,3 @@\n describe('renderer', () => {\n+  it('" + title
                + "', () => {\n+  })\n";
        return Rules.withPatch(d, d.patch() + spec);
    }

    @Test
    void theTestsTitleIsTheSubjectOnlyWhereTheHistorysSubjectsSayTheirTests() {
        for (boolean mirrored : new boolean[] {true, false}) {
            try (Rules r = new Rules()) {
                for (int i = 0; i < BEHAVIOURS.length; i++) {
                    String subject = mirrored ? "Should " + BEHAVIOURS[i] : "Rework the renderer, part " + i;
                    r.learn(withTest(TestDiffs.change("r", String.format("%040d", i), "Renderer", "patch",
                            subject + "\n", null), "should " + BEHAVIOURS[i]));
                }
                DiffedCommit d = withTest(TestDiffs.change("r", "e".repeat(40), "Renderer", "patch", null, null),
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
