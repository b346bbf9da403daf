package io.commitflow.generate;

import java.util.List;

/**
 * Where the history's subjects say the title of the ticket their diffs cite as their own ({@link
 * Conventions#ownTitleIsSubjects}: Apache Calcite's {@code [CALCITE-7592] Add expression support for FETCH}, whose
 * test says {@code Test case for [CALCITE-7592] Add expression support for FETCH}), this diff's own ticket and its
 * title are the subject, in the repository's form.
 */
final class OwnTitleRule implements SubjectRule {
    @Override
    public Written write(Composition c) {
        if (!c.conventions.ownTitleIsSubjects() || c.merge) {
            return null;
        }
        String key = key(c.voterSubjects);
        String own = key == null ? null : OwnTicket.in(c.patch(), key);
        String title = own == null ? null : OwnTicket.title(c.patch(), own);
        if (title == null) {
            return null;
        }
        Subject s = c.styled(new Subject(List.of(own), own, false, "", "", false, "", title, false));
        return s.ticket().equals(own) ? new Written(s, c.nearestExemplars()) : null;
    }

    /** The project key of the nearest neighbour's ticket ({@code CALCITE-}); null when none has a ticket. */
    private static String key(List<Subject> subjects) {
        for (Subject s : subjects) {
            if (!s.ticket().isEmpty()) {
                return StyleApplier.ticketKey(s.ticket());
            }
        }
        return null;
    }
}
