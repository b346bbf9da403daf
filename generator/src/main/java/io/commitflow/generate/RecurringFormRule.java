package io.commitflow.generate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A subject that an author writes the same way every time they change the same files, but for a commit id: the form a
 * tool writes, as a deploy action's {@code Deploying to master from @ owner/project@<id> 🚀} for each commit whose
 * site it regenerates. When at least {@value #MIN_REPEATS} of the nearest neighbours are this author's, changed
 * this diff's files ({@link #alike}), and wrote one such form (without GitHub's {@code (#n)}), and no other form of
 * theirs is as common, the form is written with the id left for the author ({@value #ID_PLACEHOLDER}): the id names a
 * commit the diff does not contain. A form without an id (a maintainer's {@code deps: update example dependencies}, a
 * release script's {@code Prepare next development version.}) is written whole, in its author's case and
 * punctuation, where the nearest neighbour wrote it: the other rules had restyled it ({@code build: Update example
 * dependencies}).
 *
 * <p>The form's words are the history's, not this diff's: the project's name in it is what every instance wrote, so
 * it is kept, though the diff may not say it (the real subjects name it just as well). A form with any number other
 * than the id is left to the other rules: a number that changes from one instance to the next (a version, a count)
 * would be an old one here.
 */
final class RecurringFormRule implements SubjectRule {
    /** How many of the author's neighbours must have written the form. */
    static final int MIN_REPEATS = 3;
    /** Stands for a commit id the author knows and the diff does not: git's shortest usual abbreviation's length. */
    static final String ID_PLACEHOLDER = "XXXXXXX";
    /** A commit id: 7 to 40 hex digits, at least one of them a digit (a word such as "deadbeef" is none). */
    private static final Pattern ID = Pattern.compile("\\b(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\\b");
    private static final char MARK = '\u0000';

    @Override
    public Written write(Composition c) {
        String form = form(c.neighbours, c.diff.commit().author(), c.files);
        if (form == null) {
            return null;
        }
        String subject = form.replace(String.valueOf(MARK), ID_PLACEHOLDER);
        if (subject.length() > SubjectLength.MAX || subject.length() < SubjectLength.MIN) {
            return null; // "Fix lexer", said again and again, says too little to be written whole
        }
        List<String> exemplars = new ArrayList<>();
        for (RepoKnowledge.Neighbor n : c.neighbours) {
            if (exemplars.size() < 3 && form.equals(masked(n.commit().subject()))) {
                exemplars.add(n.commit().sha());
            }
        }
        float score = c.neighbours.get(0).score();
        return new Written(null, exemplars, new Draft(subject, c.template.body(), c.template.type(), "",
                RetrievalGenerator.BACKEND, score, List.copyOf(exemplars)));
    }

    /**
     * The recurring form, its ids marked, that {@code author}'s neighbours among {@code nn} wrote for a diff of exactly
     * {@code files} (names without extension, as {@link RepoKnowledge#fileNames} gives them); null when there is none.
     */
    static String form(List<RepoKnowledge.Neighbor> nn, String author, List<String> files) {
        if (author == null || author.isEmpty() || files.isEmpty() || nn.isEmpty()) {
            return null;
        }
        Set<String> ours = new HashSet<>(files.subList(0, Math.min(files.size(), 8)));
        Map<String, Integer> forms = new HashMap<>();
        for (RepoKnowledge.Neighbor n : nn) {
            IndexedCommit x = n.commit();
            if (author.equals(x.author()) && !x.merge() && alike(x.files(), ours)) {
                forms.merge(masked(x.subject()), 1, Integer::sum);
            }
        }
        String best = null;
        int bestCount = 0;
        boolean tie = false;
        for (var e : forms.entrySet()) {
            if (e.getValue() > bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
                tie = false;
            } else if (e.getValue() == bestCount) {
                tie = true;
            }
        }
        if (best == null || tie || bestCount < MIN_REPEATS) {
            return null;
        }
        if (best.indexOf(MARK) < 0 && !best.equals(masked(nn.get(0).commit().subject()))) {
            // the same words each time: written whole only as the nearest neighbour wrote them, not a form the author
            // has since left (ripgrep's "update brew tap" ahead of the "pkg/brew: update tap" it became)
            return null;
        }
        for (int i = 0; i < best.length(); i++) {
            if (Character.isDigit(best.charAt(i))) {
                return null; // another number: it changes from one instance to the next
            }
        }
        return best;
    }

    /**
     * {@code subject} with each commit id in it replaced by a mark, and without the pull request's number that GitHub
     * appends when it merges ({@code chore: update dependencies, Node.js, pnpm, and GitHub Actions (#14006)}): the
     * form is what the author wrote, and a number the diff does not have is never written.
     */
    static String masked(String subject) {
        String s = Faithfulness.withoutSquashSuffix(subject);
        Matcher m = ID.matcher(s);
        return m.find() ? m.replaceAll(String.valueOf(MARK)) : s;
    }

    /**
     * Whether an earlier commit changed the same files as this diff: the same ones, or two or more and at least half
     * of the two commits' files (their eight most changed). An update of the same dependencies, tools and workflows
     * each time changes a few other files besides.
     */
    static boolean alike(List<String> theirs, Set<String> ours) {
        Set<String> union = new HashSet<>(ours);
        int common = 0;
        for (String f : new HashSet<>(theirs)) {
            if (!union.add(f)) {
                common++;
            }
        }
        return common == union.size() || common >= 2 && 2 * common >= union.size();
    }
}
