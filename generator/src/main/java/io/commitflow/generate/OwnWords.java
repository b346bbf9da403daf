package io.commitflow.generate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether an exemplar's subject speaks of this diff or of its own: the words it would claim. A real subject mostly
 * names what its diff touches (a class, a function, a keyword, a file), and the few words it adds are its history's
 * way of saying what kind of change it is ("Prepare next development iteration"). A neighbour's subject about
 * another change names that change's things ("Add ASOF join to the converter" kept for a fix of ROW equality).
 * <p>
 * A content word of a description (three letters or more, not an English function word nor a verb every history
 * uses) is <em>this diff's</em> when the patch holds it (its stem: {@code simplifies} in {@code simplify}), and
 * <em>the history's</em> when another of the request's neighbours says it too: words a kind of change is described
 * with here. The rest are claims of the exemplar's own change.
 */
final class OwnWords {
    private OwnWords() {}

    /**
     * How alike (the retrieval score) an exemplar's diff must be for its subject to be kept whatever words it claims:
     * diffs this alike are the same kind of change (a release, a translation update, a regenerated file).
     */
    static final float ALIKE = 0.8f;

    /** The share of a description's content words that may be claims of another change: at most one in two. */
    static final double MAX_FOREIGN = 0.5;

    /**
     * Whether the description may be suggested for this diff: its exemplar's diff is {@linkplain #ALIKE alike}, or at
     * most {@link #MAX_FOREIGN} of its content words are neither this diff's nor said by a candidate's subject other
     * than the exemplar's own ({@code exemplarSubject}, as the history wrote it).
     */
    static boolean fits(String description, Composition c, RepoKnowledge.Neighbor exemplar, Subject exemplarSubject) {
        if (exemplar.score() >= ALIKE) {
            return true;
        }
        List<String> words = contentWords(description);
        Set<String> own = new HashSet<>(contentWords(exemplarSubject.description()));
        int foreign = 0;
        for (String w : words) {
            if (!c.patchHolds(w) && c.sayers(w) - (own.contains(w) ? 1 : 0) < 1) {
                foreign++;
            }
        }
        return foreign <= MAX_FOREIGN * words.size();
    }

    /** The patch's changed lines and file headers, lower case, one string: what a diff says. */
    static String changedText(String patch) {
        StringBuilder b = new StringBuilder(patch.length() / 2);
        int from = 0;
        int n = patch.length();
        while (from < n) {
            int to = patch.indexOf('\n', from);
            if (to < 0) {
                to = n;
            }
            char first = patch.charAt(from);
            if (first == '+' || first == '-' || (first == 'd' && patch.startsWith("diff ", from))) {
                for (int i = from; i < to; i++) {
                    b.append(Character.toLowerCase(patch.charAt(i)));
                }
                b.append('\n');
            }
            from = to + 1;
        }
        return b.toString();
    }

    /** Letters, then letters, digits or underscores: the words a claim is made of. */
    private static final Pattern WORD = Pattern.compile("\\p{L}[\\p{L}\\p{N}_]+");

    /** The description's content words, lower case, in order (repeats kept). */
    static List<String> contentWords(String description) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(description);
        while (m.find()) {
            String w = m.group().toLowerCase(Locale.ROOT);
            if (w.length() >= 3 && !GENERIC.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }

    /** The distinct content words of each subject's description, for counting who says a word. */
    static Map<String, Integer> sayers(List<Subject> subjects) {
        Map<String, Integer> count = new HashMap<>();
        for (Subject s : subjects) {
            for (String w : new HashSet<>(contentWords(s.description()))) {
                count.merge(w, 1, Integer::sum);
            }
        }
        return count;
    }

    /**
     * The word's stem as a patch would hold it: a plural, past or progressive ending dropped ({@code aliases} →
     * {@code alias}, {@code simplifies} → {@code simplif}, {@code handled} → {@code handl}), never below four letters.
     */
    static String stem(String w) {
        for (String end : ENDINGS) {
            if (w.endsWith(end) && w.length() - end.length() >= 4) {
                return w.substring(0, w.length() - end.length());
            }
        }
        return w;
    }

    private static final List<String> ENDINGS = List.of("ies", "es", "ed", "ing", "s", "e");

    /**
     * Function words and the verbs and nouns every history describes its changes with: no claim about a diff.
     */
    static final Set<String> GENERIC = Set.of(("the and for with from into onto when not should add adds added adding "
            + "fix fixes fixed fixing update updates updated updating remove removes removed removing use uses used using "
            + "support supports make makes made allow allows improve improves improved change changes changed set sets get "
            + "new more less some all any its this that these those are was were been being has have had can may might "
            + "will would could also only than then but out via per now other there their them they our you your about "
            + "after before over under bump bumps bumped release released version versions minor major patch typo typos "
            + "doc docs documentation test tests testing tested code file files case cases issue issues error errors "
            + "wrong correct incorrect incorrectly fail fails failed failure failing crash crashes better clean cleanup "
            + "refactor refactoring rename renamed move moved instead like does doesn don didn isn aren wasn one two "
            + "which what where while each both same done just too very unused missing properly correctly possible "
            + "handle handling check checks avoid ensure small first last default value values call calls "
            + "always never again between without within during since because unless until whether how why who").split(" "));
}
