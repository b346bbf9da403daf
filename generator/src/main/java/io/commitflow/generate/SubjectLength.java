package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Holds a generated subject to 20–72 characters, whatever the exemplar it was edited from: the length a load tester
 * checks (the reference k6 script does) and the one {@code git log --oneline} and most review tools show whole; from
 * 6 where the history writes short subjects itself ({@link Conventions#subjectFloor}), since padding {@code Release
 * 1.0.30} adds words such a history does not write, and where it names its main file already (below) unless the
 * deployment sets the floor.
 * <ul>
 * <li>Too long: the description is cut at a word boundary, dangling joiners ({@code and}, {@code to}, …) and
 * punctuation dropped; if the prefix alone leaves no room, the scope and area go, then the tags.</li>
 * <li>Too short or empty: the main changed file (the one with most changed lines) is named — {@code Fix typo} becomes
 * {@code Fix typo in StringUtils}, {@code release: v3.4.1} becomes {@code release: v3.4.1 in CHANGELOG} (a project
 * document by its name, without the extension) — or its path or directory: only names this diff contains, so the
 * edit stays faithful. Where none of those fits, a subject that names the main file already stands as it is from
 * {@link #SHORT_FLOOR} characters, its file by its whole name where that fits ({@code Update RichString.h}, {@code
 * Update ChangeLog}); else {@code in this repository} pads it.</li>
 * </ul>
 * A subject that already fits is returned unchanged.
 */
public final class SubjectLength {
    public static final int MIN = 20;
    public static final int MAX = 72;
    /**
     * The fewest characters where a history writes short subjects itself ({@link Conventions#subjectFloor}): {@code
     * Fix CI} stands as it is, a shorter one is padded as any below {@link #MIN} elsewhere.
     */
    public static final int SHORT_FLOOR = 6;
    private static final Set<String> DANGLING = Set.of("and", "or", "to", "the", "a", "an", "for", "in", "of", "with",
            "from", "on", "by", "at", "into", "as", "via", "when", "if", "that", "than", "but", "is", "are", "be",
            // a verb still waiting for its own: "… toggling branches with in-out mode should" (of "… should be
            // transitioned correctly"), "AtomicSafeInitializer.get() can" (not "using": "… not null before using"
            // is whole, and commons-lang's own history ends four subjects "… test using")
            "should", "must", "will", "would", "can", "could", "may", "might", "shall", "does", "do",
            // and a determiner or relative still waiting for its noun: "… no old PR numbers, no" (of "…, no nonsense
            // renames"), "… with its"
            "no", "its", "their", "every", "our", "your", "my", "which", "whose",
            // and the prepositions the list above lacked, which no real subject of the six histories ends on and a
            // cut did: "… SDK, exported over" (of "… exported over OTLP"), "… burns CPU during"
            "over", "about", "between", "during", "within", "without", "against", "across", "among", "onto", "upon",
            "per", "toward", "towards", "beside",
            // and an adverb waiting for its verb: "… a changed source or test file, never" (of "…, never a build file")
            "never");
    /** Words before which a trailing "not" waits for a verb too: "SpecifiedOffsetsInitializer should not". */
    static final Set<String> AUXILIARY = Set.of("should", "must", "will", "would", "can", "could", "may",
            "might", "shall", "does", "do", "did", "is", "are", "was", "were");

    private SubjectLength() {}

    /** The subject is 20–72 characters (ends stripped). */
    public static boolean conforms(String subject) {
        return conforms(subject, MIN);
    }

    /** The subject is {@code floor}–72 characters (ends stripped). */
    public static boolean conforms(String subject, int floor) {
        if (subject == null) {
            return false;
        }
        int n = subject.strip().length();
        return n >= floor && n <= MAX;
    }

    /** {@code s} made 20–72 characters long, with names from {@code diff} where it is too short (or as above). */
    public static Subject fit(Subject s, DiffedCommit diff) {
        return fit(s, diff, MIN);
    }

    /**
     * {@code s} made {@code floor}–72 characters long, with names from {@code diff} where it is too short; one that
     * names its main file may stay shorter, from {@link #SHORT_FLOOR}, where no name fits.
     */
    public static Subject fit(Subject s, DiffedCommit diff, int floor) {
        return fit(s, diff, floor, false);
    }

