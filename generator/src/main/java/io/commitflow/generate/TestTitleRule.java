package io.commitflow.generate;

import java.util.List;

/**
 * Where the history's subjects say what its tests' titles say ({@link Conventions#subjectIsTestTitle}) and this diff
 * adds one test, the test's title is the subject, in the repository's form.
 */
final class TestTitleRule implements SubjectRule {
    @Override
    public Written write(Composition c) {
        if (!c.conventions.subjectIsTestTitle() || c.merge) {
            return null;
        }
        String title = TestTitle.of(c.patch());
        if (title == null) {
            return null;
        }
        Subject s = c.styled(new Subject(List.of(), "", false, "", "", false, "", title, false));
        return new Written(s, c.nearestExemplars());
    }
}
