package io.commitflow.generate;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mood and shape of a description: its first word in the imperative, no doubled word, and whether it starts as
 * prose at all.
 */
final class MoodEdit {
    private MoodEdit() {}

    private static final Map<String, String> VERBS = Map.ofEntries(
            Map.entry("added", "add"), Map.entry("adds", "add"), Map.entry("adding", "add"),
            Map.entry("fixed", "fix"), Map.entry("fixes", "fix"), Map.entry("fixing", "fix"),
            Map.entry("removed", "remove"), Map.entry("removes", "remove"), Map.entry("removing", "remove"),
            Map.entry("updated", "update"), Map.entry("updates", "update"), Map.entry("updating", "update"),
            Map.entry("changed", "change"), Map.entry("changes", "change"), Map.entry("changing", "change"),
            Map.entry("improved", "improve"), Map.entry("improves", "improve"), Map.entry("improving", "improve"),
            Map.entry("implemented", "implement"), Map.entry("implements", "implement"),
            Map.entry("moved", "move"), Map.entry("moves", "move"), Map.entry("renamed", "rename"),
            Map.entry("renames", "rename"), Map.entry("refactored", "refactor"), Map.entry("refactors", "refactor"),
            Map.entry("bumped", "bump"), Map.entry("bumps", "bump"), Map.entry("deleted", "delete"),
            Map.entry("deletes", "delete"), Map.entry("cleaned", "clean"), Map.entry("cleans", "clean"),
            Map.entry("made", "make"), Map.entry("makes", "make"), Map.entry("used", "use"), Map.entry("uses", "use"),
            Map.entry("allowed", "allow"), Map.entry("allows", "allow"), Map.entry("introduced", "introduce"),
            Map.entry("introduces", "introduce"), Map.entry("replaced", "replace"), Map.entry("replaces", "replace"),
            Map.entry("reverted", "revert"), Map.entry("reverts", "revert"), Map.entry("supported", "support"),
            Map.entry("supports", "support"));

    /**
     * The description starts as a subject does: with a word, a number, a name ({@code @since}, {@code .gitignore},
     * {@code #include}, {@code $HOME}, {@code <dependency>}), a quotation or an emoji (a gitmoji history's
     * {@code 🐛 Fix …}, {@code ⬆️ Bump …}); not with an operator or a list marker ({@code +=codecov => notifications},
     * {@code * Inline var}), which some histories hold and no maintainer would take as a suggestion.
     */
    static boolean startsAsProse(String description) {
        String d = description.strip();
        if (d.isEmpty()) {
            return false;
        }
        int c = d.codePointAt(0);
        return Character.isLetterOrDigit(c) || "`\"'[(@._#$<".indexOf(c) >= 0
                || Character.getType(c) == Character.OTHER_SYMBOL;
    }

    private static final Pattern DOUBLED = Pattern.compile("(?<![\\p{L}\\p{N}_.-])(\\p{L}{2,})\\s+\\1(?![\\p{L}\\p{N}_])",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    /** A word said twice in a row said once: a history's typo ("Bump Bump actions/cache …") is not copied. */
    static String withoutDoubledWords(String description) {
        return DOUBLED.matcher(description).replaceAll("$1");
    }

    /** Verbs in their plain form that may follow a plural noun opening a subject: "Changes are …", "Fixes go …". */
    private static final java.util.Set<String> PLAIN_VERBS = java.util.Set.of("are", "have", "name", "take", "keep",
            "stay", "go", "get", "need", "run", "show", "say", "land", "apply", "work", "end");

    /** The past forms of the verbs above, by their base form: "add" → "added", "make" → "made". */
    private static final Map<String, String> PAST = pastForms();

    private static Map<String, String> pastForms() {
        Map<String, String> past = new java.util.HashMap<>();
        VERBS.forEach((form, base) -> {
            if (form.endsWith("ed") || form.equals("made")) {
                past.put(base, form);
            }
        });
        return Map.copyOf(past);
    }

    /** Whether the description opens with a known verb in the past tense: "Added a flag", "Fixed the walker". */
    static boolean opensInPast(String description) {
        return PAST.containsValue(firstWord(description));
    }

    /** Whether the description opens with a known verb in the base or present form: "Add a flag", "Fixes the walker". */
    static boolean opensInPresent(String description) {
        String first = firstWord(description);
        return PAST.containsKey(first) || (VERBS.containsKey(first) && !PAST.containsValue(first));
    }

    /** The description's first word, in lower case. */
    static String firstWord(String d) {
        int sp = d.indexOf(' ');
        return (sp < 0 ? d : d.substring(0, sp)).toLowerCase(Locale.ROOT);
    }

    /**
     * The description in the mood its author writes: the imperative ({@link #imperative}), or where {@code past} the
     * past tense of a known verb ("Added support for …", as some authors of a history write every subject).
     */
    static String inMood(String d, boolean past) {
        String imperative = imperative(d);
        if (!past) {
            return imperative;
        }
        int sp = imperative.indexOf(' ');
        String first = sp < 0 ? imperative : imperative.substring(0, sp);
        // the imperative's first word is a base form only where the description opened with a known verb
        String form = PAST.get(first.toLowerCase(Locale.ROOT));
        if (form == null) {
            return imperative;
        }
        String cased = Character.isUpperCase(first.charAt(0))
                ? Character.toUpperCase(form.charAt(0)) + form.substring(1) : form;
        return cased + (sp < 0 ? "" : imperative.substring(sp));
    }

    /** The description in the imperative mood: its first word, if a known verb form, becomes the base form. */
    static String imperative(String d) {
        int sp = d.indexOf(' ');
        String first = sp < 0 ? d : d.substring(0, sp);
        String base = VERBS.get(first.toLowerCase(Locale.ROOT));
        if (base == null) {
            return d;
        }
        if (first.endsWith("s") && sp > 0) {
            // "Bumps name the library the diff bumps": the first word is the plural noun a verb follows, not a verb
            int end = d.indexOf(' ', sp + 1);
            String second = d.substring(sp + 1, end < 0 ? d.length() : end).toLowerCase(Locale.ROOT);
            if (PLAIN_VERBS.contains(second)) {
                return d;
            }
        }
        String fixed = Character.isUpperCase(first.charAt(0)) ? Character.toUpperCase(base.charAt(0)) + base.substring(1) : base;
        return fixed + (sp < 0 ? "" : d.substring(sp));
    }
}