    /**
     * As {@link #fit(Subject, DiffedCommit, int)}; {@code strict}: never shorter than {@code floor} (a floor the
     * deployment sets, {@code --min-subject-chars}).
     */
    public static Subject fit(Subject s, DiffedCommit diff, int floor, boolean strict) {
        Subject fitted = s;
        String d = s.description().strip();
        // an exemplar's first line wrapped mid-phrase: "Add test coverage for", or inside an argument list: "Two fixes
        // in RandomStringUtils.random(int, int, int, boolean, boolean,"
        String whole = closed(withoutDanglingEnd(d));
        if (!whole.equals(d)) {
            fitted = s.withDescription(whole);
        }
        if (fitted.render().length() > MAX) {
            fitted = shorten(fitted);
        }
        if (fitted.render().length() < floor) {
            fitted = lengthen(fitted, diff, floor, strict);
        }
        return fitted;
    }

    /**
     * Whether {@code s}, made to fit, still says something: a description of three words or more that the cut would
     * leave as one word ({@code org.apache.commons.lang3.reflect.MethodUtils.getMethodObject}, the rest of "… now
     * returns null instead of throwing …" cut away) does not.
     */
    static boolean keepsPhrase(Subject s, DiffedCommit diff) {
        if (s.render().length() <= MAX || words(s.description()) < 3) {
            return true;
        }
        return words(fit(s, diff).description()) >= 2;
    }

    /** A plain subject (no parts to keep: a revert's, a template's) made to fit. */
    public static String fit(String subject, DiffedCommit diff) {
        return fit(subject, diff, MIN, false);
    }

    /** {@link #fit(String, DiffedCommit)} to {@code floor}–72 characters; {@code strict} as for a {@link Subject}. */
    public static String fit(String subject, DiffedCommit diff, int floor, boolean strict) {
        String s = subject == null ? "" : subject.strip();
        if (conforms(s, floor)) {
            return s;
        }
        if (s.length() > MAX && s.startsWith("Revert \"") && s.endsWith("\"")) {
            // git's revert message: keep it recognisable, the reverted subject cut inside the quotes
            return "Revert \"" + ellipsised(s.substring(8, s.length() - 1), MAX - 9) + "\"";
        }
        return fit(new Subject(List.of(), "", false, "", "", false, "", s, false), diff, floor, strict).render();
    }

    /**
     * A quoted subject cut after its last whole word that fits, "…" marking the cut, as GitHub shortens a revert's
     * title ({@code Revert "fix(compiler-sfc): add error handling for defineModel() without…"}): every word of it is
     * the reverted commit's own, so as many as fit are kept; the clause cut of {@link #cut} left "Revert
     * "fix(compiler-sfc): add error handling"".
     */
    static String ellipsised(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int space = text.lastIndexOf(' ', max - 1);
        String kept = TRAILING.matcher(space > 0 ? text.substring(0, space) : text.substring(0, max - 1)).replaceAll("");
        return kept + "\u2026";
    }

    private static Subject shorten(Subject s) {
        int prefix = s.withDescription("").render().length() + 1;
        if (MAX - prefix >= MIN / 2 && words(cut(s.description(), MAX - prefix)) < 3
                && words(s.description()) >= 3) {
            // a long name does not fit beside the scope and tags ("[FLINK-1][connectors/kafka] Add" would be left):
            // the description matters more than the prefix, whose ticket and type stay
            Subject bare = withoutExtras(s);
            int barePrefix = bare.withDescription("").render().length() + 1;
            if (words(cut(s.description(), MAX - barePrefix)) > words(cut(s.description(), MAX - prefix))) {
                s = bare;
                prefix = barePrefix;
            }
        }
        if (MAX - prefix < MIN / 2) {
            // the prefix leaves no room for a description: keep the ticket and the type, drop the rest
            s = withoutExtras(s);
            prefix = s.withDescription("").render().length() + 1;
            if (MAX - prefix < MIN / 2) {
                return new Subject(List.of(), "", false, "", "", false, "", cut(s.render(), MAX), false);
            }
        }
        return s.withDescription(cut(s.description(), MAX - prefix));
    }

    /** What a cut subject must not end on: spaces, commas, colons, an opening parenthesis, dashes, slashes. */
    private static final java.util.regex.Pattern TRAILING = java.util.regex.Pattern.compile("[\\s,;:(\\-–—/]+$");

    /** A sentence's end inside a description: a period, then a space and a capital. */
    static final java.util.regex.Pattern SENTENCE_END = java.util.regex.Pattern.compile("\\.\\s+(?=[A-Z])");

