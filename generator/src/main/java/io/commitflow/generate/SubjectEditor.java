package io.commitflow.generate;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Changes the exemplar's description so that it speaks of this diff. In: the exemplar's subject and what the two
 * diffs changed (file names, new versions). Out: the same subject whose description has the exemplar's file names
 * replaced by this diff's main file ({@link #edit}), its version by this diff's ({@link #editVersion}), and its first
 * word in the imperative mood ({@link #imperative}): with {@code RefUpdate} changed, {@code "Fixed race in
 * PackWriter"} becomes {@code "Fix race in RefUpdate"}. Its form (tags, type, area) is left to {@link StyleApplier}.
 */
public final class SubjectEditor {
    /** A version: {@code 1.2.3}, {@code v29}, {@code 6.2.0-SNAPSHOT}; not a figure, {@code 12.5%} or {@code 1.09-2.40x}. */
    private static final Pattern VERSION_WORD = Pattern.compile(
            "(?<![\\w.\\-/])v?\\d+(?:\\.\\d+)+(?:[-.][A-Za-z][\\w.]*)?(?![\\w.%]|-\\d)|(?<![\\w.\\-/])v\\d+(?![\\w.])");

    private static final Pattern UPDATES = Pattern.compile("(?i)\\b(?:update|upgrade|bump)");

    private static final Pattern VERSION_PAIR = Pattern.compile(
            "from (v)?(\\d+(?:\\.\\d+)+(?:[-.][A-Za-z][\\w.]*)?) to (v)?(\\d+(?:\\.\\d+)+(?:[-.][A-Za-z][\\w.]*)?)(?![\\w.])");

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

    private SubjectEditor() {}

    /**
     * The exemplar's subject with its description edited for this diff: file names, version, imperative mood, and
     * without the exemplar's pull-request references {@code (#123)}, which this change is not.
     */
    static Subject adapt(Subject exemplar, List<String> theirFiles, List<String> ourFiles, List<String> newVersions) {
        return adapt(exemplar, theirFiles, ourFiles, null, List.of(), newVersions);
    }

    /**
     * {@link #adapt}, with the class under test when this diff's main file is its test ({@link #classUnderTest}), and
     * the versions this diff moves away from, for a bump's {@code from 1.2 to 1.3}.
     */
    static Subject adapt(Subject exemplar, List<String> theirFiles, List<String> ourFiles, String underTest,
                         List<String> oldVersions, List<String> newVersions) {
        String d = edit(withoutDoubledWords(Faithfulness.withoutPullRequests(exemplar.description())), theirFiles,
                ourFiles, underTest);
        String pair = editVersionPair(d, oldVersions, newVersions);
        String edited = pair != null ? pair : fileVersion(d, theirFiles, ourFiles);
        if (edited == null && namesFileVersion(d, theirFiles)) {
            // "Add 4.38 target platform" names the exemplar's jgit-4.38.target: the version this diff moves to is
            // written only where one of its files is named with it (jgit-4.23.target beside jgit-4.24.target), not
            // hamcrest's 3.0 ("Add 3.0 target platform")
            String fresh = editVersion(d, newVersions);
            String version = soleVersion(fresh);
            edited = version != null && ourFiles.stream().anyMatch(f -> f.contains(version)) ? fresh : d;
        }
        return exemplar.withDescription(imperative(edited != null ? edited : editVersion(d, newVersions)));
    }

    /**
     * A bump's {@code from 3.29.2 to 3.29.4} becomes this diff's when it moves from exactly one version to exactly
     * one other ({@code v} prefixes kept); null when the description has no such pair or the diff is not so clear.
     */
    static String editVersionPair(String description, List<String> oldVersions, List<String> newVersions) {
        if (oldVersions.size() != 1 || newVersions.size() != 1) {
            return null;
        }
        Matcher m = VERSION_PAIR.matcher(description);
        if (!m.find()) {
            return null;
        }
        String from = (m.group(1) != null ? "v" : "") + oldVersions.get(0);
        String to = (m.group(3) != null ? "v" : "") + newVersions.get(0);
        return description.substring(0, m.start()) + "from " + from + " to " + to + description.substring(m.end());
    }

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
                        && (word.chars().noneMatch(Character::isDigit) || idShape(word).equals(idShape(main)))
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
        Pattern word = Pattern.compile("(?<![\\w$])" + Pattern.quote(name) + "(?![\\w$])");
        return word.matcher(patch).find() ? name : null;
    }

    /**
     * Whether the description still names a file the exemplar changed and this diff does not: the exemplar speaks
     * of another part of the code, and the subject would claim a change this diff does not make.
     */
    static boolean namesOtherFiles(String description, List<String> theirFiles, List<String> ourFiles) {
        for (String word : description.split("[^\\p{L}\\p{N}_]+")) {
            if (word.length() > 3 && RepoStyle.matchesFile(word, theirFiles) && !RepoStyle.matchesFile(word, ourFiles)) {
                return true;
            }
        }
        return false;
    }

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
        for (String token : description.split("[\\s,;()\\[\\]\"'`]+")) {
            String name = token.replaceAll("^[^\\p{L}\\p{N}]+|[^\\p{L}\\p{N}]+$", "");
            boolean plain = !NAME_SHAPED.matcher(name).find();
            for (String word : name.split("[^\\p{L}\\p{N}_]+")) {
                if (word.length() < 3 || word.chars().noneMatch(Character::isLetter)) {
                    continue;
                }
                int h = DiffTokens.wordHash(word);
                // an id (letters and digits, five or more: I20210713220109, jdk18on) is a claim whether or not the
                // exemplar's first words held it; a joined word when they did; a plain word when they said it often
                boolean id = !plain && word.length() >= 5 && word.chars().anyMatch(Character::isDigit);
                boolean theirs = plain ? times(theirSignature, h) >= PLAIN_NAME_TIMES
                        : ExemplarRanker.contains(theirSignature, h);
                if ((id || theirs) && (ourSignature == null || !ExemplarRanker.contains(ourSignature, h))
                        && !containsIgnoreCase(patch, word)) {
                    return word;
                }
            }
        }
        return null;
    }

    /**
     * How many times the exemplar's diff must say a plain word for the word to be its own ({@link #carriedName}).
     * Measured on the four tuned histories (1,000 suggestions, flink-connector-kafka 300): 3 gave commons-lang +0.05,
     * flink-connector-kafka +0.13, jgit -0.01, vuejs/core -0.04 B-Norm; 6 caught fewer (jgit -0.07); every plain word
     * the exemplar's diff holds (1) cost jgit -0.25, commons-lang -0.17 and vuejs/core -0.35.
     */
    static final int PLAIN_NAME_TIMES = 3;

    /** How many of {@code words} are {@code word}. */
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
    private static String idShape(String word) {
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

    /**
     * The description starts as a subject does: with a word, a number, a name ({@code @since}, {@code .gitignore},
     * {@code #include}, {@code $HOME}, {@code <dependency>}) or a quotation; not with an operator or a list marker
     * ({@code +=codecov => notifications}, {@code * Inline var}), which some histories hold and no maintainer would
     * take as a suggestion.
     */
    static boolean startsAsProse(String description) {
        String d = description.strip();
        if (d.isEmpty()) {
            return false;
        }
        char c = d.charAt(0);
        return Character.isLetterOrDigit(c) || "`\"'[(@._#$<".indexOf(c) >= 0;
    }

    /** A name, not a word: parts joined inside it, or letters next to digits. */
    private static final Pattern NAME_SHAPED = Pattern.compile(
            "[\\p{L}\\p{N}][-.:/_][\\p{L}\\p{N}]|\\p{L}\\p{N}|\\p{N}\\p{L}");

    private static boolean containsIgnoreCase(String text, String word) {
        int n = word.length();
        for (int i = 0; i + n <= text.length(); i++) {
            if (text.regionMatches(true, i, word, 0, n)) {
                return true;
            }
        }
        return false;
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

    /** A subject whose year is the point: a copyright notice's, a licence's, "the year". */
    private static final Pattern ABOUT_YEARS = Pattern.compile("(?i)\\b(?:year|copyright|notice|licen[cs]e)");

    /** A year, or a range of years ({@code 2014-2024}), standing alone. */
    private static final Pattern YEAR = Pattern.compile("(?<![\\w.-])((?:19|20)\\d\\d)(?:-((?:19|20)\\d\\d))?(?![\\w.])");

    /**
     * The description's one year (or range of years) becomes the one this diff writes where it wrote another: a
     * copyright notice moved from {@code 2014-2023} to {@code 2014-2024} turns "Update copyright year to 2014-2022 in
     * NOTICE files" into "… to 2014-2024 …", and a lone year takes a range's end. Unchanged when the description names
     * no year or several, or is not about years (a copyright, a notice, a licence, "the year"), or the diff's
     * changed lines do not move to exactly one.
     */
    static String editYear(String description, String patch) {
        Matcher m = YEAR.matcher(description);
        if (!m.find() || !ABOUT_YEARS.matcher(description).find()) {
            return description;
        }
        String old = m.group();
        boolean range = m.group(2) != null;
        if (m.find()) {
            return description;
        }
        java.util.Set<String> added = movedTo(patch, YEAR, y -> range && y.group(2) == null ? null
                : range ? y.group() : y.group(2) != null ? y.group(2) : y.group(1));
        return added.size() == 1 ? description.replace(old, added.iterator().next()) : description;
    }

    /** A year and month, {@code 2025-03}: an Eclipse release train's, a dated milestone's. */
    static final Pattern YEAR_MONTH = Pattern.compile("(?<![\\w.-])((?:19|20)\\d\\d-(?:0[1-9]|1[0-2]))(?![\\w.]|-\\d)");

    /**
     * The description's one year and month ({@code Add 4.35 target platform for Eclipse 2024-12}) becomes the one this
     * diff's added lines write and its removed lines do not ({@code 2025-03}, the release train the new target
     * platform points at); unchanged when the description names none or several, or the diff adds none or several.
     */
    static String editYearMonth(String description, String patch) {
        Matcher m = YEAR_MONTH.matcher(description);
        if (!m.find()) {
            return description;
        }
        String old = m.group(1);
        if (m.find()) {
            return description;
        }
        java.util.Set<String> added = movedTo(patch, YEAR_MONTH, y -> y.group(1));
        return added.size() == 1 ? description.replace(old, added.iterator().next()) : description;
    }

    /**
     * What {@code pattern} finds on the patch's added lines and not on its removed ones, each match read by
     * {@code read} (null: not counted), in the order first added.
     */
    private static java.util.Set<String> movedTo(String patch, Pattern pattern,
                                                 java.util.function.Function<Matcher, String> read) {
        java.util.Set<String> added = new java.util.LinkedHashSet<>();
        java.util.Set<String> removed = new java.util.HashSet<>();
        for (String l : patch.split("\n", -1)) {
            boolean plus = l.startsWith("+") && !l.startsWith("+++");
            if (!plus && !(l.startsWith("-") && !l.startsWith("---"))) {
                continue;
            }
            Matcher y = pattern.matcher(l);
            while (y.find()) {
                String v = read.apply(y);
                if (v != null) {
                    (plus ? added : removed).add(v);
                }
            }
        }
        added.removeAll(removed);
        return added;
    }

    /**
     * Whether every year and month the description names ({@link #YEAR_MONTH}) is on a line this diff adds: "for
     * Eclipse 2024-12" claims the release train this change moves to, and a patch that names 2024-12 only on the
     * lines it keeps or removes does not move to it.
     */
    static boolean yearMonthsAdded(String description, String patch) {
        return onAddedLines(description, YEAR_MONTH, patch, false);
    }

    /** A name with a version in it, {@code jgit-4.35}, {@code orbit-4.39}: a versioned file's or module's. */
    static final Pattern NAME_VERSION = Pattern.compile("(?<![\\w.-])([A-Za-z][\\w.]*-\\d+(?:\\.\\d+)+)(?![\\w.]*\\w)");

    /**
     * Whether every versioned name the description names ({@link #NAME_VERSION}) is on a line this diff adds, its
     * file headers included: "Add target platform jgit-4.35" for a diff that adds {@code jgit-4.37.target} names the
     * module its exemplar added, which this diff's pom lists only on a line it keeps.
     */
    static boolean nameVersionsAdded(String description, String patch) {
        return onAddedLines(description, NAME_VERSION, patch, true);
    }

    /**
     * Whether every match of {@code names} in the description (its first group) is on a line the patch adds, its
     * {@code +++} file headers too where {@code headers}.
     */
    private static boolean onAddedLines(String description, Pattern names, String patch, boolean headers) {
        Matcher m = names.matcher(description);
        String[] lines = null; // split only when the description names one
        while (m.find()) {
            if (lines == null) {
                lines = patch.split("\n", -1);
            }
            boolean found = false;
            for (String l : lines) {
                if (l.startsWith("+") && (headers || !l.startsWith("+++")) && l.contains(m.group(1))) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    /** Whether the description's one version is the version in the name of a file the exemplar changed. */
    static boolean namesFileVersion(String description, List<String> theirFiles) {
        String old = soleVersion(description);
        if (old == null) {
            return false;
        }
        for (String theirs : theirFiles) {
            if (theirs.contains(old)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The description's one version, when it is the version in the name of a file the exemplar changed
     * ({@code Add 4.31 target platform} for {@code jgit-4.31.target}), becomes the version in the name of this diff's
     * file of that name ({@code jgit-4.32.target}): {@code Add 4.32 target platform}. Null when the version names no
     * file of the exemplar's, or this diff has no such file, or several versions of one.
     */
    static String fileVersion(String description, List<String> theirFiles, List<String> ourFiles) {
        String old = soleVersion(description);
        if (old == null) {
            return null;
        }
        String fresh = null;
        for (String theirs : theirFiles) {
            int at = theirs.indexOf(old);
            if (at < 0) {
                continue;
            }
            String before = theirs.substring(0, at);
            String after = theirs.substring(at + old.length());
            for (String ours : ourFiles) {
                if (ours.length() <= before.length() + after.length() || !ours.startsWith(before) || !ours.endsWith(after)
                        || theirFiles.contains(ours)) {
                    continue;
                }
                String version = ours.substring(before.length(), ours.length() - after.length());
                if (!VERSION_WORD.matcher(version).matches() || (fresh != null && !fresh.equals(version))) {
                    return null;
                }
                fresh = version;
            }
        }
        return fresh == null ? null : description.replace(old, fresh);
    }

    /**
     * A version number in the description ({@code 1.18.10}, {@code v29}) becomes the one this diff introduces; one
     * that is part of a name ({@code jgit-4.38}, {@code release/4.29}) is not a version of what changed. Outside a
     * subject that updates something ("upgrade to typescript 5.5") only a version of as many numbers or of the same
     * major is taken: "Prepare 6.10.0-SNAPSHOT builds" becomes 7.0.0, but "Add target platform for Eclipse 2023-09
     * (4.29)" never takes a library's 2.11.0.
     */
    static String editVersion(String description, List<String> newVersions) {
        if (newVersions.isEmpty()) {
            return description;
        }
        String old = soleVersion(description);
        if (old == null) {
            return description; // none, or several: which one changed is not clear
        }
        String fresh = sameForm(old, newVersions);
        // a bare decimal (8.0, 36.12) is as often a figure as a version: outside an update it becomes only one of
        // its major ("the PTX's ISA 8.0" never takes a driver's 12.2, nor "vuejs/core 36.12" a table's 7.3)
        boolean decimal = numbers(old) == 2 && !old.startsWith("v") && !hasQualifier(old);
        if (old.contains(".") && (numbers(old) != numbers(fresh) || decimal) && !major(old).equals(major(fresh))
                && !updates(description, old)) {
            return description;
        }
        if (!hasQualifier(old)) {
            fresh = fresh.replaceFirst("[-.][A-Za-z][\\w.]*$", ""); // "5.0.0 snapshots" stays in that form: 5.0.1
        }
        String replacement = old.startsWith("v") && !old.contains(".") ? "v" + fresh.split("\\.")[0]
                : (old.startsWith("v") ? "v" : "") + fresh;
        return description.replace(old, replacement);
    }

    /** A method declared on a changed line: modifiers or a return type, its name, its parameters, an opening brace. */
    private static final Pattern DECLARATION = Pattern.compile("^[+-]\\s*(?:@\\w+\\s+)*(?:(?:public|protected|private|"
            + "static|final|abstract|synchronized|default|native)\\s+)*(?:<[^>]+>\\s+)?[\\w.$<>\\[\\],?]+(?:<[^>]*>)?"
            + "(?:\\[])*\\s+([a-zA-Z_$][\\w$]*)\\s*\\(([^)]*)\\)\\s*(?:throws\\s+[\\w.,\\s]+)?\\{?\\s*$");
    /** A member named with its parameters in a subject: {@code NumberUtilsTest.testCreateDouble()}. */
    private static final Pattern MEMBER_REFERENCE =
            Pattern.compile("(?<![\\w.])((?:[A-Za-z_]\\w*\\.)*)([A-Za-z_]\\w*)\\(([^()]*)\\)");
    private static final java.util.Set<String> NOT_METHODS = java.util.Set.of("if", "for", "while", "switch", "catch",
            "return", "new", "else", "synchronized", "throw");

    /** A method a diff changes: the class its file is named after, and the member as a subject writes it. */
    record Member(String owner, String text) {
    }

    /**
     * The one method this patch declares on its changed lines, as a subject names it: {@code fit(int)} for
     * {@code public int fit(final int element) {}} (a changed signature as it is now); null when it declares none or
     * several (which one a subject should name would be a guess).
     */
    static Member changedMember(String patch) {
        Member found = null;
        String owner = "";
        for (String line : patch.split("\n")) {
            if (line.startsWith("+++ ")) {
                String path = line.substring(4).trim();
                String name = path.substring(path.lastIndexOf('/') + 1);
                owner = name.contains(".") ? name.substring(0, name.indexOf('.')) : name;
                continue;
            }
            if (line.startsWith("---") || (!line.startsWith("+") && !line.startsWith("-")) || line.indexOf('(') < 0
                    || line.endsWith(";")) {
                continue; // a declaration is a changed line with a parenthesis that is no statement
            }
            Matcher m = DECLARATION.matcher(line);
            if (!m.matches() || NOT_METHODS.contains(m.group(1)) || line.contains("=")) {
                continue;
            }
            StringBuilder types = new StringBuilder();
            for (String param : m.group(2).split(",")) {
                String p = param.trim().replaceAll("^(?:final\\s+|@\\w+\\s+)+", "");
                int space = p.lastIndexOf(' ');
                if (space > 0) {
                    types.append(types.length() == 0 ? "" : ", ").append(p.substring(0, space).trim());
                }
            }
            Member member = new Member(owner, m.group(1) + "(" + types + ")");
            if (found != null && !found.text().startsWith(m.group(1) + "(")) {
                return null;
            }
            if (found == null || line.startsWith("+")) {
                found = member; // a changed signature: as it is now
            }
        }
        return found;
    }

    /** Whether the description names a member with its parameters ({@link #editMember} may change it). */
    static boolean namesMember(String description) {
        return description.indexOf('(') >= 0 && MEMBER_REFERENCE.matcher(description).find();
    }

    /**
     * The exemplar's one member reference ({@code NumberUtilsTest.testCreateDouble()}) names this diff's changed
     * member instead ({@code NumberUtilsTest.testCreateLongFailure()}), when the exemplar's member is not in this
     * patch and this diff changes exactly one ({@link #changedMember}); a qualifier becomes the class the member is
     * declared in. Otherwise the description stays as it is (and a member it names that this diff lacks makes it
     * unfaithful).
     */
    static String editMember(String description, Member ourMember, String patch) {
        if (ourMember == null) {
            return description;
        }
        Matcher m = MEMBER_REFERENCE.matcher(description);
        if (!m.find()) {
            return description;
        }
        int start = m.start();
        int end = m.end();
        String qualifier = m.group(1);
        String name = m.group(2);
        if (m.find() || patch.contains(name + "(")) {
            return description; // several references, or one this diff has itself
        }
        if (!qualifier.isEmpty()) {
            String[] parts = qualifier.substring(0, qualifier.length() - 1).split("\\.");
            if (!shape(parts[parts.length - 1]).equals("Aa") || !shape(ourMember.owner()).equals("Aa")) {
                return description;
            }
            parts[parts.length - 1] = ourMember.owner();
            qualifier = String.join(".", parts) + ".";
        }
        return description.substring(0, start) + qualifier + ourMember.text() + description.substring(end);
    }

    private static final Pattern DOUBLED = Pattern.compile("(?<![\\p{L}\\p{N}_.-])(\\p{L}{2,})\\s+\\1(?![\\p{L}\\p{N}_])",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    /** A word said twice in a row said once: a history's typo ("Bump Bump actions/cache …") is not copied. */
    static String withoutDoubledWords(String description) {
        return DOUBLED.matcher(description).replaceAll("$1");
    }

    /** Where one clause ends and another begins: "Update Orbit to S2021… and add 4.20-staging target". */
    private static final Pattern CLAUSE_BREAK = Pattern.compile(" and |[,;] ");

    /**
     * Whether {@code version} is what the description updates: an update verb stands before it in the same clause.
     * "Update orbit to S20210406213021 and add 4.20-staging target" updates Orbit; its 4.20-staging is a target
     * platform's name, no version of what moved.
     */
    private static boolean updates(String description, String version) {
        Matcher verb = UPDATES.matcher(description);
        int at = description.indexOf(version);
        return verb.find() && verb.start() < at && !CLAUSE_BREAK.matcher(description.substring(verb.end(), at)).find();
    }

    /** The description's one version word, or null when it has none or several. */
    private static String soleVersion(String description) {
        Matcher m = VERSION_WORD.matcher(description);
        if (!m.find()) {
            return null;
        }
        String version = m.group();
        return m.find() ? null : version;
    }

    private static final Pattern QUALIFIER = Pattern.compile("(?<=\\d)[-.][A-Za-z][\\w.]*$");

    /**
     * The first new version, written with {@code old}'s qualifier where this diff has it so: jgit's release moves
     * {@code 6.2.0.qualifier} in its manifests and {@code 6.2.0-SNAPSHOT} in its poms, and "Prepare 6.1.0-SNAPSHOT
     * builds" becomes "Prepare 6.2.0-SNAPSHOT builds".
     */
    private static String sameForm(String old, List<String> newVersions) {
        String first = newVersions.get(0);
        Matcher q = QUALIFIER.matcher(old);
        if (!q.find() || q.group().chars().anyMatch(Character::isDigit)) {
            return first; // a pre-release's counter (-alpha.3) is no form: the diff's other one is the old release
        }
        String release = QUALIFIER.matcher(first).replaceFirst("");
        for (String v : newVersions) {
            if (v.equals(release + q.group())) {
                return v;
            }
        }
        return first;
    }

    /** A version's first number: {@code 7} of {@code v7.2.0}. */
    private static String major(String version) {
        int from = version.startsWith("v") ? 1 : 0;
        int to = from;
        while (to < version.length() && Character.isDigit(version.charAt(to))) {
            to++;
        }
        return version.substring(from, to);
    }

    /** How many numbers a version has before its qualifier: 3 for {@code 6.2.0.qualifier}, 2 for {@code v4.29}. */
    private static int numbers(String version) {
        int runs = 0;
        boolean inRun = false;
        for (int i = 0; i < version.length(); i++) {
            char c = version.charAt(i);
            if (Character.isDigit(c)) {
                runs += inRun ? 0 : 1;
                inRun = true;
            } else if (c == '.' && inRun && i + 1 < version.length() && Character.isDigit(version.charAt(i + 1))) {
                inRun = false;
            } else if (c != 'v' || i > 0) {
                break;
            }
        }
        return runs;
    }

    private static boolean hasQualifier(String version) {
        return version.matches(".*\\d[-.][A-Za-z].*");
    }

    /** Verbs in their plain form that may follow a plural noun opening a subject: "Changes are …", "Fixes go …". */
    private static final java.util.Set<String> PLAIN_VERBS = java.util.Set.of("are", "have", "name", "take", "keep",
            "stay", "go", "get", "need", "run", "show", "say", "land", "apply", "work", "end");

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
