package io.commitflow.generate;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The entry a diff adds to its repository's change log ({@code src/changes/changes.xml}, {@code CHANGELOG.md},
 * {@code NEWS}, …). Many projects write that entry and the commit's subject as the same sentence (Apache Commons:
 * {@code <action type="add">Add IntegerRange.fit(int).</action>} in the commit "Add IntegerRange.fit(int)"); where a
 * repository's history shows it ({@link RepoStyle}), the generator writes the entry as the subject: text this diff
 * itself contains, so nothing in it is unsupported.
 */
public final class Changelog {
    private static final Set<String> NAMES = Set.of("changes.xml", "changelog", "changelog.md", "changelog.txt",
            "changes", "changes.md", "changes.txt", "news", "news.md", "history.md", "release-notes.md",
            "release-notes.txt", "release_notes.md", "releasenotes.md");
    /**
     * Folders of change-log fragments, one file per change, gathered into the log at a release: RuboCop's and
     * towncrier's {@code changelog/}, {@code changelog.d/}, {@code newsfragments/}, {@code changes/}, changesets'
     * {@code .changeset/}, GitLab's {@code changelogs/unreleased/}.
     */
    private static final Set<String> FRAGMENT_DIRS = Set.of("changelog", "changelog.d", ".changeset", "newsfragments",
            "changes", "news", ".changelog", "changelogs/unreleased", "changes/unreleased", "unreleased");
    /** A fragment's file: prose (Markdown, reStructuredText, text) or towncrier's type as its extension. */
    private static final Pattern FRAGMENT_FILE = Pattern.compile(
            "(?i)[^.][^/]*\\.(?:md|markdown|rst|txt|(?:bugfix|fix|feature|removal|deprecation|breaking|doc|docs|misc"
                    + "|trivial|added|changed|fixed|security|perf|internal)(?:\\.(?:md|rst|txt))?)");
    private static final Pattern ACTION = Pattern.compile("<action\\b[^>]*>(.*?)</action>");
    private static final Pattern BULLET = Pattern.compile("^\\s*[-*]\\s+(.+)$");
    private static final Pattern LINK = Pattern.compile("\\[([^\\]]*)]\\([^)]*\\)");
    /** A bracket tag in code quotes, {@code `[jest-config]`}: a tag, as the subjects write it. */
    private static final Pattern QUOTED_TAG = Pattern.compile("`(\\[[^\\]`]+])`");
    /** A reference-style link, {@code [@someone][]}: its text. */
    private static final Pattern REF_LINK = Pattern.compile("\\[([^\\]]*)]\\[[^\\]]*]");
    /**
     * The issues an entry opens with, its links already text: {@code #15590: }, {@code #1, #2: }, and with the kind
     * in capitals that some logs give them ({@code BUG #3076: }, {@code BUG #1332, BUG #3001: }).
     */
    private static final Pattern LEADING_ISSUES =
            Pattern.compile("^(?:[A-Z]{2,} )?#\\d+(?:,\\s*(?:and\\s+)?(?:[A-Z]{2,} )?#\\d+)*,?:\\s*");
    private static final Pattern TAG = Pattern.compile("<[^>]+>");
    /** The issue an {@code <action>} names: a ticket id, {@code LANG-1819}. */
    private static final Pattern ISSUE = Pattern.compile("<action\\b[^>]*\\bissue=\"([A-Z][A-Z0-9_]*-\\d+)\"");
    /**
     * The issue a Markdown entry opens with, linked to the tracker's issues (RuboCop's {@code * [#15073](…/issues/15073):
     * …}, ripgrep's {@code * [BUG #3076](…/issues/3076):}): {@code #15073}. A pull request's link is no issue.
     */
    private static final Pattern LINKED_ISSUE =
            Pattern.compile("^[+-]\\s*[-*]\\s+\\[(?:[A-Z]{2,} )?(#\\d+)]\\([^)\\s]*/issues/\\d+\\)");
    private static final Pattern NUMBERLESS_TICKET = Pattern.compile("\\[[A-Z][A-Z0-9_]*-]\\s*");
    /** Bracket tags that open an entry, as they open a subject: {@code [javadoc] }, {@code [LANG-1819][test] }. */
    private static final Pattern LEADING_TAGS = Pattern.compile("^(?:\\[[^\\]\\s][^\\]]{0,40}]\\s*)+");
    /** A pointer to the issues at the end: ", see #2036 (@someone)", ". See #1597, #1737". */
    private static final Pattern SEE = Pattern.compile("(?i)[,.;]?\\s+see\\s+#\\d+.*$");
    /** Trailing references and credits: " (#12)", " #12", " by @someone in …", " (thanks @x)". */
    private static final Pattern TRAILER = Pattern.compile(
            "(?:\\s*\\((?:#\\d+(?:,\\s*#\\d+)*|thanks[^)]*)\\)|\\s+#\\d+|\\s+by @\\S+.*|\\s+\\(@\\S+\\))+\\s*$");

