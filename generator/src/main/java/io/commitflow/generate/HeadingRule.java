package io.commitflow.generate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A diff that opens a change log's new section ({@link Changelog#heading}: {@code 2026.03.06, Version 1.52.1
 * (Stable)}) is titled with that heading where the history titles such commits so: the nearest neighbour's subject
 * and at least {@value #MIN_ALIKE} of the neighbours' have the heading's shape, its numbers aside. The subject is then
 * this diff's own line, its date and version the new ones; an exemplar of the same form would carry the last
 * release's. A change that also opens the next version's section (a feature and its change-log heading together) has
 * other changes for its nearest neighbours, and is left to the other rules.
 */
final class HeadingRule implements SubjectRule {
    /** How many neighbours must have written a subject of the heading's shape. */
    static final int MIN_ALIKE = 2;
    private static final Pattern NUMBER = Pattern.compile("\\d+");

    @Override
    public Written write(Composition c) {
        if (c.merge) {
            return null;
        }
        String heading = Changelog.heading(c.patch());
        if (heading == null || heading.length() > SubjectLength.MAX) {
            return null;
        }
        String shape = shape(heading);
        List<String> exemplars = new ArrayList<>();
        int alike = 0;
        boolean nearestAlike = false;
        for (int i = 0; i < c.neighbours.size(); i++) {
            IndexedCommit n = c.neighbours.get(i).commit();
            if (shape.equals(shape(Faithfulness.withoutSquashSuffix(n.subject())))) {
                nearestAlike |= i == 0;
                alike++;
                if (exemplars.size() < 3) {
                    exemplars.add(n.sha());
                }
            }
        }
        if (alike < MIN_ALIKE || !nearestAlike) {
            return null;
        }
        return new Written(null, exemplars, new Draft(heading, c.template.body(), c.template.type(), "",
                RetrievalGenerator.BACKEND, c.neighbours.get(0).score(), List.copyOf(exemplars)));
    }

    /** A subject's shape: its words as written, each number a 0, case and a final period aside. */
    static String shape(String subject) {
        String s = subject.strip().toLowerCase(Locale.ROOT);
        if (s.endsWith(".")) {
            s = s.substring(0, s.length() - 1);
        }
        return NUMBER.matcher(s).replaceAll("0");
    }
}
