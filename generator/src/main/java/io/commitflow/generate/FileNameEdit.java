package io.commitflow.generate;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The edits of an exemplar's file and class names: a name of a file the exemplar changed and this diff does not
 * becomes this diff's main file where both have the same shape ({@code PackWriter} becomes {@code RefUpdate}), a test
 * class stands only for a test class, and the class under test for its test.
 */
final class FileNameEdit {
    private FileNameEdit() {}

    /**
     * Replaces words naming the exemplar's changed files, which this diff does not change, by this diff's main file
     * when both names have the same shape ({@code PackWriter} → {@code RefUpdate}, {@code README} → {@code NEWS});
     * a name of another shape stays ({@code README} never becomes {@code PatchId}), and a name with digits is replaced
     * only by one of the same letters-then-digits form ({@code S20220726152247} never becomes {@code WORKSPACE}), and
     * a lower-case name only where it is written with its extension ({@code kafka.md}, not "index"): see
     * {@link #namesOtherFiles}.
     */
    static String edit(String description, List<String> theirFiles, List<String> ourFiles) {
        return edit(description, theirFiles, ourFiles, null);
    }

    /**
     * {@link #edit(String, List, List)}, where a test class stands only for a test class: when this diff's main file
     * is a test, an exemplar's test class becomes it and an exemplar's other class becomes {@code underTest} (the
     * class it tests, {@link #classUnderTest}; none when null), and a test class never replaces a class that is not
     * one. "Fix collision in CharRange.hashCode()" for a change to CharRangeTest stays about CharRange; "[pgm] Ensure
     * RevWalk is closed" does not become "Ensure UploadPackTest is closed", nor "Add the ability to override parents"
     * "Add BlameGeneratorTest that can overwrite its parents".
     */
    static String edit(String description, List<String> theirFiles, List<String> ourFiles, String underTest) {
        if (ourFiles.isEmpty()) {
            return description;
        }
        String ourMain = ourFiles.get(0);
        boolean testMain = PathKind.testClass(ourMain);
        // one name stands for one file: "Remove TopoSortGenerator and move Commit Graph info to TopoInDegreePhase"
        // must not say TopoInDegreePhase twice, nor two of the exemplar's files both become this diff's one
        boolean named = SubjectLength.mentions(description, ourMain)
                || (underTest != null && SubjectLength.mentions(description, underTest));
        String replaced = null;
        StringBuilder out = new StringBuilder();
        int i = 0;
        int n = description.length();
        while (i < n) {
            char c = description.charAt(i);
            if (Character.isLetterOrDigit(c) || c == '_') {
                int j = i;
                while (j < n && (Character.isLetterOrDigit(description.charAt(j)) || description.charAt(j) == '_')) {
                    j++;
                }
                String word = description.substring(i, j);
                boolean theirs = RepoStyle.matchesFile(word, theirFiles) && !RepoStyle.matchesFile(word, ourFiles);
                // a test class for a test class, the class under test for another class
                String main = PathKind.testClass(word) == testMain ? ourMain : testMain ? underTest : null;
                // a file named by an id (orbit/S20220726152247.tpd) stands for that id: only a file named by an id of
                // the same form replaces it ("Update Orbit to WORKSPACE" is no subject); and an exception only an
                // exception ("a full device budget throws EngineFullException" had become "… throws CudaEngine")
                boolean replace = theirs && main != null && word.length() > 3 && shape(word).equals(shape(main))
                        && throwable(word) == throwable(main)
                        && (!shape(word).equals("a") || writtenAsFile(description, j))
                        && (word.chars().noneMatch(Character::isDigit)
                            || CarriedNameEdit.idShape(word).equals(CarriedNameEdit.idShape(main)))
                        && !named && (replaced == null || replaced.equals(word))
                        && !(i == 0 && actsInSentence(description, j));
                if (replace) {
                    replaced = word;
                }
                out.append(replace ? main : word);
                i = j;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /**
     * Words after a sentence's subject that make it the one acting: an auxiliary ({@link SubjectLength#AUXILIARY}:
     * "… is closed", "… should fail"), "has", "cannot" or an adverb ("… now throws", "… no longer").
     */
    private static final Set<String> PREDICATE_STARTS = predicateStarts();

    private static Set<String> predicateStarts() {
        Set<String> words = new java.util.HashSet<>(SubjectLength.AUXILIARY);
        words.addAll(List.of("has", "had", "cannot", "now", "no", "never", "always", "only", "also", "still", "not"));
        return Set.copyOf(words);
    }

    /**
     * Whether the name that ends at {@code end}, opening the description, is the sentence's subject, a verb or an
     * auxiliary after it ({@code SubjectLength pads a short subject …}, {@code RevWalk is closed …}): what the
     * sentence says the exemplar's class does, this diff's class does not, so it is no name to swap ("PathKind pads a
     * short subject with no file it names already", the demo's). An area ({@code PackWriter: …}) or an object
     * ({@code Use RevWalk …}) is.
     */
    static boolean actsInSentence(String description, int end) {
        if (end >= description.length() || description.charAt(end) != ' ') {
            return false;
        }
        int next = description.indexOf(' ', end + 1);
        String word = description.substring(end + 1, next < 0 ? description.length() : next);
        if (word.isEmpty() || !Character.isLowerCase(word.charAt(0))) {
            return false;
        }
        return PREDICATE_STARTS.contains(word) || (word.length() > 3 && word.endsWith("s") && !word.endsWith("ss")
                && word.chars().allMatch(Character::isLetter));
    }

    /** Whether a class's name says it is thrown: {@code EngineFullException}, {@code OutOfMemoryError}. */
    private static boolean throwable(String name) {
        return name.endsWith("Exception") || name.endsWith("Error");
    }

    /**
     * Whether the word ending at {@code end} is written as a file, its extension after it ({@code kafka.md}): a
     * lower-case word alone is English, whatever file shares its name ("update identifier to unicode 16" had become
     * "Update yarn to unicode 16", "Improve traverse information collection" "Improve index information …").
     */
    private static boolean writtenAsFile(String description, int end) {
        return end + 1 < description.length() && description.charAt(end) == '.'
                && Character.isLetter(description.charAt(end + 1));
    }

    /**
     * The class a diff whose main file is a test ({@code CharRangeTest}, {@code KafkaSinkITCase}) tests, when its
     * patch names it as a word of its own ({@code CharRange}); null for any other diff.
     */
    static String classUnderTest(List<String> ourFiles, String patch) {
        String name = ourFiles.isEmpty() ? null : PathKind.testedName(ourFiles.get(0));
        if (name == null || name.length() <= 3) {
            return null;
        }
        // as the pattern (?<![\w$])NAME(?![\w$]) finds it, without compiling one per suggestion
        for (int at = patch.indexOf(name); at >= 0; at = patch.indexOf(name, at + 1)) {
            int end = at + name.length();
            if ((at == 0 || !identifierChar(patch.charAt(at - 1)))
                    && (end == patch.length() || !identifierChar(patch.charAt(end)))) {
                return name;
            }
        }
        return null;
    }

    /** {@code [\w$]}: an ASCII letter, digit, {@code _} or {@code $}. */
    private static boolean identifierChar(char c) {
        return c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == '$');
    }

    /**
     * Whether the description still names a file the exemplar changed and this diff does not: the exemplar speaks
     * of another part of the code, and the subject would claim a change this diff does not make.
     */
    static boolean namesOtherFiles(String description, List<String> theirFiles, List<String> ourFiles) {
        for (String word : NOT_WORD.split(description)) {
            if (word.length() > 3 && RepoStyle.matchesFile(word, theirFiles) && !RepoStyle.matchesFile(word, ourFiles)) {
                return true;
            }
        }
        return false;
    }

    /** What separates words: anything but letters, digits and {@code _}. */
    static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}_]+");

