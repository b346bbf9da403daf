package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The terms a diff is retrieved by: its paths (each folder, the file name, its words, the extension), its change
 * kinds, and the identifiers on its added and removed lines, whole and split on camelCase and snake_case
 * ({@code parseCommitEvent} gives {@code parsecommitevent}, {@code parse}, {@code commit}, {@code event}). Counts
 * per term.
 *
 * <p>Also the other things read from a patch's text: its word {@link #signature}, the {@link #lineFingerprints} of
 * its added and removed lines, and the {@link #newVersions} it introduces. Each is read line by line, by the
 * accumulators below, so that {@link DiffFeatures#of} can read all of them in one pass over the patch.
 */
public final class DiffTokens {
    private static final int MAX_IDENTIFIERS_PER_DIFF = 4000;

    private DiffTokens() {}

    public static Map<String, Integer> of(DiffedCommit d) {
        Map<String, Integer> terms = fileTerms(d);
        Identifiers identifiers = new Identifiers(terms);
        String patch = d.patch();
        for (int from = 0, to; from <= patch.length(); from = to + 1) {
            to = lineEnd(patch, from);
            if (isChange(patch, from, to)) {
                identifiers.scan(patch, from, to);
            }
        }
        return terms;
    }

    /** The terms of the diff's files, its change kinds and paths: the first terms of {@link #of}. */
    static Map<String, Integer> fileTerms(DiffedCommit d) {
        Map<String, Integer> terms = new HashMap<>();
        for (FileChange f : d.files()) {
            terms.merge("kind:" + f.change(), 1, Integer::sum);
            path(f.path(), terms);
            if (!f.oldPath().isEmpty() && !f.oldPath().equals(f.path())) {
                path(f.oldPath(), terms);
            }
        }
        return terms;
    }

    private static void path(String path, Map<String, Integer> terms) {
        String[] parts = path.split("/");
        for (int i = 0; i < parts.length - 1; i++) {
            terms.merge("dir:" + parts[i].toLowerCase(Locale.ROOT), 1, Integer::sum);
        }
        String file = parts[parts.length - 1];
        int dot = file.lastIndexOf('.');
        String base = dot > 0 ? file.substring(0, dot) : file;
        if (dot > 0) {
            terms.merge("ext:" + file.substring(dot + 1).toLowerCase(Locale.ROOT), 1, Integer::sum);
        }
        terms.merge("file:" + base.toLowerCase(Locale.ROOT), 2, Integer::sum);
        for (String w : words(base)) {
            terms.merge(w, 2, Integer::sum);
        }
    }

    /**
     * Whether the path of a file header ({@code +++ b/src/Foo.java}, as it stands after {@code +++ }) of the patch
     * passes {@code path}: a scan of the headers only, no split.
     */
    static boolean anyFile(String patch, java.util.function.Predicate<String> path) {
        for (int i = patch.startsWith("+++ ") ? 0 : patch.indexOf("\n+++ "); i >= 0; i = patch.indexOf("\n+++ ", i + 1)) {
            int start = patch.charAt(i) == '\n' ? i + 5 : i + 4;
            int end = patch.indexOf('\n', start);
            if (path.test(patch.substring(start, end < 0 ? patch.length() : end))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Where the line that starts at {@code from} ends: at its {@code '\n'}, or at the end of the patch. Walking the
     * patch line by line this way sees the lines {@code patch.split("\n")} gives, and empty ones after them.
     */
    static int lineEnd(String patch, int from) {
        int nl = patch.indexOf('\n', from);
        return nl < 0 ? patch.length() : nl;
    }

    /** Is the line {@code [from, to)} an added or removed line, not a {@code +++ } or {@code --- } header? */
    static boolean isChange(String patch, int from, int to) {
        if (from == to) {
            return false;
        }
        char c = patch.charAt(from);
        // a line holds no '\n': a header prefix found at its start lies within it
        return (c == '+' || c == '-') && !patch.startsWith("+++ ", from) && !patch.startsWith("--- ", from);
    }

    /**
     * Adds the identifiers of a diff's added and removed lines to its terms: each lowercased, and its words when it
     * has several. A diff repeats its identifiers many times, and lowercasing and splitting every occurrence anew
     * was most of the cost of its terms: each distinct identifier is expanded once. The terms are still added
     * occurrence by occurrence, in order, so the map is built by the same calls as ever and iterates in the same
     * order ({@link FeatureSpace#vector}'s float sums follow that order).
     */
    static final class Identifiers {
        private final Map<String, Integer> terms;
        /** An identifier as written: its lowercase form, then its words when it has several. */
        private final Map<String, String[]> expanded = new HashMap<>(512);
        private int count;

        Identifiers(Map<String, Integer> terms) {
            this.terms = terms;
        }

        /** Adds the identifiers of the added or removed line {@code [from, to)}; its first character is the sign. */
        void scan(String patch, int from, int to) {
            int i = from + 1;
            while (i < to && count < MAX_IDENTIFIERS_PER_DIFF) {
                char c = patch.charAt(i);
                if (Character.isLetter(c) || c == '_') {
                    int j = i + 1;
                    while (j < to && (Character.isLetterOrDigit(patch.charAt(j)) || patch.charAt(j) == '_')) {
                        j++;
                    }
                    if (j - i > 1) {
                        for (String term : expanded.computeIfAbsent(patch.substring(i, j), Identifiers::expand)) {
                            terms.merge(term, 1, Integer::sum);
                        }
                        count++;
                    }
                    i = j;
                } else {
                    i++;
                }
            }
        }

        private static String[] expand(String id) {
            List<String> parts = words(id);
            String[] out = new String[parts.size() > 1 ? 1 + parts.size() : 1];
            out[0] = id.toLowerCase(Locale.ROOT);
            for (int k = 1; k < out.length; k++) {
                out[k] = parts.get(k - 1);
            }
            return out;
        }
    }

    /** How many words of a diff its signature keeps. */
    public static final int SIGNATURE_WORDS = 400;

    /**
     * The diff's first {@value #SIGNATURE_WORDS} words (runs of two or more word characters, lowercased, hashed), in
     * order: what NNGen compares diffs by, cheap to keep for every indexed commit.
     */
    public static int[] signature(String patch) {
        Signature s = new Signature();
        s.scan(patch, 0, patch.length());
        return s.words();
    }

    /**
     * Collects a {@link #signature} from the text it is shown, piece by piece in order. A word never spans a
     * {@code '\n'}, so the lines of a patch, shown one by one, give the signature of the whole.
     */
    static final class Signature {
        private final int[] out = new int[SIGNATURE_WORDS];
        private int n;

        void scan(String text, int from, int to) {
            int i = from;
            while (i < to && n < SIGNATURE_WORDS) {
                char c = text.charAt(i);
                if (Character.isLetterOrDigit(c) || c == '_') {
                    int j = i;
                    int h = 0x811c9dc5;
                    while (j < to && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_')) {
                        h = (h ^ Character.toLowerCase(text.charAt(j))) * 0x01000193;
                        j++;
                    }
                    if (j - i > 1) {
                        out[n++] = h;
                    }
                    i = j;
                } else {
                    i++;
                }
            }
        }

        int[] words() {
            return Arrays.copyOf(out, n);
        }
    }

    /**
     * Fingerprints of the lines a diff adds and removes: each the sum of the 64-bit hashes of those lines' text,
     * so that a revert is recognised by {@code revert.added == original.removed && revert.removed == original.added}.
     */
    public static long[] lineFingerprints(String patch) {
        long added = 0;
        long removed = 0;
        for (int from = 0, to; from <= patch.length(); from = to + 1) {
            to = lineEnd(patch, from);
            if (isChange(patch, from, to)) {
                if (patch.charAt(from) == '+') {
                    added += lineHash(patch, from, to);
                } else {
                    removed += lineHash(patch, from, to);
                }
            }
        }
        return new long[] {added, removed};
    }

    /** The hash of the added or removed line {@code [from, to)}, its sign left out. */
    static long lineHash(String patch, int from, int to) {
        long h = 0xcbf29ce484222325L;
        for (int i = from + 1; i < to; i++) {
            h = (h ^ patch.charAt(i)) * 0x100000001b3L;
        }
        return h ^ (h >>> 29);
    }

    /** The hash {@link #signature} gives a word (lowercased). */
    public static int wordHash(String word) {
        int h = 0x811c9dc5;
        for (int i = 0; i < word.length(); i++) {
            h = (h ^ Character.toLowerCase(word.charAt(i))) * 0x01000193;
        }
        return h;
    }

    /**
     * Version numbers the diff introduces ({@code 1.18.11}): on added lines, not on removed ones, in order. For
     * editing "Update x to 1.2.3" exemplars.
     */
    public static List<String> newVersions(String patch) {
        return versions(patch).introduced();
    }

    /** The version numbers a patch's removed lines hold and its added lines do not: what a bump moves away from. */
    public static List<String> oldVersions(String patch) {
        return versions(patch).dropped();
    }

    private static Versions versions(String patch) {
        Versions versions = new Versions();
        for (int from = 0, to; from <= patch.length(); from = to + 1) {
            to = lineEnd(patch, from);
            if (isChange(patch, from, to)) {
                versions.scan(patch, from, to);
            }
        }
        return versions;
    }

    /** Collects {@link #newVersions} from a patch's added and removed lines, shown one by one in order. */
    static final class Versions {
        private final Set<String> removed = new java.util.LinkedHashSet<>();
        private final List<String> added = new ArrayList<>();

        /** Reads the added or removed line {@code [from, to)}; its first character is the sign. */
        void scan(String patch, int from, int to) {
            if (patch.startsWith("<?xml", from + 1)) {
                return; // an XML declaration's version="1.0" is no library's: a new .target file never moves "to 1.0"
            }
            boolean isRemoved = patch.charAt(from) == '-';
            for (String v : versionsIn(patch, from, to)) {
                if (isUpperBound(patch, from, to, v)) {
                    continue; // "[2.18.0,2.19.0)": a range's excluded end is where no one has moved yet
                }
                if (isRemoved) {
                    removed.add(v);
                } else if (!added.contains(v)) {
                    added.add(v);
                }
            }
        }

        /** Whether {@code v} ends a version range on the line {@code [from, to)}: {@code ,2.19.0)}. */
        private static boolean isUpperBound(String patch, int from, int to, String v) {
            // searched within the line only: indexOf would read on to the patch's end for every version
            for (int at = from; at + v.length() + 2 <= to; at++) {
                if (patch.charAt(at) == ',' && patch.startsWith(v, at + 1) && patch.charAt(at + v.length() + 1) == ')') {
                    return true;
                }
            }
            return false;
        }

        List<String> introduced() {
            List<String> out = new ArrayList<>(added);
            out.removeAll(removed);
            return out;
        }

        List<String> dropped() {
            List<String> out = new ArrayList<>(removed);
            out.removeAll(added);
            return out;
        }
    }

    /**
     * The version numbers in {@code text[from, to)}, in order: the matches, one after the other, of the regular
     * expression {@code (?:(?<![\w.])|(?<=(?<![\w.])v))\d+(?:\.\d+)+(?:[-.][A-Za-z][\w.]*)?(?![\w.])}
     * ({@code \w} and {@code \d} ASCII; a lone {@code v} before the digits is not part of the version:
     * {@code # v3.29.8} holds {@code 3.29.8}), found by hand. A jgit version bump changes hundreds of manifest lines that hold versions, and the
     * regular expression, which tries every position of such a line, was a third of the cost of reading a diff.
     *
     * <p>Why this is the same: a match starts at a digit that follows no word character or dot. Its numbers must
     * be the whole chain of digit runs joined by dots there (stopping short leaves a digit or a {@code .digit}
     * next, which neither the qualifier nor the final look-ahead accepts), with at least two runs. Then a
     * qualifier, when a {@code -} or {@code .} and a letter follow, takes every word character and dot after it,
     * and the look-ahead holds; without one, the look-ahead must hold right after the numbers. Otherwise there is
     * no match at that digit, and the search moves on one character, as the regular expression's does.
     * {@code DiffFeaturesTest} checks this against the regular expression.
     */
    static List<String> versionsIn(String text, int from, int to) {
        List<String> out = new ArrayList<>(0);
        int i = from;
        while (i < to) {
            if (!isAsciiDigit(text.charAt(i)) || (i > from && isWordOrDot(text.charAt(i - 1)) && !afterLoneV(text, from, i))) {
                i++;
                continue;
            }
            int end = digitsEnd(text, i, to);
            int runs = 1;
            while (end + 1 < to && text.charAt(end) == '.' && isAsciiDigit(text.charAt(end + 1))) {
                end = digitsEnd(text, end + 1, to);
                runs++;
            }
            if (runs > 1 && end + 1 < to && (text.charAt(end) == '-' || text.charAt(end) == '.')
                    && isAsciiLetter(text.charAt(end + 1))) {
                end += 2; // the qualifier
                while (end < to && isWordOrDot(text.charAt(end))) {
                    end++;
                }
            } else if (runs == 1 || (end < to && isWordOrDot(text.charAt(end)))) {
                i++;
                continue;
            }
            out.add(text.substring(i, end));
            i = end;
        }
        return out;
    }

    /** Is {@code text[at]} after a {@code v} that follows no word character or dot ({@code # v3.29.8}, {@code @v4.2})? */
    private static boolean afterLoneV(String text, int from, int at) {
        return text.charAt(at - 1) == 'v' && (at - 1 == from || !isWordOrDot(text.charAt(at - 2)));
    }

    private static int digitsEnd(String text, int from, int to) {
        int i = from;
        while (i < to && isAsciiDigit(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    /** {@code [\w.]} of a regular expression without Unicode classes. */
    private static boolean isWordOrDot(char c) {
        return isAsciiDigit(c) || isAsciiLetter(c) || c == '_' || c == '.';
    }

    /**
     * The kind of version a diff moves to: its first new version's qualifier in capitals ({@code SNAPSHOT},
     * {@code M}, {@code RC}, {@code FINAL}), empty for a plain release number, {@code null} when it introduces none.
     * Repositories word a snapshot bump and a release bump differently.
     */
    public static String versionShape(String patch) {
        return shapeOf(newVersions(patch));
    }

    /** The shape of the first of {@code versions} (see {@link #versionShape}). */
    static String shapeOf(List<String> versions) {
        if (versions.isEmpty()) {
            return null;
        }
        String v = versions.get(0);
        StringBuilder shape = new StringBuilder();
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (Character.isLetter(c)) {
                shape.append(Character.toUpperCase(c));
            }
        }
        return shape.toString();
    }

    /** camelCase, PascalCase, snake_case and kebab-case words, lowercased, of two letters or more. */
    public static List<String> words(String identifier) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int n = identifier.length();
        for (int i = 0; i < n; i++) {
            char c = identifier.charAt(i);
            boolean boundary = !Character.isLetterOrDigit(c);
            boolean upperStart = Character.isUpperCase(c) && cur.length() > 0
                    && (Character.isLowerCase(identifier.charAt(i - 1))
                        || (i + 1 < n && Character.isLowerCase(identifier.charAt(i + 1)) && Character.isUpperCase(identifier.charAt(i - 1))));
            if (boundary || upperStart) {
                flush(cur, out);
            }
            if (!boundary) {
                cur.append(Character.toLowerCase(c));
            }
        }
        flush(cur, out);
        return out;
    }

    private static void flush(StringBuilder cur, List<String> out) {
        if (cur.length() > 1) {
            out.add(cur.toString());
        }
        cur.setLength(0);
    }
}
