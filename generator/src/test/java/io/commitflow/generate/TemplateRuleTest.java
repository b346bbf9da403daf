package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TemplateRuleTest {
    @Test
    void alwaysWritesTheDiffsOwnDescriptionInTheImperative() {
        try (Rules r = new Rules()) {
            DiffedCommit d = TestDiffs.change("r", "3".repeat(40), "Widget", "run", null, null);
            SubjectRule.Written w = new TemplateRule().write(r.composition(d));
            assertThat(w.subject().render()).isEqualTo("Update Widget in src/main/java/org/example");
            assertThat(w.exemplars()).isEmpty();
        }
    }

    @Test
    void isTheLastRuleSoThatEveryDiffGetsASubject() {
        assertThat(RetrievalGenerator.RULES).last().isInstanceOf(TemplateRule.class);
        assertThat(RetrievalGenerator.RULES).first().isInstanceOf(RevertRule.class);
    }
}
