package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TypoRuleTest {
    @Test
    void aDiffThatOnlyCorrectsSpellingIsAFixedTypoAndNamesNoExemplar() {
        try (Rules r = new Rules()) {
            r.learn(TestDiffs.change("r", "a".repeat(40), "Widget", "run", "Widget: Retry runs\n", null))
                    .learn(TestDiffs.change("r", "b".repeat(40), "Widget", "walk", "Widget: Walk less\n", null));
            DiffedCommit c = TestDiffs.change("r", "c".repeat(40), "Widget", "run", null, null);
            String path = "src/main/java/org/example/Widget.java";
            DiffedCommit typo = Rules.withPatch(c, "diff --git a/" + path + " b/" + path + "\n--- a/" + path
                    + "\n+++ b/" + path + "\n@@ -1,3 +1,3 @@\n /**\n-  * Runs the widget, optioanl retries\n"
                    + "+  * Runs the widget, optional retries\n   */\n");

            SubjectRule.Written w = new TypoRule().write(r.composition(typo));
            assertThat(w.subject().render()).isEqualTo("Widget: Fix typo in Javadoc");
            assertThat(w.exemplars()).isEmpty();

            assertThat(new TypoRule().write(r.composition(c))).as("a change of code, not of spelling").isNull();
        }
    }
}
