package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the history writes the change log's entry as the subject ({@link Conventions#subjectIsChangelogEntry}) and
 * this diff adds one entry ({@link Changelog#added}: to a log file, or a new fragment file), the entry is the subject,
 * in the repository's form, its code quotes kept where the neighbours quote code ({@link #quotedAsNeighbours}); and where the
 * history writes the entry's issue into the subject, this diff's own issue goes there: as the ticket ({@code
 * [LANG-1819] Fix …}), or, for a tracker's {@code #n}, in the tag the neighbours give theirs ({@code [Fix #15073] …}).
 * Where the history's subjects say what its entries say in other words, and the entries scored better against them
 * than the neighbours the ranker chose ({@link Conventions#entryBeatsNeighbours}), an entry that says what the diff
 * does ({@link #entry}) is the subject too. And where only the history's diffs of the log alone said their entries
 * ({@link Conventions#logOnlyIsEntry}: a maintainer who records others' changes there), such a diff's entry is its
 * subject, where the neighbours' subjects would be other entries.
 */
final class ChangelogEntryRule implements SubjectRule {
    @Override
    public Written write(Composition c) {
        // a diff of the log alone says its entry where the history's such diffs did, and its entry is all it says
        boolean mirrored = c.conventions.subjectIsChangelogEntry()
                || c.conventions.logOnlyIsEntry() && Changelog.onlyLogs(c.diff) && Changelog.heading(c.patch()) == null;
        if (!mirrored && !c.conventions.entryBeatsNeighbours() || c.merge) {
            return null;
        }
        Changelog.Entry added = Changelog.added(c.patch());
        if (added == null || added.text() == null || !mirrored && !saysWhatItDoes(added, c.diff)) {
            return null;
        }
        // the entry's own tags are a change log's form ("[jest-runtime] …"), not the subjects', unless they write tags
        String text = mirrored || c.conventions.writesTags() ? added.text() : Changelog.withoutTags(added.text());
        Subject s = c.styled(Subject.parse(quotedAsNeighbours(text, c.neighbours)));
        if (s.render().length() > SubjectLength.MAX) {
            // shortened as a writer would before it is cut to the room its prefix leaves, while its code quotes still
            // say which colon is code ("`resolutionMode: time-based`")
            Subject quoted = Subject.parse(text);
            int room = SubjectLength.MAX - (s.render().length() - s.description().length())
                    + (int) quoted.description().chars().filter(ch -> ch == '`').count();
            String shorter = quoted.withDescription(shortened(quoted.description(), room)).render();
            s = c.styled(Subject.parse(quotedAsNeighbours(shorter, c.neighbours)));
        }
        if (!mirrored) {
            // where the subjects are not the entries, the entry is said in the subjects' mood: "Added an
            // `allowUnusedPatches` install option" is written "add an `allowUnusedPatches` install option" in a history
            // whose subjects are imperative, as its author's are ({@link Composition#pastTense})
            s = s.withDescription(inSubjectsMood(s.description(), c.pastTense));
        }
        s = withAreaInPatch(s, c.diff);
        // an entry that sums up a release's bumps ("… commons-parent from 93 to 104") says this commit's step
        s = s.withDescription(VersionEdit.editNumberPair(s.description(), c.patch()));
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

    /**
     * {@code entry} made shorter for a subject of {@code max} characters before any cut, in the ways a writer
     * shortens a change log's sentence, each only while it is still too long: its first sentence; without an aside
     * in parentheses that gives examples or says more in several words ({@code (e.g. …)}, {@code (and other instance
     * descriptors)}; a name's gloss, {@code (`vendored-libgit2`)} or {@code (PEP 798)}, stays); what comes before
     * a colon that no code quote holds ({@code Dependency resolution is faster: package metadata is now filtered …});
     * and, where the sentence opens with what it is about, without the clause that says which one, up to the
     * predicate ({@code Installing a dependency chain whose packages carry peer dependencies no longer expands …}
     * becomes {@code Installing a dependency chain no longer expands …}). A cut of the whole sentence had left its
     * subject without a predicate ("Installing a dependency chain whose packages carry peer").
     */
    static String shortened(String entry, int max) {
        String t = entry;
        if (t.length() <= max) {
            return t;
        }
        Matcher sentence = SubjectLength.SENTENCE_END.matcher(t);
        if (sentence.find() && sentence.start() >= SubjectLength.MIN) {
            t = t.substring(0, sentence.start());
        }
        if (t.length() <= max) {
            return t;
        }
        t = ASIDE.matcher(t).replaceAll("");
        if (t.length() <= max) {
            return t;
        }
        int colon = colonOutsideQuotes(t);
        if (colon >= SubjectLength.MIN && SubjectLength.words(t.substring(0, colon)) >= 3) {
            return t.substring(0, colon);
        }
        return withoutRelativeClause(t);
    }

    /**
     * An aside in parentheses that a subject leaves out: examples ({@code (e.g. …)}, {@code (such as …)}), more of
     * the same ({@code (and other …)}, {@code (lists, dicts, sets, etc.)}), or four words or more without a code quote.
     */
    private static final Pattern ASIDE = Pattern.compile(
            " \\((?:e\\.g\\.|i\\.e\\.|such as |see |like |as in |including "
            + "|for example|and |or |[^()`]*\\betc\\b|[^()`]* [^()`]* [^()`]* )[^()]*\\)");

    /** The predicate of a sentence that opens with what it is about: {@code … now keeps}, {@code … is no longer}. */
    private static final Pattern PREDICATE =
            Pattern.compile(" (?:(?:is|are|can|will|should|has|have) )?(?:now|no longer) ");

    /** Where a clause that says which one begins: a relative pronoun, a participle ({@code installed over HTTPS}). */
    private static final Pattern WHICH_ONE = Pattern.compile(" (?:whose|that|which|who|where|[a-z]+ed|[a-z]+ing) ");

    /**
     * {@code text}, a sentence that opens with a noun phrase ({@code A git dependency …}, {@code Installing a
     * workspace …}), without the clause between that phrase and a predicate that says "now" or "no longer"; as it is
     * otherwise, or where a comma comes before the predicate (the clause may end there).
     */
    static String withoutRelativeClause(String text) {
        String first = text.substring(0, Math.max(text.indexOf(' '), 0)).toLowerCase(Locale.ROOT);
        boolean determiner = first.equals("a") || first.equals("an") || first.equals("the");
        boolean opensWithNoun = determiner || first.endsWith("ing")
                || (!first.isEmpty() && Character.isUpperCase(text.charAt(0)) && first.endsWith("s"));
        if (!opensWithNoun || MoodEdit.opensInPresent(text) || MoodEdit.opensInPast(text)) {
            return text; // "Fixes a bug that …": a verb opens it, its clauses are its objects'
        }
        Matcher predicate = PREDICATE.matcher(text);
        if (!predicate.find()) {
            return text;
        }
        Matcher which = WHICH_ONE.matcher(text.substring(0, predicate.start() + 1));
        if (!which.find()) {
            return text;
        }
        String head = text.substring(0, which.start());
        // the phrase itself: a determiner and its noun at least ("A failed packument …" keeps its adjective)
        if (SubjectLength.words(head) < (determiner ? 3 : 2)
                || text.substring(0, predicate.start()).contains(",")) {
            return text;
        }
        return head + text.substring(predicate.start());
    }

    /** Where the first colon outside code quotes and quotation marks is, followed by a space; -1 where none is. */
    static int colonOutsideQuotes(String t) {
        boolean tick = false;
        boolean quote = false;
        for (int i = 0; i + 1 < t.length(); i++) {
            char ch = t.charAt(i);
            if (ch == '`') {
                tick = !tick;
            } else if (ch == '"') {
                quote = !quote;
            } else if (ch == ':' && !tick && !quote && t.charAt(i + 1) == ' ') {
                return i;
            }
        }
        return -1;
    }

    /**
     * The description this rule writes of {@code entry} where no prefix takes room: shortened ({@link #shortened}), its
     * code quotes as the neighbours write them ({@link #quotedAsNeighbours}), in the author's mood ({@code past}: the
     * past tense, else the imperative; {@link MoodEdit#inMood}), and cut to 72 characters. What a lesson
     * scores ({@link RetrievalGenerator#lesson}): an entry of three sentences is never the subject, its first clause
     * is.
     */
    static String asWritten(String entry, List<RepoKnowledge.Neighbor> neighbours, boolean past) {
        String d = quotedAsNeighbours(shortened(Subject.parse(entry).description(), SubjectLength.MAX), neighbours);
        return SubjectLength.cut(inSubjectsMood(d, past), SubjectLength.MAX);
    }

    /**
     * An entry's description in the mood of the subjects ({@link MoodEdit#inMood}), unless it opens with what it is
     * about: "Removing a package from a workspace no longer forces …" is a sentence whose subject is a gerund, not a
     * verb in another mood ("remove a package from a workspace no longer forces …").
     */
    static String inSubjectsMood(String d, boolean past) {
        return MoodEdit.firstWord(d).endsWith("ing") ? d : MoodEdit.inMood(d, past);
    }

    /**
     * {@code s} with an area the patch lacks, one that names a path ({@code ignore/types}, voted by neighbours that
     * changed the file types, for a diff in {@code crates/ignore}), cut back to its longest leading part that is a
     * folder of a changed file ({@code ignore}), or without it where none is: the entry is this diff's own words, and
     * its prefix must be too.
     */
    static Subject withAreaInPatch(Subject s, DiffedCommit d) {
        String area = s.area();
        if (area.indexOf('/') < 0 || Faithfulness.faithful(area + ":", d.patch())) {
            return s;
        }
        for (int slash = area.lastIndexOf('/'); slash > 0; slash = area.lastIndexOf('/', slash - 1)) {
            String folder = area.substring(0, slash) + "/";
            for (io.commitflow.git.FileChange f : d.files()) {
                if (f.path().startsWith(folder) || f.path().contains("/" + folder)) {
                    return s.withArea(area.substring(0, slash));
                }
            }
        }
        return s.withArea("");
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
        if (Changelog.heading(d.patch()) != null || d.files().isEmpty() || Changelog.onlyLogs(d)) {
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
