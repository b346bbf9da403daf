package io.commitflow.generate;

import java.util.List;

/**
 * One way {@link RetrievalGenerator} writes a subject. The rules are tried in {@link RetrievalGenerator#RULES}'s
 * order and the first that writes one wins; the last, {@link TemplateRule}, always does.
 */
interface SubjectRule {
    /** What this rule writes for {@code c}, or null when it does not apply. */
    Written write(Composition c);

    /**
     * A rule's result: a subject, before the last touches every draft gets, and the exemplars it was written from;
     * or a whole draft that needs none ({@code whole}, a revert's).
     */
    record Written(Subject subject, List<String> exemplars, Draft whole) {
        Written(Subject subject, List<String> exemplars) {
            this(subject, exemplars, null);
        }
    }
}