    /**
     * Where a long subject can end as a whole phrase: before a clause ({@code … if a name is too long}, {@code …
     * before resolve}: without the time clauses "fix(runtime-core): handle switching away from kept-alive component
     * before resolve" ended "handle switching away"), or before a
     * semicolon or a spaced dash, which end a phrase whatever follows ("Fuzz the running job with hostile input; fix
     * two holes it found" had ended "Fuzz the running job"; the four tuned histories unchanged).
     */
    private static final java.util.regex.Pattern CLAUSE = java.util.regex.Pattern.compile(
            ",? (?:in favou?r of|instead of|as of|so that|because|when|if|which|where|while|and|but|to|for|with|from|by|via|since|unless|before|after|until|once) |; | [—–] ");

    /**
     * A cut before " and " that would end on an infinitive ({@code Show usage of helper to forward}, of "… to forward
     * and merge options") ends before the clause before it instead ({@code Show usage of helper}).
     */
    private static final java.util.regex.Pattern INFINITIVE_END = java.util.regex.Pattern.compile(" to [a-z]+$");

    /**
     * {@code text} cut to at most {@code max} characters: before the last clause that fits, when that leaves at least
     * {@link #MIN} characters and two words ({@code … now throws IllegalArgumentException if a class name length is
     * too long} ends after {@code IllegalArgumentException}; {@code Add KafkaRecordSerializationSchemaBuilder to cover
     * common serialization scenarios} after the class, not on "to cover common"); else at a word boundary, without a
     * dangling last word. Two words are enough for a history whose own subjects were cut mid-phrase ("… to correctly
     * handle $ in valid") to score such cuts well, but a reader rejects them, so three are asked.
     */
    static String cut(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        java.util.regex.Matcher sentence = SENTENCE_END.matcher(text);
        if (sentence.find() && sentence.start() <= max && sentence.start() >= MIN
                && words(text.substring(0, sentence.start())) >= 2) {
            // a subject is one sentence: a change-log entry's first ("Implemented BlackDClient", of "Implemented
            // BlackDClient. This simple python client allows …"), not the second cut off
            return text.substring(0, sentence.start());
        }
        java.util.regex.Matcher clause = CLAUSE.matcher(text);
        int end = -1;
        int before = -1;
        boolean joined = false;
        while (clause.find() && clause.start() <= max) {
            if (clause.group().endsWith(" and ") && joinsNames(text, clause.start(), clause.end())) {
                // "Apache and Confluent Kafka images": two names that share what follows, no clause
                continue;
            }
            before = end;
            end = clause.start();
            joined = clause.group().endsWith(" and ");
        }
        if (joined && before >= MIN && words(text.substring(0, before)) >= 2
                && INFINITIVE_END.matcher(text.substring(0, end)).find()) {
            // "… helper to forward and merge options": the verbs share the object, so "to forward" would hang
            end = before;
        }
        if (end >= MIN && words(text.substring(0, end)) >= 2) {
            // nor on a joiner of its own: "Introduce a new Kafka connect or with new property keys" (its history's typo)
            String byClause = ended(text.substring(0, end));
            String byWord = wordCut(text, max);
            if (byWord.length() > byClause.length() && NEGATED_END.matcher(byClause).find() && words(byWord) >= 2) {
                // a negation cut before the clause that bounds it says the opposite of the subject: "A subject is not
                // cut" (of "… is not cut to end on a modal verb"); the words that fit keep its bound
                return byWord;
            }
            if (byWord.length() > byClause.length() && endsOnName(byWord)
                    && !SUBORDINATE.matcher(text.substring(end)).lookingAt()) {
                // the words that fit end on a name, a phrase's end whatever follows: "Deprecate
                // NumberUtils.compare(int, int) in favor of Integer.compare", "… for select with v-model + v-for"
                return byWord;
            }
            return byClause;
        }
        return wordCut(text, max);
    }

    /**
     * A negated verb at the end: "… is not cut", "Never fail", "… doesn't throw", "… no longer waits"; not a contrast
     * after a comma, which is whole ("… costs the scope, not itself").
     */
    private static final java.util.regex.Pattern NEGATED_END = java.util.regex.Pattern.compile(
            "(?i)(?:^|(?<!,)\\s)(?:not|never|no longer|\\w+n't|cannot)(?:\\s+\\S+)?$");

    /**
     * The single word a cut leaves of a last clause: "; measuring" (of "; measuring in LoadMeasurement"), ", exported";
     * or of a last phrase, a participle after its preposition that waits for its noun: " of failed" (of "… part of
     * failed assertions"); not after "from", whose gerund completes a verb ("prevent … from throwing").
     */
    private static final java.util.regex.Pattern STUB = java.util.regex.Pattern.compile(
            "(?:; \\S+|, [a-z]+(?:ed|ing)| (?:of|for|in|on|with|by|to|into|about) [a-z]+(?:ed|ing))$");

