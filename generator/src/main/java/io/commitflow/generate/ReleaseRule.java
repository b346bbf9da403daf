package io.commitflow.generate;

/**
 * A release ({@link ReleaseForm#of}: the package's own version set, nothing else but that version and the change log
 * changed) in a history that words its releases one way ({@link Conventions#releaseForm}) is written in that form,
 * with this diff's version and package name; the form is the history's own, so it is not restyled. Where the form is
 * shorter than a subject may be ({@link SubjectLength#MIN}: {@code Release 1.0.30}), a plain package name completes it
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
        if (subject.strip().length() < SubjectLength.MIN && release.name() != null && release.name().matches("[\\w-]+")
                && !Changelog.touchesLog(c.patch())
                && !subject.toLowerCase(java.util.Locale.ROOT).contains(release.name().toLowerCase(java.util.Locale.ROOT))) {
            subject = subject.strip() + " of " + release.name();
        }
        return new Written(Subject.parse(subject), c.nearestExemplars());
    }
}
