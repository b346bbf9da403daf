package io.commitflow.generate;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the history writes the change log's entry as the subject ({@link Conventions#subjectIsChangelogEntry}) and
 * this diff adds one entry, the entry is the subject, in the repository's form; and where the history writes the
 * entry's issue as the subject's ticket ({@code [LANG-1819] Fix …}), this diff's own issue is the ticket.
 */
final class ChangelogEntryRule implements SubjectRule {
    @Override
    public Written write(Composition c) {
        if (!c.conventions.subjectIsChangelogEntry() || c.merge) {
            return null;
        }
        Changelog.Entry added = Changelog.added(c.patch());
        if (added == null || added.text() == null) {
            return null;
        }
        Subject s = c.styled(Subject.parse(added.text()));
        String issue = added.issue();
        if (c.conventions.entryIssueIsTicket() && s.ticket().isEmpty() && issue != null) {
            // this diff's own number, never an old one
            List<String> tags = new ArrayList<>();
            tags.add(issue);
            tags.addAll(s.tags());
            s = new Subject(List.copyOf(tags), issue, false, s.type(), s.scope(), s.breaking(), s.area(),
                    s.description(), s.pullRequest());
        }
        return new Written(s, c.nearestExemplars());
    }
}
