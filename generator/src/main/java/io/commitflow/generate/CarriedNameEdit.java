package io.commitflow.generate;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names an exemplar's subject carries from its own diff (a build id, a release's name): which ones this diff
 * lacks, and the one this diff adds in place of a build id the exemplar moved to.
 */
final class CarriedNameEdit {
    private CarriedNameEdit() {}

    /**
     * A name in the description that the exemplar's own diff contains ({@code theirSignature}, {@link
     * DiffTokens#signature}) and this {@code patch} does not: what the exemplar changed ("Use org.tukaani:xz directly
     * from Maven Central", "Update Orbit to R20220830213456") that the subject would claim of a diff that never
     * mentions it. Name-shaped words are judged — joined by {@code - . : / _} ({@code commons-logging},
     * {@code net.i2p.crypto:eddsa}: each part), or letters with digits ({@code R20220830213456}, {@code jdk18on}) —
     * and a plain word only where the exemplar's diff says it {@value #PLAIN_NAME_TIMES} times or more: "gson" in "Use
     * gson directly from Maven Central", whose diff names gson in every target platform it edits, had become the
     * subject of five other libraries' moves to Maven Central on eclipse-jgit/jgit; a plain word said once or twice
     * ("hydration", "local") may say the same of another diff. Null when there is none.
     */
    static String carriedName(String description, int[] theirSignature, String patch) {
        return carriedName(description, theirSignature, null, patch);
    }

    /**
     * {@link #carriedName(String, int[], String)}, with this diff's own signature ({@code ourSignature}, null: none)
     * read first: a word it holds is this diff's, and the patch is scanned only for the others.
     */
    static String carriedName(String description, int[] theirSignature, int[] ourSignature, String patch) {
        if (theirSignature == null || theirSignature.length == 0) {
            return null;
        }
        for (String token : TOKEN_END.split(description)) {
            String name = EDGE.matcher(token).replaceAll("");
            boolean plain = !FileNameEdit.NAME_SHAPED.matcher(name).find();
            for (String word : FileNameEdit.NOT_WORD.split(name)) {
                if (word.length() < 3 || !hasLetter(word)) {
                    continue;
                }
                int h = DiffTokens.wordHash(word);
                // an id (letters and digits, five or more: I20210713220109, jdk18on) is a claim whether or not the
                // exemplar's first words held it; a joined word when they did; a plain word when they said it often
                boolean id = !plain && word.length() >= 5 && word.chars().anyMatch(Character::isDigit);
                boolean theirs = plain ? times(theirSignature, h) >= PLAIN_NAME_TIMES
                        : ExemplarRanker.contains(theirSignature, h);
                if ((id || theirs) && (ourSignature == null || !ExemplarRanker.contains(ourSignature, h))
                        && !FileNameEdit.containsIgnoreCase(patch, word)) {
                    return word;
                }
            }
        }
        return null;
    }

    /**
     * How many times the exemplar's diff must say a plain word for the word to be its own ({@link #carriedName}):
     * once takes every plain word of the exemplar's diff for its own and replaces words the subject needs; six
     * catches too few of the names an exemplar carried.
     */
    static final int PLAIN_NAME_TIMES = 3;

    /** How many of {@code words} are {@code word}. */
    /** What ends a token of a description: spaces, punctuation between names, brackets and quotes. */
    private static final Pattern TOKEN_END = Pattern.compile("[\\s,;()\\[\\]\"'`]+");
    /** What is trimmed from a token's ends: anything but letters and digits. */
    private static final Pattern EDGE = Pattern.compile("^[^\\p{L}\\p{N}]+|[^\\p{L}\\p{N}]+$");

    private static boolean hasLetter(String word) {
        for (int i = 0; i < word.length(); i++) {
            if (Character.isLetter(word.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static int times(int[] words, int word) {
        int n = 0;
        for (int w : words) {
            n += w == word ? 1 : 0;
        }
        return n;
    }

    /**
     * The description with a carried name ({@link #carriedName}) that has digits — a build or release id, {@code
     * Update Orbit to R20220830213456} — replaced by the one name of the same shape (letters, then exactly as many
     * digits) that this {@code patch} adds and does not remove: the id this diff moves to. Unchanged when there is
     * no such name or several; the caller still rejects a subject that names what this diff lacks.
     */
    static String replaceCarried(String description, int[] theirSignature, String patch) {
        return replaceCarried(description, theirSignature, null, patch);
    }

    /** {@link #replaceCarried(String, int[], String)}, reading this diff's own signature first. */
    static String replaceCarried(String description, int[] theirSignature, int[] ourSignature, String patch) {
        String carried = carriedName(description, theirSignature, ourSignature, patch);
        if (carried == null || carried.chars().noneMatch(Character::isDigit) || carried.length() < 4) {
            return description;
        }
        String shape = idShape(carried);
        java.util.Set<String> added = new java.util.LinkedHashSet<>();
        java.util.Set<String> removed = new java.util.HashSet<>();
        for (String line : patch.split("\n")) {
            boolean plus = line.startsWith("+") && !line.startsWith("+++");
            boolean minus = line.startsWith("-") && !line.startsWith("---");
            if (!plus && !minus) {
                continue;
            }
            Matcher m = WORD.matcher(line);
            while (m.find()) {
                String w = m.group();
                if (w.length() == carried.length() && idShape(w).equals(shape)) {
                    (plus ? added : removed).add(w);
                }
            }
        }
        added.removeAll(removed);
        if (added.size() != 1) {
            return description;
        }
        return description.replaceFirst("(?<![\\p{L}\\p{N}])" + Pattern.quote(carried) + "(?![\\p{L}\\p{N}])",
                Matcher.quoteReplacement(added.iterator().next()));
    }

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

    /** A word's shape: each run of letters as {@code A} or {@code a}, each digit as {@code 9}. */
    static String idShape(String word) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            char k = Character.isDigit(c) ? '9' : Character.isUpperCase(c) ? 'A' : 'a';
            if (k == '9' || b.length() == 0 || b.charAt(b.length() - 1) != k) {
                b.append(k);
            }
        }
        return b.toString();
    }
}
