package io.commitflow.generate;

import io.commitflow.event.Suggestion;
import io.commitflow.git.DiffedCommit;

/**
 * The job watches its own quality: when an event carries the commit's real message, the suggestion made for it is
 * scored against the real subject the way {@code eval} scores it (B-Norm with a trailing {@code (#n)} removed from
 * both, since no generator can know the number) and judged for {@linkplain Faithfulness faithfulness} against the
 * commit's diff. The SLA windows average both per tenant, beside latency, so a regression shows on the dashboard.
 * The real message is only compared with, never shown as the suggestion.
 */
public final class LiveQuality {
    private LiveQuality() {}

    /**
     * {@code s} with its quality against the message of {@code diff}'s event; not scored when the event had no
     * message (a cached suggestion's score from another event is cleared).
     */
    public static Suggestion score(Suggestion s, DiffedCommit diff) {
        String message = diff.commit().message();
        if (message == null || message.isBlank()) {
            return s.withQuality(Suggestion.NOT_SCORED, false);
        }
        String real = Faithfulness.withoutSquashSuffix(Subject.firstLine(message));
        double bnorm = 100 * Bleu.bnorm(Faithfulness.withoutSquashSuffix(s.subject()), real);
        boolean unfaithful = !Faithfulness.unsupported(s.subject(), diff.patch()).isEmpty();
        return s.withQuality(Math.round(bnorm * 100) / 100.0, unfaithful);
    }
}
