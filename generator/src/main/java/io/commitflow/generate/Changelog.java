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
    private static final Pattern ACTION = Pattern.compile("<action\\b[^>]*>(.*?)</action>");
    private static final Pattern BULLET = Pattern.compile("^\\s*[-*]\\s+(.+)$");
    private static final Pattern LINK = Pattern.compile("\\[([^\\]]*)]\\([^)]*\\)");
    private static final Pattern TAG = Pattern.compile("<[^>]+>");
    /** The issue an {@code <action>} names: a ticket id, {@code LANG-1819}. */
    private static final Pattern ISSUE = Pattern.compile("<action\\b[^>]*\\bissue=\"([A-Z][A-Z0-9_]*-\\d+)\"");
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
     * issue="LANG-1819" …>}: Apache Commons' {@code changes.xml}), as written, null when it names none: the diff's own
     * number, not an old one.
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
                    added.add(new Entry(text, issue.find() ? issue.group(1) : null));
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
     * empty when it touches none.
     */
    private static java.util.List<String> logLines(String patch) {
        if (patch == null || patch.isEmpty() || !touchesLog(patch)) {
            return java.util.List.of();
        }
        java.util.List<String> lines = new java.util.ArrayList<>();
        boolean inLog = false;
        for (String line : patch.split("\n")) {
            if (line.startsWith("+++ ")) {
                inLog = isLog(line.substring(4));
            } else if (inLog && !line.startsWith("---") && (line.startsWith("+") || line.startsWith("-"))) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** {@code text} without the bracket tags that open it ({@code [jest-runtime] }). */
    static String withoutTags(String text) {
        return LEADING_TAGS.matcher(text).replaceFirst("");
    }

    /** Whether a file header of the patch names a change log: a scan of the headers only, no split. */
    static boolean touchesLog(String patch) {
        return DiffTokens.anyFile(patch, Changelog::isLog);
    }

    /** Whether a file header's path ({@code b/src/changes/changes.xml}) is a change log's. */
    static boolean isLog(String path) {
        String p = path.trim();
        return NAMES.contains(p.substring(p.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT));
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
        t = TAG.matcher(t).replaceAll("");
        t = t.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'")
                .replace("&amp;", "&").replace("`", "").trim();
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
        return t.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    }

    private static String withoutPeriod(String s) {
        String t = s;
        while (t.endsWith(".")) {
            t = t.substring(0, t.length() - 1).trim();
        }
        return t;
    }
}
