package io.commitflow.generate;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The title of the one test case a diff adds ({@code it('should not warn on falsy bindings of non-property keys', …)},
 * {@code test('…', …)}): its author's own words for the behaviour the change is about. Where a repository's history
 * shows that its subjects say what such titles say better than its neighbours' subjects do
 * ({@link RepoStyle#learnTestTitle}), the generator writes the title as the description, in the repository's form:
 * text this diff itself contains. vuejs/core titles a fix "fix(hydration): should not warn on falsy bindings of
 * non-property keys" and its test "should not warn on falsy bindings of non-property keys".
 */
public final class TestTitle {
    /** A test case opened on an added line: {@code it(}, {@code test(}, {@code it.only(}…, its title quoted. */
    private static final Pattern CASE = Pattern.compile(
            "^\\+\\s*(?:it|test)(?:\\.(?:only|skip|concurrent|todo|fails))?\\(\\s*(['\"`])((?:\\\\.|(?!\\1).)+)\\1\\s*,");
    /** Whether a patch adds a line that may open a test case: one scan before any split. */
    private static final Pattern OPENS_CASE = Pattern.compile("(?m)^\\+\\s*(?:it|test)[.(]");
    /** A title that opens on a joiner is a scenario's tail, no subject: "inside transition-group", "with nonce". */
    private static final Set<String> OPENERS = Set.of("in", "inside", "with", "without", "w/", "when", "for", "on",
            "if", "after", "before", "of", "by", "via", "during", "within", "as", "at", "from", "into", "and", "or",
            "but", "while");

    private TestTitle() {}

    /** The one test title the patch adds ({@link #clean}ed); null when it adds none, several, or none that stands. */
    public static String of(String patch) {
        if (patch == null || !OPENS_CASE.matcher(patch).find()) {
            return null; // most diffs add no test case: no split
        }
        String found = null;
        for (String line : patch.split("\n")) {
            if (!line.startsWith("+") || line.startsWith("+++")) {
                continue;
            }
            Matcher m = CASE.matcher(line);
            if (!m.find()) {
                continue;
            }
            if (found != null) {
                return null; // which of them the change is about would be a guess
            }
            found = m.group(2);
        }
        return found == null ? null : clean(found);
    }

    /**
     * A title as a description, unescaped and without a final period; null when it is one word, does not start with
     * a letter, is a template ({@code ${name}}) or opens on a joiner ({@link #OPENERS}).
     */
    static String clean(String title) {
        String t = title.replaceAll("\\\\(.)", "$1").strip();
        while (t.endsWith(".")) {
            t = t.substring(0, t.length() - 1).strip();
        }
        String[] words = t.split("\\s+");
        if (words.length < 2 || !Character.isLetter(t.charAt(0)) || t.contains("${")
                || OPENERS.contains(words[0].toLowerCase(Locale.ROOT))) {
            return null;
        }
        return t;
    }
}
