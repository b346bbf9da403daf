package io.commitflow.generate;

import java.util.List;

/**
 * The last rule, which always writes: the diff's own {@link TemplateGenerator} description, in the author's mood
 * (the imperative, or the past tense of an author who writes it: {@link Composition#pastTense}) and in the
 * repository's form. It writes when there is no exemplar, and when no exemplar's subject, edited for this diff,
 * names only what this diff contains: an edit that cannot be justified is not made.
 */
final class TemplateRule implements SubjectRule {
    @Override
    public Written write(Composition c) {
        Subject t = Subject.parse(c.template.subject());
        Subject styled = c.styled(t.withDescription(MoodEdit.inMood(t.description(), c.pastTense)));
        // the neighbours' area may name a class this diff does not touch ("CommitGraphWriter: Update
        // config-options.md"): the template's own words stand alone
        return new Written(StyleApplier.withoutUnsupportedArea(styled, c.patch()), List.of());
    }
}