    /**
     * A cut text without the one word it kept of its last clause ({@code Load test: call() in the load test's phases;
     * measuring}, of "…; measuring in LoadMeasurement"): after a semicolon any word, after a comma a participle ({@code
     * … SDK, exported}, of "…, exported over OTLP"), where a plain word may be a whole list item. Only for a cut: the
     * clause of a subject that fits is whole, whatever its length.
     */
    static String withoutStub(String cut) {
        java.util.regex.Matcher stub = STUB.matcher(cut);
        if (stub.find() && stub.start() >= MIN) {
            return withoutDanglingEnd(cut.substring(0, stub.start()));
        }
        return cut;
    }

    /**
     * Whether the " and " at {@code from}..{@code to} of {@code text} joins two capitalised words ({@code Apache and
     * Confluent Kafka images}): names that share the words after them, so a cut before it leaves the first hanging
     * ("… wrapper for Apache").
     */
    static boolean joinsNames(String text, int from, int to) {
        if (from == 0 || to >= text.length()) {
            return false;
        }
        int start = text.lastIndexOf(' ', from - 1) + 1;
        return Character.isUpperCase(text.charAt(start)) && Character.isUpperCase(text.charAt(to))
                && Character.isLetter(text.charAt(from - 1));
    }

    /**
     * A clause that needs its verb: cut after its subject, it says nothing ("Unregister ShutdownHook when
     * GC#PidLock" of "… when GC#PidLock is closed"), so the cut before it stands, whatever name the words end on.
     */
    private static final java.util.regex.Pattern SUBORDINATE = java.util.regex.Pattern.compile(
            ",? (?:so that|because|when|if|which|where|while|since|unless|before|after|until|once) ");

    /**
     * Whether the last word of {@code text} is a name ({@link #isName}): a cut there ends a noun phrase, where a cut
     * after a plain word may leave its adjective waiting ("… by using class-based" of "… class-based
     * implementation"). Not any hyphenated word, nor a word after a "when"/"if" clause: those wrote "… by using
     * class-based", "… for select with non-option" and "… when GC#PidLock".
     */
    static boolean endsOnName(String text) {
        int space = text.lastIndexOf(' ');
        return space > 0 && isName(text.substring(space + 1));
    }

    /**
     * A word that is a name, not English: quoted in backticks, with an underscore or a digit, a member ({@code
     * Integer.compare}), camel case ({@code beforeUpdate}), capitals ({@code TIMESTAMP}, {@code API}) or a
     * one-letter prefix ({@code v-for}; "non-option", "class-based" are English).
     */
    static boolean isName(String w) {
        if (w.length() > 2 && w.startsWith("`") && w.endsWith("`")) {
            return true;
        }
        if (w.chars().anyMatch(c -> c == '_' || Character.isDigit(c))) {
            return true;
        }
        for (int i = 1; i + 1 < w.length(); i++) {
            char c = w.charAt(i);
            char before = w.charAt(i - 1);
            if ((c == '.' && Character.isLetter(before) && Character.isLetter(w.charAt(i + 1)))
                    || (c == '-' && i == 1 && Character.isLetter(before) && Character.isLetter(w.charAt(i + 1)))
                    || (Character.isLowerCase(before) && Character.isUpperCase(c))) {
                return true;
            }
        }
        return w.length() >= 2 && w.chars().allMatch(Character::isUpperCase);
    }

    /**
     * {@code text} cut at the last word boundary before {@code max}, without a dangling end, an open bracket or the
     * one word it kept of a last clause ({@link #withoutStub}).
     */
    static String wordCut(String text, int max) {
        // never in the middle of a word ("Add KafkaRecordSerializationSchemaBuilde" is no subject): at a space, or
        // before a member or an argument list (ITCase.testWriteException, compare(int, int))
        int space = text.lastIndexOf(' ', max);
        for (int i = Math.min(max, text.length() - 1); i > Math.max(space, 0); i--) {
            char ch = text.charAt(i);
            if ((ch == '(' || (ch == '.' && i + 1 < text.length() && Character.isLetter(text.charAt(i + 1))))
                    && Character.isLetterOrDigit(text.charAt(i - 1))) {
                space = i;
                break;
            }
        }
        return ended((space > 0 ? text.substring(0, space) : text.substring(0, max)).stripTrailing());
    }