    private Changelog() {
    }

    /**
     * The one entry the patch adds to a change log, as a sentence without markup, trailing references or final
     * period, its opening tags kept ({@code [javadoc] Fix typo in Javadoc of Strings instances}); null when it adds
     * none, or more than one (which one the subject is would be a guess). An entry the patch removes and adds again,
     * reworded, re-tagged or given an issue, is no new entry.
     */
    public static String entry(String patch) {
        Entry found = added(patch);
        return found == null ? null : found.text();
    }

    /**
     * The one entry a patch adds: its sentence ({@link #entry}) and the issue it names in its own markup ({@code <action
     * issue="LANG-1819" …>}: Apache Commons' {@code changes.xml}; a leading link to the tracker's issue, {@code #15073}),
     * as written, null when it names none: the diff's own number, not an old one.
     */
    public record Entry(String text, String issue) {}

    /** The one entry the patch adds, its sentence and its issue in one reading; null when it adds none or several. */
    public static Entry added(String patch) {
        java.util.List<Entry> added = new java.util.ArrayList<>();
        java.util.Set<String> removed = new java.util.HashSet<>();
        for (String line : logLines(patch)) {
            String text = text(line.substring(1));
            if (text != null) {
                if (line.charAt(0) == '+') {
                    Matcher issue = ISSUE.matcher(line);
                    Matcher linked = LINKED_ISSUE.matcher(line);
                    added.add(new Entry(text, issue.find() ? issue.group(1) : linked.find() ? linked.group(1) : null));
                } else {
                    removed.add(said(text));
                }
            }
        }
        Entry found = null;
        for (Entry text : added) {
            if (removed.contains(said(text.text()))) {
                // an entry reworded or re-tagged, not a new one: "[javadoc] Fix Javadocs in ClassUtils" for "Fix
                // Javadocs in ClassUtils" was the commit "Better action description"
                continue;
            }
            if (found != null) {
                return null;
            }
            found = text;
        }
        return found;
    }

    /** An issue's number in a tag: {@code #15073} in {@code Fix #15073}. */
    private static final Pattern TAGGED_ISSUE = Pattern.compile("#\\d+\\b");

