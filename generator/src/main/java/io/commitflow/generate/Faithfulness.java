package io.commitflow.generate;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Does a subject name only what its diff contains? A subject is unfaithful when it names an identifier
 * ({@code PatchId}, {@code getRef}, {@code pack_size}, {@code close()}, the member of
 * {@code Instants.toEpochMillis(Instant)}), a file or path ({@code README.md},
 * {@code src/app}) or a version ({@code 1.18.10}, {@code v29}) that the commit's own patch does not contain. Quoted
 * text, such as the reverted commit's subject in git's {@code Revert "…"}, is not judged. Issue, ticket and
 * pull-request numbers ({@code #123}, {@code FLINK-123}) are no claim about the diff, which never holds them: they
 * are {@linkplain #numbers listed} apart, for "never carry an old number".
 *
 * <p>Plain words are never judged, nor names of one letter case and no inner capital ({@code Git}, {@code README}
 * without its extension): only shapes that can only be names. The same rule scores the real messages, so their own
 * rate is the yardstick.
 */
public final class Faithfulness {
    private static final Pattern SQUASH_SUFFIX = Pattern.compile("\\s*\\(#\\d+\\)\\s*$");
    private static final Pattern PULL_REQUEST = Pattern.compile("\\s*\\(#\\d+\\)");
    /** A quotation, such as the reverted commit's subject in git's {@code Revert "…"}: a reference, not a claim. */
    private static final Pattern QUOTED = Pattern.compile("\"[^\"]*\"");
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_#./:()-]+");
    /**
     * A version, with a pre-release's suffix where it has one ({@code 5.0.0-4}, {@code 2.0.0-rc.1}, {@code
     * 1.3-SNAPSHOT}): the whole of it must be in the patch. Without the suffix a release candidate's subject named no
     * version at all, and "5.0.0-4" titled the release of 12.0.0. Other suffixes ({@code 3.10-compatible}) are words.
     */
    private static final Pattern VERSION = Pattern.compile(
            "v?(\\d+(?:\\.\\d+)+(?:-(?:\\d+|(?i:alpha|beta|rc|pre|dev|snapshot|m)\\.?\\d*)(?:\\.\\d+)*)?)");
    private static final Pattern SHORT_VERSION = Pattern.compile("v(\\d+)");
    private static final Pattern ISSUE = Pattern.compile("#\\d+|(?!(?:UTF|ISO|SHA|TLS|SSL|ES|X)-)[A-Z][A-Z0-9]+-\\d{2,}");
    /** An abbreviated or whole commit id: 7 to 40 hex digits with a digit and a letter among them. */
    private static final Pattern COMMIT_ID = Pattern.compile("(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\\d)[0-9a-f]{7,40}");
    /** A file name: a stem of two characters or more and an extension ({@code e.g} and {@code 3.x} are none). */
    private static final Pattern FILE = Pattern.compile("(?:[\\w.-]*/)*[\\w-]*\\w\\w\\.[A-Za-z][A-Za-z0-9]{0,7}");
    private static final Pattern PATH = Pattern.compile("[\\w.-]+(?:/[\\w.-]+)+/?");
    private static final Pattern CALL = Pattern.compile("([A-Za-z_]\\w*)\\(\\)");
    /** A conventional commit's type and scope, {@code fix(compiler):} or {@code feat(api)!:}. */
    private static final Pattern CONVENTIONAL = Pattern.compile("^\\s*[A-Za-z]+\\([^()]*\\)!?:");
    /** A member with its parameters, {@code Instants.toEpochMillis(Instant)}, or their start when a space cut them. */
    private static final Pattern MEMBER = Pattern.compile("(?:[A-Za-z_]\\w*\\.)*([A-Za-z_]\\w*)\\(.*");
    private static final Pattern IDENTIFIER = Pattern.compile(
            "[a-z]+[A-Z]\\w*|[A-Z][a-z0-9]+[A-Z]\\w*|[A-Za-z]+\\d*_\\w+|_\\w+");

    private Faithfulness() {}

    /** The subject without GitHub's squash suffix {@code (#123)}: what a generator can know. */
    public static String withoutSquashSuffix(String subject) {
        return SQUASH_SUFFIX.matcher(subject).replaceFirst("");
    }

    /** The text without pull-request references {@code (#123)} anywhere in it: an exemplar's, never this change's. */
    public static String withoutPullRequests(String text) {
        return PULL_REQUEST.matcher(text).replaceAll("");
    }

    /**
     * The names in {@code subject} that {@code patch} does not contain, in order; empty when it is faithful. Quoted
     * text (the subject of the commit a {@code Revert "…"} undoes) is not judged.
     */
    public static List<String> unsupported(String subject, String patch) {
        List<String> out = new ArrayList<>();
        // fix(compiler): a type and scope, no call
        String judged = CONVENTIONAL.matcher(QUOTED.matcher(withoutSquashSuffix(subject)).replaceAll("\"\"")).replaceFirst("");
        Matcher m = TOKEN.matcher(judged);
        while (m.find()) {
            String token = trim(m.group());
            if (ISSUE.matcher(token).matches()) {
                continue;
            }
            Matcher member = MEMBER.matcher(token);
            if (member.matches()) {
                // Instants.toEpochMillis(Instant): the member and every qualifier of two characters or more
                for (String part : member.group(0).substring(0, member.group(0).indexOf('(')).split("\\.")) {
                    if (part.length() >= 2 && !patch.contains(part)) {
                        out.add(token);
                        break;
                    }
                }
                continue;
            }
            String name = name(token);
            if (name != null && !patch.contains(name)) {
                out.add(token);
            }
        }
        return out;
    }

    /**
     * The issue, ticket and pull-request numbers ({@code #123}, {@code FLINK-123}) and commit ids ({@code 64d0aaa2}) a
     * subject names, in order, but for GitHub's squash suffix and quoted text.
     */
    public static List<String> numbers(String subject) {
        List<String> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(QUOTED.matcher(withoutSquashSuffix(subject)).replaceAll("\"\""));
        while (m.find()) {
            String token = trim(m.group());
            if (ISSUE.matcher(token).matches() || COMMIT_ID.matcher(token).matches()) {
                out.add(token);
            }
        }
        return out;
    }

    /** Verbs that act on what exists: a diff that only adds files has nothing to fix, update or remove. */
    private static final java.util.Set<String> ON_WHAT_EXISTS = java.util.Set.of("fix", "update", "remove", "delete",
            "drop", "restore", "rename", "move", "bump", "correct", "tweak", "improve", "change", "adjust", "refactor",
            "simplify", "revert", "upgrade", "polish", "replace", "clean", "rework", "deflake", "reorganize");

    /** Verbs that make something new: a diff that only deletes files adds nothing. */
    private static final java.util.Set<String> MAKING = java.util.Set.of("add", "introduce", "create", "implement",
            "support");

    /**
     * Whether a description's first verb fits what the diff does to its files: where every file is new, not a verb
     * that acts on what exists ("Fix some regress tests." for a diff that adds a new test file, "Update changelog"
     * for one that adds a workflow); where every file is deleted, not one that makes something ("Add script to ease
     * migration" for a diff that deletes that script). Among the last 300 commits of forty-two histories, 2 real
     * subjects of 197 such commits broke this. True when the diff also modifies, renames or copies a file, or when its
     * file list was cut.
     */
    static boolean verbFitsFiles(String description, io.commitflow.git.DiffedCommit diff) {
        List<io.commitflow.git.FileChange> files = diff.files();
        if (files.isEmpty() || files.size() < diff.totalFiles() || description == null || description.isBlank()) {
            return true;
        }
        boolean added = true;
        boolean deleted = true;
        for (io.commitflow.git.FileChange f : files) {
            added &= f.change().equals("ADD");
            deleted &= f.change().equals("DELETE");
        }
        if (!added && !deleted) {
            return true;
        }
        return !(added ? ON_WHAT_EXISTS : MAKING).contains(verbOf(MoodEdit.imperative(description.strip())));
    }

    /** The letters that open {@code imperative}, in lower case: its verb where it opens with one. */
    private static String verbOf(String imperative) {
        int end = 0;
        while (end < imperative.length() && Character.isLetter(imperative.charAt(end))) {
            end++;
        }
        return imperative.substring(0, end).toLowerCase(java.util.Locale.ROOT);
    }

    /** Verbs that say a name is new, and verbs that say it is gone. */
    private static final java.util.Set<String> ADDING = java.util.Set.of("add", "introduce", "create", "implement");
    private static final java.util.Set<String> REMOVING = java.util.Set.of("remove", "delete", "drop", "drops",
            "dropped");

    /**
     * Whether a description that adds or removes names ("Add `NetRCAuth()` class", "Remove log4rs workaround")
     * says the diff's direction: a name it adds is on a line the diff adds, or at least on no line it removes; a name
     * it removes is on a removed line, or on no added one. "Add mkstemp() for mingw build" is no subject for a diff that
     * deletes {@code mkstemp()}, nor "test: remove erroneous RETURN_SKIP" for one that adds it. Only names are judged
     * (a call, a file, a path, an identifier: {@link #name}), never prose words, which both sides of a diff hold; the
     * path of a file the diff deletes counts as removed, of one it creates as added. True for any other verb and where
     * the description names nothing.
     */
    static boolean addsOrRemovesAsStated(String description, String patch) {
        if (description == null || description.isBlank()) {
            return true;
        }
        String imperative = MoodEdit.imperative(description.strip());
        String verb = verbOf(imperative);
        int end = verb.length();
        boolean adds = ADDING.contains(verb);
        if (!adds && !REMOVING.contains(verb)) {
            return true;
        }
        List<String> names = new ArrayList<>();
        Matcher m = TOKEN.matcher(QUOTED.matcher(imperative.substring(end)).replaceAll("\"\""));
        while (m.find()) {
            String token = trim(m.group());
            String name = ISSUE.matcher(token).matches() ? null : name(token);
            if (name != null) {
                names.add(name);
            }
        }
        if (names.isEmpty()) {
            return true;
        }
        boolean onAdded = false;
        boolean onRemoved = false;
        String header = "";
        for (String l : patch.split("\n", -1)) {
            boolean added = l.startsWith("+") && !l.startsWith("+++");
            boolean removed = l.startsWith("-") && !l.startsWith("---");
            if (l.startsWith("diff --git ")) {
                header = l;
            } else if (l.startsWith("deleted file mode") || l.startsWith("new file mode")) {
                // a file the diff deletes is removed, one it creates is added, a binary one too (no lines of its own)
                removed = l.startsWith("deleted");
                added = !removed;
                l = header;
            }
            if ((added && !onAdded) || (removed && !onRemoved)) {
                for (String name : names) {
                    if (l.contains(name)) {
                        onAdded |= added;
                        onRemoved |= removed;
                        break;
                    }
                }
            }
        }
        return adds ? onAdded || !onRemoved : onRemoved || !onAdded;
    }

    /** A bump's "from A to B" where both are numbers: {@code from 84 to 85}, {@code from v1.2 to v1.3}. */
    private static final Pattern FROM_TO = Pattern.compile("\\bfrom\\s+v?(\\d[\\w.-]*?)\\s+to\\s+v?(\\d[\\w.-]*?)(?=[\\s,;)]|\\.?$)");
    /** A move written with an arrow: {@code 48 -> 51}, {@code @v4 -> v5}, {@code 1.2 → 1.3}. */
    private static final Pattern ARROW = Pattern.compile(
            "(?<![\\w.])v?(\\d[\\w.-]*?)\\s*(?:->|\u2192)\\s*v?(\\d[\\w.-]*?)(?=[\\s,;)]|\\.?$)");

    /**
     * Whether a subject's "from A to B" or "A -> B" is this diff's move: A on a removed line and B on an added one
     * ("[build] org.apache.commons:commons-parent 48 -> 51" is no subject for new tests). A bare number
     * is no name {@link #unsupported} would judge, so commons-lang's "Bump commons.text from 84 to 85" (the
     * parent pom's numbers, carried from an exemplar) was suggested for a move from 1.13.1 to 1.14.0. True when the
     * subject states no such pair and, for a bump's "to B" alone, B is on an added line ({@link #bumpsToAdded}).
     */
    public static boolean movesAsStated(String subject, String patch) {
        String text = subject == null ? "" : subject;
        Matcher m = FROM_TO.matcher(text);
        if (!m.find() && !(m = ARROW.matcher(text)).find()) {
            return bumpsToAdded(subject, patch);
        }
        Pattern from = Pattern.compile("(?<![\\w.])v?" + Pattern.quote(m.group(1)) + "(?![\\w]|\\.\\d)");
        Pattern to = Pattern.compile("(?<![\\w.])v?" + Pattern.quote(m.group(2)) + "(?![\\w]|\\.\\d)");
        boolean removed = false;
        boolean added = false;
        for (String l : patch.split("\n", -1)) {
            if (l.startsWith("-") && !l.startsWith("---")) {
                removed |= from.matcher(l).find();
            } else if (l.startsWith("+") && !l.startsWith("+++")) {
                added |= to.matcher(l).find();
            }
            if (removed && added) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a bump's new version ({@code Update httpcore to 4.4.15}) is on a line this diff adds: a diff that only
     * keeps 4.4.15 beside the lines it changes (a checksum fixed for it) moves nothing to it. True for any other
     * subject, and for a bare major ({@code to v8}), which {@link #bumpNamesChanged} reads.
     */
    static boolean bumpsToAdded(String subject, String patch) {
        Matcher b = bump(subject);
        if (b == null) {
            return true;
        }
        Matcher v = BUMP_VERSION.matcher(subject.substring(b.end() - 1));
        if (!v.lookingAt() || !v.group(1).contains(".")) {
            return true;
        }
        Pattern to = Pattern.compile("(?<![\\w.])" + Pattern.quote(v.group(1)) + "(?!\\w|\\.\\d)");
        for (String l : patch.split("\n", -1)) {
            if (l.startsWith("+") && !l.startsWith("+++") && to.matcher(l).find()) {
                return true;
            }
        }
        return false;
    }

    /** A version bump's subject: the library it names, then its new version. */
    private static final Pattern BUMP = Pattern.compile(
            "(?i)\\b(?:update|bump|upgrade|pin)\\s+(?:dependency\\s+)?((?-i:[A-Z][\\w.-]*\\s+){0,2}?)([\\w.@:/-]*[A-Za-z][\\w.@:/-]*)"
                    + "(?:\\s+(?:action|plugin|module|package|version))?\\s+(?:from\\s+\\S+\\s+)?to\\s+v?\\d");
    /** How far above a changed {@code <version>} a pom's {@code <artifactId>} may stand. */
    static final int BUMP_REACH = 3;

    /**
     * A bump subject ({@code Update bytebuddy to 1.14.8}) names the library whose lines this diff changes: the name
     * (or its last {@code :}/{@code /} part; case, {@code -}, {@code _} and {@code .} aside, so {@code bytebuddy}
     * matches {@code BYTE_BUDDY_VERSION}) is on a changed line, or on a line that declares the library
     * ({@code <artifactId>}, {@code name =}, {@code artifact =}) at most {@value #BUMP_REACH} lines above one. Every
     * other subject passes. A pom names many libraries on its context lines, so being in the patch is not enough:
     * {@code Update commons-codec to 1.14.8} for a bytebuddy bump names a library that is there, on the property line
     * next to the changed one, but unchanged.
     */
    public static boolean bumpNamesChanged(String subject, String patch) {
        Matcher m = bump(subject);
        if (m == null) {
            return true;
        }
        String name = squash(m.group(2));
        String last = squash(m.group(2).substring(Math.max(m.group(2).lastIndexOf(':'), m.group(2).lastIndexOf('/')) + 1));
        String[] lines = patch.split("\n", -1);
        // where the subject's new version stands on changed lines, the library must be named on one of those: "to
        // 8.60.0" is typescript-eslint's move, even when jest is named on another changed line; a bare major ("to
        // v8") must be the major of a version on the line
        Matcher v = BUMP_VERSION.matcher(subject.substring(m.end() - 1));
        Pattern carries = !v.lookingAt() ? null : v.group(1).contains(".")
                ? Pattern.compile("(?<![\\w.])" + Pattern.quote(v.group(1)) + "(?!\\w|\\.\\d)")
                : Pattern.compile("(?<![\\w.])[v^~@]?" + v.group(1) + "(?:\\.\\d+)*(?![\\w.])");
        boolean versionChanged = false;
        for (String l : lines) {
            versionChanged |= changed(l) && carries != null && carries.matcher(l).find();
        }
        boolean pathNames = false;
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            if (l.startsWith("+++ ")) {
                // the file's own name (.bazelversion, .nvmrc, gradle-wrapper.properties), not its module's folder:
                // every file of flink-connector-kafka/ would name flink
                String path = l.substring(4);
                pathNames = names(stem(path.substring(path.lastIndexOf('/') + 1)), name, last);
            }
            if (!changed(l) || (versionChanged && !carries.matcher(l).find())) {
                continue;
            }
            if (pathNames || names(l, name, last)) {
                return true;
            }
            for (int j = i - 1; j >= Math.max(0, i - BUMP_REACH); j--) {
                if (DECLARES.matcher(lines[j]).find() && names(lines[j], name, last)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A file's name without its extension ({@code MODULE.bazel} names no bazel version; {@code .bazelversion},
     * {@code .nvmrc}, a name that is all extension, stay whole).
     */
    static String stem(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return dot > 0 ? fileName.substring(0, dot) : fileName;
    }

    /** The version a bump subject moves to, read from its first digit ({@code 8.60.0} of {@code to v8.60.0}). */
    private static final Pattern BUMP_VERSION = Pattern.compile("(\\d+(?:\\.\\w+)*)");

    private static boolean changed(String line) {
        return (line.startsWith("+") && !line.startsWith("+++")) || (line.startsWith("-") && !line.startsWith("---"));
    }

    /** A line that declares a library: a pom's artifactId, a Bazel or Gradle {@code name =} / {@code artifact =}. */
    private static final Pattern DECLARES = Pattern.compile("<artifactId>|\\b(?:name|artifact)\\s*=");

    private static final Pattern SEPARATORS = Pattern.compile("[-_.]");

    /** A name lower-cased without its separators: {@code byte-buddy}, {@code BYTE_BUDDY} and {@code bytebuddy} meet. */
    static String squash(String s) {
        return SEPARATORS.matcher(s.toLowerCase(java.util.Locale.ROOT)).replaceAll("");
    }

    private static boolean names(String line, String name, String last) {
        String squashed = squash(line);
        return squashed.contains(name) || (last.length() >= 3 && squashed.contains(last));
    }

    /** The library a bump subject names, or null when {@code subject} is no bump. */
    public static String bumpName(String subject) {
        Matcher m = bump(subject);
        return m != null ? m.group(2) : null;
    }

    /** A library's name after qualifier words: lower case first, or with a separator ({@code commons-codec}). */
    private static final Pattern ARTIFACT_LIKE = Pattern.compile("[a-z@].*|.*[-./:@].*");

    /**
     * The bump {@code subject} states, or null: with qualifier words before the name ({@code Apache commons-codec}),
     * only a name that looks like a library's ({@code Update Copyright Year to 2024} states no bump).
     */
    private static Matcher bump(String subject) {
        Matcher m = BUMP.matcher(subject == null ? "" : subject);
        if (!m.find() || (!m.group(1).isEmpty() && !ARTIFACT_LIKE.matcher(m.group(2)).matches())) {
            return null;
        }
        return m;
    }

    /**
     * The words a bump subject names its library with: {@link #bumpName} and up to two capitalised words before it
     * ({@code Apache commons-codec}; not {@code copyright year}), or null when {@code subject} is no bump.
     */
    static String bumpNameWords(String subject) {
        Matcher m = bump(subject);
        return m != null ? m.group(1) + m.group(2) : null;
    }

    /** Whether every name in {@code subject} is in {@code patch}. */
    public static boolean faithful(String subject, String patch) {
        return unsupported(subject, patch).isEmpty();
    }

    /** What the patch must contain for {@code token} to be supported, or null when the token names nothing. */
    static String name(String token) {
        if (token.length() < 2) {
            return null;
        }
        Matcher v = VERSION.matcher(token);
        if (v.matches()) {
            return v.group(1);
        }
        Matcher sv = SHORT_VERSION.matcher(token);
        if (sv.matches()) {
            return sv.group(1);
        }
        Matcher issue = ISSUE.matcher(token);
        if (issue.matches()) {
            return token;
        }
        Matcher call = CALL.matcher(token);
        if (call.matches()) {
            return call.group(1);
        }
        if (token.contains("(") || token.contains(")")) {
            return null;
        }
        if (FILE.matcher(token).matches()) {
            int slash = token.lastIndexOf('/');
            return slash < 0 ? token : token.substring(slash + 1); // a path may be written from any folder up
        }
        if (PATH.matcher(token).matches() && token.chars().anyMatch(Character::isLetter)) {
            String p = token.endsWith("/") ? token.substring(0, token.length() - 1) : token;
            return p.substring(p.lastIndexOf('/') + 1);
        }
        if (IDENTIFIER.matcher(token).matches()) {
            return token;
        }
        return null;
    }

    private static String trim(String token) {
        int end = token.length();
        while (end > 0 && ".:,-/".indexOf(token.charAt(end - 1)) >= 0) {
            end--;
        }
        int start = 0;
        while (start < end && ".:,-".indexOf(token.charAt(start)) >= 0) {
            start++;
        }
        String t = token.substring(start, end);
        // parentheses around a name, or unbalanced ones, are the sentence's: "(#12)" → "#12", "(see Foo)" → "Foo"
        if (t.length() > 2 && t.startsWith("(") && t.endsWith(")")) {
            t = t.substring(1, t.length() - 1);
        }
        if (t.startsWith("(") && !t.contains(")")) {
            t = t.substring(1);
        }
        if (t.endsWith(")") && !t.contains("(")) {
            t = t.substring(0, t.length() - 1);
        }
        return t;
    }
}
