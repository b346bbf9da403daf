package io.commitflow.generate;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The edits of dates: a copyright notice's year and a release train's year and month become the ones this diff
 * writes; a subject names only those its diff's added lines write.
 */
final class DateEdit {
    private DateEdit() {}

    /** A subject whose year is the point: a copyright notice's, a licence's, "the year". */
    private static final Pattern ABOUT_YEARS = Pattern.compile("(?i)\\b(?:year|copyright|notice|licen[cs]e)");

    /**
     * A year, or a range of years ({@code 2014-2024}), standing alone: at a sentence's end too ("Updates for 2025.
     * Happy New Year!"), not as a version's first part ({@code 2025.03}).
     */
    private static final Pattern YEAR = Pattern.compile("(?<![\\w.-])((?:19|20)\\d\\d)(?:-((?:19|20)\\d\\d))?(?!\\w|\\.\\w)");

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
        return SubjectEditor.onAddedLines(description, YEAR_MONTH, patch, false);
    }
}