    /**
     * Whether {@code s} names {@code issue} (an {@link Entry#issue}): as its ticket ({@code [LANG-1828] …}), or a
     * {@code #n} in one of its tags ({@code [Fix #15073] …}).
     */
    static boolean namesIssue(Subject s, String issue) {
        if (issue.equalsIgnoreCase(s.ticket())) {
            return true;
        }
        if (issue.startsWith("#")) {
            for (String tag : s.tags()) {
                Matcher m = TAGGED_ISSUE.matcher(tag);
                while (m.find()) {
                    if (m.group().equals(issue)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Whether a tag names an issue by its number ({@code Fix #15073}). */
    static boolean tagsAnIssue(String tag) {
        return TAGGED_ISSUE.matcher(tag).find();
    }

    /**
     * The tag the neighbours give their own issues, with {@code issue} (a {@code #n}) in its place: {@code Fix #15073}
     * where most of those that tag an issue write {@code [Fix #n]}; the nearest one's form on a tie; null where none
     * of them tags an issue.
     */
    static String issueTag(String issue, java.util.List<Subject> neighbours) {
        java.util.Map<String, Integer> forms = new java.util.LinkedHashMap<>();
        for (Subject n : neighbours) {
            for (String tag : n.tags()) {
                Matcher m = TAGGED_ISSUE.matcher(tag);
                if (m.find()) {
                    forms.merge(tag.substring(0, m.start()) + "\u0000" + tag.substring(m.end()), 1, Integer::sum);
                    break;
                }
            }
        }
        String best = null;
        for (java.util.Map.Entry<String, Integer> f : forms.entrySet()) {
            if (best == null || f.getValue() > forms.get(best)) {
                best = f.getKey();
            }
        }
        return best == null ? null : best.replace("\u0000", issue);
    }

    /** A version's number in a heading: two or more numbers joined by dots ({@code 1.52}, {@code 1.52.1}). */
    private static final Pattern VERSIONED = Pattern.compile("\\d+\\.\\d+");

    /**
     * The heading the patch adds at the top of a change log's new section: the first line it adds to a change log,
     * when that line names a version and is no entry ({@code 2026.03.06, Version 1.52.1 (Stable)}; {@code ## 2.1.0}
     * without its markup); null otherwise.
     */
    public static String heading(String patch) {
        for (String line : logLines(patch)) {
            if (line.charAt(0) != '+') {
                continue;
            }
            String text = line.substring(1).strip();
            if (text.isEmpty()) {
                continue;
            }
            if (BULLET.matcher(text).matches() || text.startsWith("<")) {
                return null; // an entry (or markup) first: the section's heading is not what this diff adds
            }
            text = text.replaceFirst("^#+\\s*", "");
            return VERSIONED.matcher(text).find() ? text : null;
        }
        return null;
    }

    /** What an entry says, its tags aside: an entry re-tagged or given an issue still says it. */
    private static String said(String text) {
        return normal(Subject.parse(text).description());
    }

    /**
     * The lines the patch adds to or removes from change logs, each with its {@code +} or {@code -}, in patch order;
     * empty when it touches none. An entry wrapped over several lines is one line here: a bullet's indented
     * continuation ({@code - Fix bug where module docstrings would be treated as normal strings if preceded by} then
     * {@code   comments (#4764)}), the rest of an {@code <action>} left open, and a fragment's first paragraph up to
     * its blank line; read by its first line alone, an entry ended mid-phrase.
     */
    private static java.util.List<String> logLines(String patch) {
        if (patch == null || patch.isEmpty() || !touchesLog(patch)) {
            return java.util.List.of();
        }
        java.util.List<String> lines = new java.util.ArrayList<>();
        boolean inLog = false;
        boolean created = false;
        boolean inFragment = false;
        boolean frontMatter = false;
        boolean paragraph = false; // a fragment's entry, until its blank line
        int open = -1; // the entry the next line of the same sign may continue
        for (String line : patch.split("\n")) {
            if (line.startsWith("+++ ")) {
                String path = line.substring(4);
                inFragment = created && isFragment(path);
                inLog = !inFragment && NAMES.contains(fileName(path));
                frontMatter = false;
                paragraph = false;
                open = -1;
            } else if (line.startsWith("--- ")) {
                created = line.equals("--- /dev/null");
                open = -1;
            } else if (paragraph) {
                String text = line.startsWith("+") ? line.substring(1).strip() : "";
                if (text.isEmpty() || !continuesParagraph(text)) {
                    paragraph = false;
                    inFragment = false;
                } else {
                    lines.set(lines.size() - 1, lines.get(lines.size() - 1) + " " + text);
                }
            } else if (inFragment && line.startsWith("+")) {
                // a new fragment: its first paragraph of prose is its entry, after a changeset's front matter
                String text = line.substring(1).strip();
                if (text.equals("---")) {
                    frontMatter = !frontMatter;
                } else if (!frontMatter && !text.isEmpty() && !text.startsWith("#")) {
                    lines.add(BULLET.matcher(text).matches() ? "+" + text : "+- " + text);
                    paragraph = true;
                }
            } else if (inLog && !line.startsWith("---") && (line.startsWith("+") || line.startsWith("-"))) {
                if (open >= 0 && continues(lines.get(open), line)) {
                    lines.set(open, lines.get(open) + " " + line.substring(1).strip());
                } else {
                    lines.add(line);
                    String body = line.substring(1);
                    open = BULLET.matcher(body).matches() || opensAction(body) ? lines.size() - 1 : -1;
                }
            } else {
                open = -1;
            }
        }
        return lines;
    }

    /**
     * Whether {@code line} (with its sign) goes on with {@code entry}, the bullet or action before it: the same sign,
     * and either an {@code <action>} still open or a bullet's indented line that is no bullet of its own.
     */
    private static boolean continues(String entry, String line) {
        if (entry.charAt(0) != line.charAt(0)) {
            return false;
        }
        String body = line.substring(1);
        if (opensAction(entry)) {
            return !body.isBlank();
        }
        return !body.isBlank() && Character.isWhitespace(body.charAt(0)) && !BULLET.matcher(body).matches()
                && !body.strip().startsWith("<");
    }

    /** An {@code <action>} whose closing tag is on a later line. */
    private static boolean opensAction(String text) {
        return text.contains("<action") && !text.contains("</action>");
    }

    /**
     * A fragment's line that goes on with its paragraph: not a list item, heading, directive, code fence or code
     * block of its own.
     */
    private static boolean continuesParagraph(String text) {
        return !BULLET.matcher(text).matches() && !text.startsWith("#") && !text.startsWith("```")
                && !text.startsWith(".. ") && !text.startsWith("::");
    }

    /** {@code text} without its code quotes: {@code Associate .ron files} for {@code Associate `.ron` files}. */
    static String withoutCodeQuotes(String text) {
        return text.replace("`", "");
    }

    /** {@code text} without the bracket tags that open it ({@code [jest-runtime] }). */
    static String withoutTags(String text) {
        return LEADING_TAGS.matcher(text).replaceFirst("");
    }

    /** Whether a file header of the patch names a change log: a scan of the headers only, no split. */
    static boolean touchesLog(String patch) {
        return DiffTokens.anyFile(patch, Changelog::isLog);
    }

    /** Whether {@code d} changes files and nothing but change logs ({@link #isLog}). */
    static boolean onlyLogs(io.commitflow.git.DiffedCommit d) {
        return !d.files().isEmpty() && d.files().stream().allMatch(f -> isLog(f.path()));
    }

    /** Whether a file header's path ({@code b/src/changes/changes.xml}) is a change log's. */
    static boolean isLog(String path) {
        return NAMES.contains(fileName(path)) || isFragment(path);
    }

    /**
     * Whether a path ({@code changelog/fix_false_positives_for_style_date_time.md}, or a file header's {@code b/…}) is
     * a change-log fragment's: a prose file directly in a fragments' folder at the repository's root.
     */
    static boolean isFragment(String path) {
        String p = path.trim();
        if (p.startsWith("b/") || p.startsWith("a/")) {
            p = p.substring(2);
        }
        int slash = p.lastIndexOf('/');
        return slash > 0 && FRAGMENT_DIRS.contains(p.substring(0, slash).toLowerCase(Locale.ROOT))
                && FRAGMENT_FILE.matcher(p.substring(slash + 1)).matches()
                && !p.substring(slash + 1).toLowerCase(Locale.ROOT).startsWith("readme");
    }

    private static String fileName(String path) {
        String p = path.trim();
        return p.substring(p.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
    }

    private static String text(String line) {
        String t;
        Matcher a = ACTION.matcher(line);
        if (a.find()) {
            t = a.group(1);
        } else {
            Matcher b = BULLET.matcher(line);
            if (!b.matches()) {
                return null;
            }
            t = b.group(1);
        }
        t = LINK.matcher(t).replaceAll("$1");
        t = REF_LINK.matcher(t).replaceAll("$1");
        t = LEADING_ISSUES.matcher(t).replaceFirst("");
        t = TAG.matcher(t).replaceAll("");
        t = t.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'")
                .replace("&amp;", "&").trim();
        t = QUOTED_TAG.matcher(t).replaceAll("$1");
        t = SEE.matcher(t).replaceFirst("");
        t = withoutPeriod(TRAILER.matcher(withoutPeriod(t)).replaceFirst("").trim());
        // a ticket tag left without its number ("[LANG-] Javadoc ArrayUtils.removeAll() …") says no ticket
        t = NUMBERLESS_TICKET.matcher(t).replaceAll("").trim();
        // a heading, a version line or a single word is no sentence; tags before it are the subject's form
        // ("[javadoc] Fix typo in Javadoc of Strings instances", "[test] Bump … from 1.14.0 to 1.15.0")
        String sentence = LEADING_TAGS.matcher(t).replaceFirst("");
        return sentence.isEmpty() || sentence.split("\\s+").length < 2 || !Character.isLetter(sentence.charAt(0))
                ? null : t;
    }

    /**
     * Whether a subject says what the entry says: its description (tags, ticket and type aside) has the same words,
     * case, final period and pull-request references aside.
     */
    static boolean mirrors(String entry, String subject) {
        return entry != null && subject != null
                && said(entry).equals(normal(Subject.parse(withoutPeriod(subject.trim())).description()));
    }

    private static String normal(String s) {
        String t = withoutPeriod(TRAILER.matcher(withoutPeriod(s.trim())).replaceFirst("").trim());
        return t.toLowerCase(Locale.ROOT).replace("`", "").replaceAll("\\s+", " ");
    }

    private static String withoutPeriod(String s) {
        String t = s;
        while (t.endsWith(".")) {
            t = t.substring(0, t.length() - 1).trim();
        }
        return t;
    }
}
