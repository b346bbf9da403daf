package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the history writes the change log's entry as the subject ({@link Conventions#subjectIsChangelogEntry}) and
 * this diff adds one entry ({@link Changelog#added}: to a log file, or a new fragment file), the entry is the subject,
 * in the repository's form, its code quotes kept where the neighbours quote code ({@link #quotedAsNeighbours}); and where the
 * history writes the entry's issue into the subject, this diff's own issue goes there: as the ticket ({@code
 * [LANG-1819] Fix …}), or, for a tracker's {@code #n}, in the tag the neighbours give theirs ({@code [Fix #15073] …}).
 * Where the history's subjects say what its entries say in other words, and the entries scored better against them
 * than the neighbours the ranker chose ({@link Conventions#entryBeatsNeighbours}), an entry that says what the diff
 * does ({@link #entry}) is the subject too.
 */
final class ChangelogEntryRule implements SubjectRule {
    @Override
    public Written write(Composition c) {
        boolean mirrored = c.conventions.subjectIsChangelogEntry();
        if (!mirrored && !c.conventions.entryBeatsNeighbours() || c.merge) {
            return null;
        }
        Changelog.Entry added = Changelog.added(c.patch());
        if (added == null || added.text() == null || !mirrored && !saysWhatItDoes(added, c.diff)) {
            return null;
        }
        // the entry's own tags are a change log's form ("[jest-runtime] …"), not the subjects', unless they write tags
        String text = mirrored || c.conventions.writesTags() ? added.text() : Changelog.withoutTags(added.text());
        text = quotedAsNeighbours(text, c.neighbours);
        Subject s = c.styled(Subject.parse(text));
        String issue = added.issue();
        if (c.conventions.entryIssueIsTicket() && issue != null && issue.startsWith("#")) {
            // a tracker's number: in the tag the neighbours give theirs ("[Fix #15073]")
            String tag = Changelog.issueTag(issue, RepoKnowledge.subjects(c.neighbours));
            if (tag != null) {
                List<String> tags = new ArrayList<>();
                tags.add(tag);
                for (String t : s.tags()) {
                    if (!Changelog.tagsAnIssue(t)) {
                        tags.add(t); // a neighbour's issue is not this diff's
                    }
                }
                s = s.withTags(tags, s.ticket(), s.plainTicket());
            }
        } else if (c.conventions.entryIssueIsTicket() && s.ticket().isEmpty() && issue != null) {
            // this diff's own number, never an old one
            List<String> tags = new ArrayList<>();
            tags.add(issue);
            tags.addAll(s.tags());
            s = s.withTags(tags, issue, false);
        }
        return new Written(s, c.nearestExemplars());
    }

    /** How many of the neighbours' subjects must quote code for the entry to keep its quotes. */
    static final int QUOTING_NEIGHBOURS = 3;

    /**
     * {@code entry} with its code quotes where three or more of the neighbours' subjects quote code ({@code Fix false
     * positives for `Style/DateTime`}), without them otherwise: most histories' subjects leave out the quotes their
     * change logs write.
     */
    static String quotedAsNeighbours(String entry, List<RepoKnowledge.Neighbor> neighbours) {
        return quotesCode(neighbours) ? entry : Changelog.withoutCodeQuotes(entry);
    }

    private static boolean quotesCode(List<RepoKnowledge.Neighbor> neighbours) {
        int quoting = 0;
        for (RepoKnowledge.Neighbor n : neighbours) {
            if (n.commit().subject().indexOf('`') >= 0 && ++quoting >= QUOTING_NEIGHBOURS) {
                return true;
            }
        }
        return false;
    }

    /**
     * The one entry {@code d} adds to a change log, where it says what the diff does: not where the diff changes
     * nothing but change logs (a subject says what was done to the log: "Add changelog entry for #1206"), nor where it
     * opens a version's section (a release moves the entries under their version: "release: create-vite@9.1.0"), nor
     * an entry of fewer than three words (ripgrep's link text "BUG #2177"); null otherwise.
     */
    static String entry(DiffedCommit d) {
        Changelog.Entry added = Changelog.added(d.patch());
        return added != null && added.text() != null && saysWhatItDoes(added, d) ? added.text() : null;
    }

    /** Whether {@code added}, the entry {@code d} adds (its text known), says what {@code d} does ({@link #entry}). */
    private static boolean saysWhatItDoes(Changelog.Entry added, DiffedCommit d) {
        if (Changelog.heading(d.patch()) != null || d.files().stream().allMatch(f -> Changelog.isLog(f.path()))) {
            return false;
        }
        int words = 0;
        for (String w : added.text().split("\\s+")) {
            if (w.length() > 1 && w.chars().anyMatch(Character::isLowerCase)) {
                words++;
            }
        }
        return words >= 3;
    }
}
