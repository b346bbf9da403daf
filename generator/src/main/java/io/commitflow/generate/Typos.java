package io.commitflow.generate;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whether a diff does nothing but correct misspelt words: every changed line is replaced by one that differs from it
 * only in a word or three, each a near spelling of the other ({@code valut} → {@code value}, {@code findPostion} →
 * {@code findPosition}, {@code overriden} → {@code overridden}). Such a diff is titled "Fix typo" in every history
 * read (vuejs/core twelve times in 1,000 commits, commons-lang, jgit, flink-connector-kafka), and its neighbours by
 * content are whatever else touched those files, so no exemplar says it.
 * <p>A near spelling: both words of letters (an identifier's underscores allowed), at least four long, the same
 * first letter, neither the other with letters added at its end ({@code http} → {@code https} is a change of
 * protocol, {@code FILTER} → {@code FILTERS} of a name), and one edit apart (an insertion, a deletion, a substitution
 * or two letters swapped), two where both are eight letters or longer ({@code minimum} → {@code maximum} is a
 * different word). A change of case alone is no misspelling.
 */
public final class Typos {
    /** Words a changed line may correct; more is a rewrite. */
    static final int WORDS_PER_LINE = 3;

    private Typos() {}

    /**
     * The distinct corrections ({@code old→new}) when every change of {@code patch} corrects misspelt words, else
     * none. A diff that adds or removes a line, or changes anything else on one, corrects nothing.
     */
    public static Set<String> corrections(String patch) {
        Set<String> fixes = new HashSet<>();
        List<String> removed = new ArrayList<>();
        List<String> added = new ArrayList<>();
        for (int from = 0, to; from < patch.length(); from = to + 1) {
            to = DiffTokens.lineEnd(patch, from);
            if (to == from) {
                continue;
            }
            char c = patch.charAt(from);
            boolean change = DiffTokens.isChange(patch, from, to);
            if (change && c == '-') {
                // a removed line after added ones starts the next run
                if (!added.isEmpty() && !paired(removed, added, fixes)) {
                    return Set.of();
                }
                removed.add(patch.substring(from + 1, to));
            } else if (change) {
                added.add(patch.substring(from + 1, to));
            } else if (c != '\\' && !paired(removed, added, fixes)) { // "\ No newline at end of file" ends no run
                return Set.of();
            }
        }
        // every run that paired added its corrections: none at all means nothing was corrected
        return paired(removed, added, fixes) && !fixes.isEmpty() ? fixes : Set.of();
    }

    /**
     * Where the corrections of {@code patch} lie when every changed line is a comment ({@link PathKind#comments}):
     * {@code Javadoc} or {@code comment}; null when any is code or text ("Fix typo in Javadoc" and "fix typo in
     * comment" are how jgit, commons-lang and vuejs/core say it; a document's name is said by the length rule, "fix
     * typo in CHANGELOG").
     */
    public static String place(String patch) {
        return PathKind.comments(patch);
    }

    /**
     * A run of removed lines then added ones: pairwise corrections, added to {@code fixes}; cleared after. An empty
     * run pairs trivially.
     */
    private static boolean paired(List<String> removed, List<String> added, Set<String> fixes) {
        try {
            if (removed.size() != added.size()) {
                return false;
            }
            for (int i = 0; i < removed.size(); i++) {
                if (!corrects(removed.get(i), added.get(i), fixes)) {
                    return false;
                }
            }
            return true;
        } finally {
            removed.clear();
            added.clear();
        }
    }

    private static boolean corrects(String before, String after, Set<String> fixes) {
        List<String> a = tokens(before);
        List<String> b = tokens(after);
        if (a.size() != b.size()) {
            return false;
        }
        int words = 0;
        for (int i = 0; i < a.size(); i++) {
            String x = a.get(i);
            String y = b.get(i);
            if (x.equals(y)) {
                continue;
            }
            if (++words > WORDS_PER_LINE || !nearSpelling(x, y)) {
                return false;
            }
            fixes.add(x + "\u2192" + y);
        }
        return words > 0;
    }

    /** Words (letters, digits, underscores) and every other non-space character on its own. */
    static List<String> tokens(String line) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (Character.isLetterOrDigit(c) || c == '_') {
                int j = i;
                while (j < n && (Character.isLetterOrDigit(line.charAt(j)) || line.charAt(j) == '_')) {
                    j++;
                }
                out.add(line.substring(i, j));
                i = j;
            } else {
                out.add(String.valueOf(c));
                i++;
            }
        }
        return out;
    }

    static boolean nearSpelling(String x, String y) {
        if (!lettersOnly(x) || !lettersOnly(y)) {
            return false;
        }
        String a = x.toLowerCase(Locale.ROOT);
        String b = y.toLowerCase(Locale.ROOT);
        int shorter = Math.min(a.length(), b.length());
        if (a.equals(b) || shorter < 4 || a.charAt(0) != b.charAt(0) || a.startsWith(b) || b.startsWith(a)) {
            return false;
        }
        return edits(a, b) <= (shorter >= 8 ? 2 : 1);
    }

    private static boolean lettersOnly(String w) {
        boolean letter = false;
        for (int i = 0; i < w.length(); i++) {
            char c = w.charAt(i);
            if (Character.isLetter(c)) {
                letter = true;
            } else if (c != '_') {
                return false;
            }
        }
        return letter;
    }

    /** Edit distance with adjacent transpositions (optimal string alignment). */
    static int edits(String a, String b) {
        int n = a.length();
        int m = b.length();
        if (Math.abs(n - m) > 2) {
            return 3;
        }
        int[][] d = new int[n + 1][m + 1];
        for (int i = 0; i <= n; i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= m; j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= m; j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[n][m];
    }
}
