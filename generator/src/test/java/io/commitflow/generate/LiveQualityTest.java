package io.commitflow.generate;

import io.commitflow.event.Suggestion;
import io.commitflow.git.DiffedCommit;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The job scores its own suggestion against the real message the way {@code eval} does. */
class LiveQualityTest {
    private static Suggestion suggestion(String subject) {
        return new Suggestion("r", "a".repeat(40), subject, "", "", "", "retrieval", 0.9, List.of(), "miss", 5, "t",
                "acme", "", 1, 2, 3, "");
    }

    private static DiffedCommit change(String message) {
        return TestDiffs.change("r", "a".repeat(40), "Widget", "run", message, null);
    }

    @Test
    void anExactSubjectScoresOneHundredWhateverTheSquashSuffix() {
        Suggestion s = LiveQuality.score(suggestion("Retry failed runs in Widget"),
                change("Retry failed runs in Widget (#4711)\n\nThe body is not scored."));

        assertThat(s.scored()).isTrue();
        assertThat(s.bnorm()).isEqualTo(100.0);
        assertThat(s.unfaithful()).isFalse();
        assertThat(s.subject()).as("the real message is compared with, never shown").isEqualTo("Retry failed runs in Widget");
    }

    @Test
    void scoresAsEvalDoesAndJudgesFaithfulnessAgainstThisDiff() {
        String real = "Retry failed runs in Widget";
        String ours = "Retry failed runs in PackWriter";                    // PackWriter is not in this diff
        Suggestion s = LiveQuality.score(suggestion(ours), change(real));

        assertThat(s.bnorm()).isEqualTo(Math.round(100 * Bleu.bnorm(ours, real) * 100) / 100.0);
        assertThat(s.bnorm()).isBetween(1.0, 99.0);
        assertThat(s.unfaithful()).isTrue();
        assertThat(Faithfulness.unsupported(ours, change(real).patch())).containsExactly("PackWriter");
    }

    @Test
    void anEventWithoutAMessageIsNotScoredAndAnOldScoreIsCleared() {
        Suggestion cached = suggestion("Retry failed runs in Widget").withQuality(87.5, true);

        Suggestion s = LiveQuality.score(cached, change(null));
        assertThat(s.scored()).isFalse();
        assertThat(s.bnorm()).isEqualTo(Suggestion.NOT_SCORED);
        assertThat(s.unfaithful()).isFalse();
        assertThat(LiveQuality.score(cached, change("  \n")).scored()).isFalse();
    }
}
