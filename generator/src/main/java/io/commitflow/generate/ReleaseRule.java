package io.commitflow.generate;

/**
 * A release ({@link ReleaseForm#of}: the package's own version set, nothing else but that version and the change log
 * changed) in a history that words its releases one way ({@link Conventions#releaseForm}) is written in that form,
 * with this diff's version and package name; the form is the history's own, so it is not restyled. Where the form is
 * shorter than a subject may be ({@link Conventions#subjectFloor}: {@code Release 1.0.30} where the history's own
 * subjects are never that short), a plain package name completes it
 * ({@code Release 1.0.30 of anyhow}): two words where naming the manifest would take four; where the release changes
 * a change log, {@link SubjectLength} names that instead ({@code release: v3.5.20 in CHANGELOG}), as short.
 */
final class ReleaseRule implements SubjectRule {
    @Override
    public Written write(Composition c) {
        String form = c.conventions.releaseForm();
        if (form == null || c.merge) {
            return null;
        }
        ReleaseForm release = ReleaseForm.of(c.patch());
        String subject = release == null ? null : release.fill(form);
        if (subject == null) {
            return null;
        }
        int floor = c.conventions.subjectFloor();
        if (subject.strip().length() < floor && !Changelog.touchesLog(c.patch())) {
            subject = completed(subject.strip(), release.name(), floor);
        }
        return new Written(Subject.parse(subject), c.nearestExemplars());
    }

    /**
     * A form too short for a subject, completed in the fewest words that reach {@code floor}: the
     * package's plain name ({@code Release 1.0.30 of anyhow}), and where the form is a bare version ({@code 0.26.0}),
     * what it is ({@code Release 0.26.0 of ky}, {@code Release version 1.0.0}); as it is when none reaches it, for
     * {@link SubjectLength} to complete.
     */
    static String completed(String subject, String name, int floor) {
        boolean plainName = name != null && name.matches("[\\w-]+")
                && !subject.toLowerCase(java.util.Locale.ROOT).contains(name.toLowerCase(java.util.Locale.ROOT));
        boolean saysRelease = RELEASE_WORD.matcher(subject).find();
        java.util.List<String> candidates = new java.util.ArrayList<>();
        if (plainName) {
            candidates.add(subject + " of " + name);
        }
        if (!saysRelease) {
            candidates.add("Release " + subject);
            candidates.add("Release version " + subject);
            if (plainName) {
                candidates.add("Release " + subject + " of " + name);
            }
        }
        String best = null;
        for (String s : candidates) {
            if (s.length() >= floor && (best == null || s.length() < best.length())) {
                best = s;
            }
        }
        return best != null ? best : subject;
    }

    /** A form that says what it is: a release, a version, a tag. */
    private static final java.util.regex.Pattern RELEASE_WORD = java.util.regex.Pattern.compile(
            "(?i)\\b(?:releases?|released|version|tag|tagged|publish|published|bump|bumped)\\b");
}
