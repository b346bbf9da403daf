package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RevertRuleTest {
    @Test
    void anExactUndoIsGitsRevertAndAnythingElseIsNotThisRules() {
        try (Rules r = new Rules()) {
            r.learn(TestDiffs.change("r", "a".repeat(40), "Widget", "run", "Widget: Retry runs\n", null));
            DiffedCommit original = TestDiffs.change("r", "b".repeat(40), "Widget", "run", null, null);
            String reversed = original.patch().replace("\n-    void", "\nTMP").replace("\n+    void", "\n-    void")
                    .replace("\nTMP", "\n+    void");

            SubjectRule.Written w = new RevertRule().write(r.composition(Rules.withPatch(original, reversed)));
            assertThat(w.whole().subject()).isEqualTo("Revert \"Widget: Retry runs\"");
            assertThat(w.whole().body()).isEqualTo("This reverts commit " + "a".repeat(40) + ".");
            assertThat(w.whole().exemplars()).containsExactly("a".repeat(40));

            assertThat(new RevertRule().write(r.composition(original))).as("the same change again: no undo").isNull();
        }
    }
}