    /** A name, not a word: parts joined inside it, or letters next to digits. */
    static final Pattern NAME_SHAPED = Pattern.compile(
            "[\\p{L}\\p{N}][-.:/_][\\p{L}\\p{N}]|\\p{L}\\p{N}|\\p{N}\\p{L}");

    /**
     * Whether {@code word} is in {@code text}, ignoring case as {@link String#regionMatches(boolean, int, String, int,
     * int)} does, at every place. A place's first character passes that comparison exactly when its case fold
     * ({@link #fold}) is the word's first character's, so the places are found with {@link String#indexOf(int, int)}
     * on the text folded, and only those are compared whole. A suggestion asks this of one patch (thousands of
     * characters) for many words: each thread keeps the last text it folded.
     */
    static boolean containsIgnoreCase(String text, String word) {
        int n = word.length();
        if (n > text.length()) {
            return false;
        }
        String folded = n == 0 || Character.isSurrogate(word.charAt(0)) ? null : folded(text);
        if (folded == null) {
            for (int i = 0; i + n <= text.length(); i++) {
                if (text.regionMatches(true, i, word, 0, n)) {
                    return true;
                }
            }
            return false;
        }
        int first = fold(word.charAt(0));
        for (int i = folded.indexOf(first); i >= 0 && i + n <= text.length(); i = folded.indexOf(first, i + 1)) {
            if (text.regionMatches(true, i, word, 0, n)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A character's case fold as {@code regionMatches(true, …)} compares characters: two match when they are equal,
     * or their upper cases are, or the lower cases of those are; all three come to equal folds.
     */
    static int fold(char c) {
        if (c < 0x80) {
            return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
        }
        return Character.toLowerCase(Character.toUpperCase((int) c));
    }

    /** The last text this thread folded, and its fold: {@link #containsIgnoreCase} is asked of one patch many times. */
    private static final ThreadLocal<String[]> LAST_FOLDED = ThreadLocal.withInitial(() -> new String[2]);

    /** {@code text}, each character {@link #fold folded}; null where a fold is not one character (none known). */
    private static String folded(String text) {
        String[] last = LAST_FOLDED.get();
        if (last[0] == text) {
            return last[1];
        }
        char[] out = new char[text.length()];
        int i = 0;
        for (; i < out.length; i++) {
            int f = fold(text.charAt(i));
            if (f > Character.MAX_VALUE) {
                break;
            }
            out[i] = (char) f;
        }
        last[0] = text;
        last[1] = i < out.length ? null : new String(out);
        return last[1];
    }

    /** A name's shape: {@code Aa} (PackWriter), {@code A} (README, NEWS), {@code a} (pom, build), or {@code ?}. */
    static String shape(String name) {
        if (name.chars().allMatch(c -> Character.isUpperCase(c) || Character.isDigit(c) || c == '_')) {
            return "A";
        }
        if (name.chars().allMatch(c -> Character.isLowerCase(c) || Character.isDigit(c) || c == '_' || c == '-')) {
            return "a";
        }
        return Character.isUpperCase(name.charAt(0)) ? "Aa" : "?";
    }
}
