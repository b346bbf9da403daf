package io.commitflow.generate;

import java.util.function.BiPredicate;

/**
 * What an exemplar must pass to be suggested. The first two read the exemplar's own subject, before any edit; the
 * rest read its subject as {@link ExemplarRule} edited and styled it for this diff. {@link #passes} asks them all.
 */
enum ExemplarCheck {
    /**
     * Not a revert: a revert's subject fits only the diff that undoes that commit ({@link RevertRule}); also in the
     * conventional form, "revert: fix(runtime-dom): ensure v-show respects display value …", whose "fix(runtime-dom)"
     * a member edit would make "nextTick()".
     */
    NOT_A_REVERT(true, (c, x) -> !RevertRule.REVERT.matcher(x.subject().description()).lookingAt()
            && !x.subject().type().equalsIgnoreCase("revert")),
    /** Prose: "+=codecov => notifications" is a history's oddity, no suggestion. */
    STARTS_AS_PROSE(true, (c, x) -> MoodEdit.startsAsProse(x.subject().description())),
    /** A bump names the library this diff bumps, not another one near it ({@link BumpedArtifact}). */
    NAMES_THE_BUMPED_LIBRARY(false, (c, x) -> x.bumpNamed()),
    /** No file the exemplar changed and this diff does not. */
    NAMES_NO_FILE_LEFT_ALONE(false, (c, x) -> !FileNameEdit.namesOtherFiles(x.edited().description(),
            x.exemplar().commit().files(), c.files)),
    /** Faithful: no identifier, file or version the diff lacks ({@link Faithfulness}). */
    FAITHFUL(false, (c, x) -> Faithfulness.faithful(x.styled().render(), c.patch())),
    /** A stated move ("Move X to Y") is one the diff makes. */
    MOVES_AS_STATED(false, (c, x) -> Faithfulness.movesAsStated(x.styled().description(), c.patch())),
    /**
     * Its verb fits what the diff does to its files: nothing fixed where every file is new ({@link
     * Faithfulness#verbFitsFiles}).
     */
    VERB_FITS_THE_FILES(false, (c, x) -> Faithfulness.verbFitsFiles(x.styled().description(), c.diff)),
    /** What it adds the diff adds, and what it removes the diff removes ({@link Faithfulness#addsOrRemovesAsStated}). */
    ADDS_OR_REMOVES_AS_STATED(false, (c, x) -> Faithfulness.addsOrRemovesAsStated(x.styled().description(),
            c.patch())),
    /** No issue or pull-request number of the exemplar's. */
    NO_OLD_NUMBER(false, (c, x) -> Faithfulness.numbers(x.edited().description()).isEmpty()),
    /** A year and month (a release train) the diff's added lines write. */
    YEAR_MONTHS_ADDED(false, (c, x) -> DateEdit.yearMonthsAdded(x.styled().description(), c.patch())),
    /** A versioned name ({@code jgit-4.38}) the diff's added lines write. */
    NAME_VERSIONS_ADDED(false, (c, x) -> VersionEdit.nameVersionsAdded(x.styled().description(), c.patch())),
    /** Fitted to 72 characters, it keeps a phrase whole ({@link SubjectLength#keepsPhrase}). */
    KEEPS_ITS_PHRASE(false, (c, x) -> SubjectLength.keepsPhrase(x.styled(), c.diff)),
    /** No name carried from the exemplar's diff that this diff lacks ({@link SubjectEditor#carriedName}). */
    CARRIES_NO_NAME(false, (c, x) -> CarriedNameEdit.carriedName(x.styled().description(),
            x.exemplar().commit().signature(), c.features.signature(), c.patch()) == null),
    /** Its words are this diff's or its history's, not another change's, unless the diffs are alike ({@link OwnWords}). */
    SPEAKS_OF_THIS_DIFF(false, (c, x) -> OwnWords.fits(x.styled().description(), c, x.exemplar(), x.subject()));

    /**
     * An exemplar as the checks see it: its neighbour row and subject, and (after editing) its subject edited for
     * this diff, then styled in the repository's form, and whether a bump it states names this diff's library.
     */
    record Candidate(RepoKnowledge.Neighbor exemplar, Subject subject, Subject edited, Subject styled,
                     boolean bumpNamed) {}

    private final boolean onExemplar;
    private final BiPredicate<Composition, Candidate> test;

    ExemplarCheck(boolean onExemplar, BiPredicate<Composition, Candidate> test) {
        this.onExemplar = onExemplar;
        this.test = test;
    }

    /** Whether the exemplar's own subject may be edited at all (the checks that read it alone). */
    static boolean mayEdit(Composition c, RepoKnowledge.Neighbor exemplar, Subject subject) {
        Candidate x = new Candidate(exemplar, subject, null, null, false);
        for (ExemplarCheck check : values()) {
            if (check.onExemplar && !check.test.test(c, x)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the edited and styled exemplar passes every check on it. */
    static boolean passes(Composition c, Candidate x) {
        for (ExemplarCheck check : values()) {
            if (!check.onExemplar && !check.test.test(c, x)) {
                return false;
            }
        }
        return true;
    }

    /** Whether this check passes {@code x} (for tests: one check alone). */
    boolean test(Composition c, Candidate x) {
        return test.test(c, x);
    }
}
