package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@link DiffTokens} and {@link DiffFeatures#of} as they were before the one-pass rewrite, kept word for word to
 * check the rewrite against: the same terms in the same order, the same signature, fingerprints and versions.
 *
 * <p>The terms a diff is retrieved by: its paths (each folder, the file name, its words, the extension), its change
 * kinds, and the identifiers on its added and removed lines, whole and split on camelCase and snake_case
 * ({@code parseCommitEvent} gives {@code parsecommitevent}, {@code parse}, {@code commit}, {@code event}). Counts
 * per term.
 */
final class DiffTokensBefore {
    private static final int MAX_IDENTIFIERS_PER_DIFF = 4000;

    private DiffTokensBefore() {}

    static DiffFeatures features(DiffedCommit d) {
        String patch = d.patch();
        return new DiffFeatures(of(d), signature(patch), lineFingerprints(patch), newVersions(patch));
    }

    public static Map<String, Integer> of(DiffedCommit d) {
        Map<String, Integer> terms = new HashMap<>();
        for (FileChange f : d.files()) {
            terms.merge("kind:" + f.change(), 1, Integer::sum);
            path(f.path(), terms);
            if (!f.oldPath().isEmpty() && !f.oldPath().equals(f.path())) {
                path(f.oldPath(), terms);
            }
        }
        identifiers(d.patch(), terms);
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

    /** Identifiers of the +/- lines of a patch (not the headers). */
    private static void identifiers(String patch, Map<String, Integer> terms) {
        int count = 0;
        for (String line : patch.split("\n")) {
            if (line.isEmpty() || (line.charAt(0) != '+' && line.charAt(0) != '-')
                    || line.startsWith("+++ ") || line.startsWith("--- ")) {
                continue;
            }
            int i = 1;
            int n = line.length();
            while (i < n && count < MAX_IDENTIFIERS_PER_DIFF) {
                char c = line.charAt(i);
                if (Character.isLetter(c) || c == '_') {
                    int j = i + 1;
                    while (j < n && (Character.isLetterOrDigit(line.charAt(j)) || line.charAt(j) == '_')) {
                        j++;
                    }
                    String id = line.substring(i, j);
                    if (id.length() > 1) {
                        terms.merge(id.toLowerCase(Locale.ROOT), 1, Integer::sum);
                        List<String> parts = words(id);
                        if (parts.size() > 1) {
                            parts.forEach(p -> terms.merge(p, 1, Integer::sum));
                        }
                        count++;
                    }
                    i = j;
                } else {
                    i++;
                }
            }
        }
    }

    /** How many words of a diff its signature keeps. */
    public static final int SIGNATURE_WORDS = 400;

    /**
     * The diff's first {@value #SIGNATURE_WORDS} words (runs of two or more word characters, lowercased, hashed), in
     * order: what NNGen compares diffs by, cheap to keep for every indexed commit.
     */
    public static int[] signature(String patch) {
        int[] out = new int[SIGNATURE_WORDS];
        int n = 0;
        int i = 0;
        int len = patch.length();
        while (i < len && n < SIGNATURE_WORDS) {
            char c = patch.charAt(i);
            if (Character.isLetterOrDigit(c) || c == '_') {
                int j = i;
                int h = 0x811c9dc5;
                while (j < len && (Character.isLetterOrDigit(patch.charAt(j)) || patch.charAt(j) == '_')) {
                    h = (h ^ Character.toLowerCase(patch.charAt(j))) * 0x01000193;
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
        return java.util.Arrays.copyOf(out, n);
    }

    /**
     * Fingerprints of the lines a diff adds and removes: each the sum of the 64-bit hashes of those lines' text,
     * so that a revert is recognised by {@code revert.added == original.removed && revert.removed == original.added}.
     */
    public static long[] lineFingerprints(String patch) {
        long added = 0;
        long removed = 0;
        for (String line : patch.split("\n")) {
            if (line.isEmpty() || line.startsWith("+++ ") || line.startsWith("--- ")) {
                continue;
            }
            char c = line.charAt(0);
            if (c == '+') {
                added += lineHash(line);
            } else if (c == '-') {
                removed += lineHash(line);
            }
        }
        return new long[] {added, removed};
    }

    private static long lineHash(String line) {
        long h = 0xcbf29ce484222325L;
        for (int i = 1; i < line.length(); i++) {
            h = (h ^ line.charAt(i)) * 0x100000001b3L;
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

    private static final java.util.regex.Pattern VERSION =
            java.util.regex.Pattern.compile("(?:(?<![\\w.])|(?<=(?<![\\w.])v))\\d+(?:\\.\\d+)+(?:[-.][A-Za-z][\\w.]*)?(?![\\w.])");

    /** Does the line hold digit, dot, digit: what every match of {@link #VERSION} contains. */
    private static boolean hasDottedNumber(String line) {
        for (int i = 1; i + 1 < line.length(); i++) {
            if (line.charAt(i) == '.' && isAsciiDigit(line.charAt(i - 1)) && isAsciiDigit(line.charAt(i + 1))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /**
     * Version numbers the diff introduces ({@code 1.18.11}): on added lines, not on removed ones, in order. For
     * editing "Update x to 1.2.3" exemplars.
     */
    public static List<String> newVersions(String patch) {
        java.util.regex.Pattern version = VERSION;
        java.util.Set<String> removed = new java.util.HashSet<>();
        List<String> added = new ArrayList<>();
        for (String line : patch.split("\n")) {
            if (line.startsWith("+++ ") || line.startsWith("--- ") || line.isEmpty()) {
                continue;
            }
            char c = line.charAt(0);
            if (c != '+' && c != '-') {
                continue;
            }
            if (!hasDottedNumber(line)) {
                continue; // most lines have no version: skip the regex, which tries every position
            }
            java.util.regex.Matcher m = version.matcher(line);
            while (m.find()) {
                if (c == '-') {
                    removed.add(m.group());
                } else if (!added.contains(m.group())) {
                    added.add(m.group());
                }
            }
        }
        added.removeAll(removed);
        return added;
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
