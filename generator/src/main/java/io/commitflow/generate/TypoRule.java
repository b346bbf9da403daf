package io.commitflow.generate;

import java.util.List;
import java.util.Set;

/**
 * A diff that only corrects misspelt words is "Fix typo" ("Fix typos"), in the repository's form, and where it is
 * corrected ("in Javadoc") when that makes a subject long enough to stand; its neighbours by content are whatever
 * else touched those files, so it names no exemplar.
 */
final class TypoRule implements SubjectRule {
    @Override
    public Written write(Composition c) {
        if (c.merge) {
            return null;
        }
        Set<String> typos = Typos.corrections(c.patch());
        if (typos.isEmpty()) {
            return null;
        }
        String place = Typos.place(c.patch());
        Subject s = c.styled(Subject.parse(typos.size() > 1 ? "Fix typos" : "Fix typo"));
        if (place != null) {
            // "DiffTools: Fix typo in Javadoc"; where that is still too short to stand ("Fix typo in Javadoc"),
            // the length rule names the file instead: "Fix typo in ConcurrentUtils"
            Subject placed = s.withDescription(s.description() + " in "
                    + (place.equals("comment") && typos.size() > 1 ? "comments" : place));
            s = placed.render().length() >= SubjectLength.MIN ? placed : s;
        }
        return new Written(s, List.of());
    }
}
