package io.commitflow.generate;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The edits of versions and bumps: an exemplar's version becomes the one this diff moves to, in the exemplar's form
 * ({@code v} prefixes, qualifiers); a bump's {@code from A to B} becomes this diff's pair.
 */
final class VersionEdit {
    private VersionEdit() {}

    /**
     * A version: {@code 1.2.3}, {@code v29}, {@code 6.2.0-SNAPSHOT}, an npm pre-release {@code 5.0.0-4}; not a figure,
     * {@code 12.5%} or {@code 1.09-2.40x}.
     */
    private static final Pattern VERSION_WORD = Pattern.compile(
            "(?<![\\w.\\-/])v?\\d+(?:\\.\\d+){2,}-\\d+(?![\\w.%-])"
            + "|(?<![\\w.\\-/])v?\\d+(?:\\.\\d+)+(?:[-.][A-Za-z][\\w.]*)?(?![\\w.%]|-\\d)|(?<![\\w.\\-/])v\\d+(?![\\w.])");

    private static final Pattern UPDATES = Pattern.compile("(?i)\\b(?:update|upgrade|bump)");

    private static final Pattern VERSION_PAIR = Pattern.compile(
            "from (v)?(\\d+(?:\\.\\d+)+(?:[-.][A-Za-z][\\w.]*)?) to (v)?(\\d+(?:\\.\\d+)+(?:[-.][A-Za-z][\\w.]*)?)(?![\\w.])");

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
     * A pair of plain numbers a bump states, no dotted version among them: {@code from 93 to 104} (a parent POM's
     * number), {@code @v4 -> v5} (an action's major).
     */
    private static final Pattern NUMBER_PAIR = Pattern.compile(
            "(?<![\\w.])(v?)(\\d+)(\\s*(?:->|\u2192)\\s*|\\s+to\\s+)(v?)(\\d+)(?![\\w.])");

    /**
     * A bump's pair of plain numbers ({@code from 93 to 104}, {@code actions/checkout@v4 -> v5}; "to" only after
     * "from") made this diff's, where its changed lines move exactly one plain number ({@link #numberMove}): {@code
     * from 103 to 104}, {@code @v5 -> v6}, prefixes kept. The dotted versions' pair ({@link #editVersionPair}) never
     * took these: a number without a dot is no version to the diff's reader, so the exemplar's stale numbers stayed
     * ("Bump org.apache.commons:commons-parent from 93 to 104" for 103 to 104). As it is otherwise.
     */
    static String editNumberPair(String description, String patch) {
        Matcher m = NUMBER_PAIR.matcher(description);
        if (!m.find() || m.group(3).strip().equals("to") && !description.substring(0, m.start()).endsWith("from ")) {
            return description;
        }
        String[] move = numberMove(patch);
        if (move == null) {
            return description;
        }
        return description.substring(0, m.start()) + m.group(1) + move[0] + m.group(3) + m.group(4) + move[1]
                + description.substring(m.end());
    }

    /**
     * The one plain number the patch's changed lines move, old and new: each removed line paired with the added line
     * in its place (blocks of the same size), those two lines the same but for one run of digits that no dot joins
     * to another ({@code <version>103</version>} to {@code <version>104</version>}, {@code checkout@v5} to {@code
     * checkout@v6}). Null where no pair moves one, or pairs move different ones.
     */
    static String[] numberMove(String patch) {
        String[] found = null;
        List<String> removed = new java.util.ArrayList<>();
        List<String> added = new java.util.ArrayList<>();
        String[] lines = patch.split("\n", -1);
        for (int i = 0; i <= lines.length; i++) {
            String l = i < lines.length ? lines[i] : "";
            boolean minus = l.startsWith("-") && !l.startsWith("---");
            boolean plus = l.startsWith("+") && !l.startsWith("+++");
            if (plus) {
                added.add(l.substring(1));
                continue;
            }
            if (minus && added.isEmpty()) {
                removed.add(l.substring(1));
                continue;
            }
            // a block ends: pair its lines
            if (removed.size() == added.size()) {
                for (int k = 0; k < removed.size(); k++) {
                    String[] move = oneNumberMoved(removed.get(k), added.get(k));
                    if (move != null) {
                        if (found != null && !java.util.Arrays.equals(found, move)) {
                            return null;
                        }
                        found = move;
                    }
                }
            }
            removed.clear();
            added.clear();
            if (minus) {
                removed.add(l.substring(1));
            }
        }
        return found;
    }

    /** The old and new number where {@code a} and {@code b} differ in one run of digits only, no dot beside it. */
    static String[] oneNumberMoved(String a, String b) {
        int p = 0;
        while (p < a.length() && p < b.length() && a.charAt(p) == b.charAt(p)) {
            p++;
        }
        int s = 0;
        while (s < a.length() - p && s < b.length() - p
                && a.charAt(a.length() - 1 - s) == b.charAt(b.length() - 1 - s)) {
            s++;
        }
        while (p > 0 && Character.isDigit(a.charAt(p - 1))) {
            p--; // the whole run: 103 to 104 differ in their last digit
        }
        while (s > 0 && Character.isDigit(a.charAt(a.length() - s))) {
            s--;
        }
        String oldRun = a.substring(p, a.length() - s);
        String newRun = b.substring(p, b.length() - s);
        if (oldRun.isEmpty() || newRun.isEmpty() || oldRun.equals(newRun) || !allDigits(oldRun) || !allDigits(newRun)
                || p > 0 && a.charAt(p - 1) == '.' || s > 0 && a.charAt(a.length() - s) == '.') {
            return null;
        }
        return new String[] {oldRun, newRun};
    }

    private static boolean allDigits(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** A name with a version in it, {@code jgit-4.35}, {@code orbit-4.39}: a versioned file's or module's. */
    static final Pattern NAME_VERSION = Pattern.compile("(?<![\\w.-])([A-Za-z][\\w.]*-\\d+(?:\\.\\d+)+)(?![\\w.]*\\w)");

    /**
     * Whether every versioned name the description names ({@link #NAME_VERSION}) is on a line this diff adds, its
     * file headers included: "Add target platform jgit-4.35" for a diff that adds {@code jgit-4.37.target} names the
     * module its exemplar added, which this diff's pom lists only on a line it keeps.
     */
    static boolean nameVersionsAdded(String description, String patch) {
        return SubjectEditor.onAddedLines(description, NAME_VERSION, patch, true);
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
    static String soleVersion(String description) {
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
}