    /**
     * What a cut keeps, made to end as a phrase: without a dangling end, an open bracket or the one word it kept of a
     * last clause; the same for a cut before a clause and a cut at a word.
     */
    private static String ended(String kept) {
        return withoutStub(closed(withoutDanglingEnd(kept)));
    }

    /**
     * A cut text that leaves a parenthesis or a bracket open ({@code MethodUtils.getAnnotation(Method, Class,
     * boolean}, {@code … IfAny<T, Y, N> [ci}) ends before it instead: the member keeps its name and loses its
     * argument list. An open quotation ({@code fails with "Found multiple candidates}) is closed.
     */
    static String closed(String text) {
        int depth = 0;
        int outermost = -1;
        int quote = -1;
        int tick = -1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' && tick < 0) {
                quote = quote < 0 ? i : -1;
            } else if (c == '`' && quote < 0) {
                tick = tick < 0 ? i : -1;
            } else if (quote >= 0 || tick >= 0) {
                continue; // "(" inside a quotation is quoted text
            } else if (c == '(' || c == '[') {
                if (depth++ == 0) {
                    outermost = i;
                }
            } else if ((c == ')' || c == ']') && depth > 0) {
                depth--;
            }
        }
        if (depth > 0 && outermost > 0) {
            return withoutDanglingEnd(text.substring(0, outermost).stripTrailing());
        }
        if (quote >= 0 || tick >= 0) {
            // a quotation cut short is still the words it quotes: closed, they say what they said
            return text.stripTrailing() + (quote >= 0 ? '"' : '`');
        }
        return text;
    }

    /** {@code text} without trailing joiners ({@code for}, {@code and}, {@code on}, …) and trailing commas or dashes. */
    static String withoutDanglingEnd(String text) {
        String c = text;
        while (true) {
            c = TRAILING.matcher(c).replaceAll("");
            int last = c.lastIndexOf(' ');
            if (last > 0 && DANGLING.contains(c.substring(last + 1).toLowerCase(Locale.ROOT))) {
                c = c.substring(0, last);
                continue;
            }
            int before = last > 0 ? c.lastIndexOf(' ', last - 1) : -1;
            boolean not = last > 0 && c.substring(last + 1).equalsIgnoreCase("not");
            if (not && before > 0 && AUXILIARY.contains(c.substring(before + 1, last).toLowerCase(Locale.ROOT))) {
                c = c.substring(0, before);
                continue;
            }
            if (not && c.charAt(last - 1) == ',') {
                // a contrast cut before what it contrasts: "… of a checkpoint, not" (of "…, not after the first")
                c = c.substring(0, last);
                continue;
            }
            return c.isEmpty() ? text : c;
        }
    }

    /** How many words {@code text} holds, split at white space. */
    static int words(String text) {
        String t = text.strip();
        return t.isEmpty() ? 0 : t.split("\\s+").length;
    }

    /** {@code s} with its ticket and type only: no scope, area or other tags. */
    private static Subject withoutExtras(Subject s) {
        List<String> tags = s.ticket().isEmpty() || s.plainTicket() ? List.of() : List.of(s.ticket());
        return new Subject(tags, s.ticket(), s.plainTicket(), s.type(), "", s.breaking(), "", s.description(),
                s.pullRequest());
    }

    /**
     * {@code text} names {@code name} as a word of its own (ASCII case aside): not after a word character or a dot,
     * not before a word character. A scan, not a regular expression compiled per call: the style step asks it for
     * every candidate of a history that names areas.
     */
    static boolean mentions(String text, String name) {
        int n = name.length();
        for (int i = 0; i + n <= text.length(); i++) {
            if ((i == 0 || !(isWordChar(text.charAt(i - 1)) || text.charAt(i - 1) == '.'))
                    && (i + n == text.length() || !isWordChar(text.charAt(i + n)))
                    && equalsAsciiIgnoreCase(text, i, name)) {
                return true;
            }
        }
        return false;
    }

    /** {@code \\w} of a regular expression without Unicode classes. */
    private static boolean isWordChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    /** {@code text} at {@code from} spells {@code name}, ASCII letters in either case (as {@code CASE_INSENSITIVE}). */
    private static boolean equalsAsciiIgnoreCase(String text, int from, String name) {
        for (int k = 0; k < name.length(); k++) {
            char a = text.charAt(from + k);
            char b = name.charAt(k);
            if (a != b && (a > 127 || b > 127 || Character.toLowerCase(a) != Character.toLowerCase(b))) {
                return false;
            }
        }
        return true;
    }

    /** A project document's name in capitals and its extension ({@code CHANGELOG.md}, {@code README.rst}). */
    private static final java.util.regex.Pattern DOCUMENT =
            java.util.regex.Pattern.compile("([A-Z][A-Z_-]{3,})\\.(?:md|markdown|txt|rst|adoc)");

    /**
     * The name a subject calls a project document by ({@code CHANGELOG} for {@code CHANGELOG.md}), null for another
     * file. Shorter than the file name, and every token a padded subject adds is one the real subject may not have.
     */
    static String documentName(String fileName) {
        java.util.regex.Matcher m = DOCUMENT.matcher(fileName);
        return m.matches() ? m.group(1) : null;
    }

    private static Subject lengthen(Subject s, DiffedCommit diff, int floor, boolean strict) {
        String d = s.description().strip();
        FileChange main = StyleApplier.mainFile(diff);
        if (d.isEmpty()) {
            // nothing to say from the exemplar: the template's description of the paths
            d = !diff.files().isEmpty() ? TemplateGenerator.subject(diff.files(), diff.totalFiles())
                    : diff.commit().parents().size() > 1 ? "Merge branch without changes to the first parent"
                    : "Record an empty commit";
            Subject withTemplate = s.withDescription(d);
            if (withTemplate.render().length() >= floor) {
                return withTemplate.render().length() > MAX ? shorten(withTemplate) : withTemplate;
            }
        }
        List<String> places = new java.util.ArrayList<>();
        // a subject that names its main file says where already: where no place fits, it stands short ("Update
        // ChangeLog", "Update RichString.h") rather than "in this repository"
        Subject standsShort = null;
        if (main != null) {
            String path = main.path();
            String name = TemplateGenerator.displayName(path);
            String document = documentName(name);
            int dot = name.lastIndexOf('.');
            String stem = dot > 0 ? name.substring(0, dot) : name;
            // a file the subject names already, in its description or as its area, is not named again, by its
            // name or its path: "Update README in README.md", "RevWalk: @since 7.8 in RevWalk"
            boolean said = mentions(d, stem);
            boolean named = said || stem.equalsIgnoreCase(s.area()) || stem.equalsIgnoreCase(s.scope());
            String base = path.substring(path.lastIndexOf('/') + 1);
            if (said && !base.equals(stem)) {
                // "Update PullCommand" is too short: the file by its whole name ("Update PullCommand.java") before a
                // place that only repeats where it is
                Subject whole = s.withDescription(java.util.regex.Pattern.compile("(?<![\\w.])"
                        + java.util.regex.Pattern.quote(stem) + "(?![\\w.])", java.util.regex.Pattern.CASE_INSENSITIVE)
                        .matcher(d).replaceFirst(java.util.regex.Matcher.quoteReplacement(base)));
                if (whole.render().length() >= floor && whole.render().length() <= MAX) {
                    return whole;
                }
                if (whole.render().length() >= SHORT_FLOOR && whole.render().length() <= MAX) {
                    standsShort = whole; // by its whole name where that fits
                }
            }
            if (said && standsShort == null) {
                Subject bare = s.withDescription(d);
                if (bare.render().length() >= SHORT_FLOOR && bare.render().length() <= MAX) {
                    standsShort = bare; // as it is
                }
            }
            if (!named) {
                if (document != null) {
                    places.add(document); // "in CHANGELOG": the document by its name, as people write it
                }
                places.add(name);
                if (!base.equals(name)) {
                    // "Javadoc in Strings.java", where "Javadoc in Strings" is too short to stand: the file by its
                    // whole name before its whole path
                    places.add(base);
                }
                places.add(path);
            }
            if (path.contains("/")) {
                places.add(path.substring(0, path.lastIndexOf('/')));
            }
        }
        // a sentence's period stays at its end: "Fix in regress.yml.", not "Fix. in regress.yml"
        boolean period = d.endsWith(".") && !d.endsWith("..");
        String said = period ? d.substring(0, d.length() - 1) : d;
        String end = period ? "." : "";
        for (String where : places) {
            Subject longer = s.withDescription(said + " in " + where + end);
            if (!mentions(d, where) && longer.render().length() >= floor && longer.render().length() <= MAX) {
                return longer;
            }
        }
        if (standsShort != null && !strict) {
            return standsShort;
        }
        Subject longer = s.withDescription(said + " in this repository" + end);
        return longer.render().length() > MAX ? shorten(longer) : longer;
    }
}
