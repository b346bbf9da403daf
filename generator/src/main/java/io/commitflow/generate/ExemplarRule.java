package io.commitflow.generate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The best exemplar whose subject, edited for this diff, names only what this diff contains: the candidates in the
 * order of the ranker's weights ({@link ExemplarRanker}, learned per repository: {@link RankerChoice}), each edited
 * ({@link SubjectEditor}: file names, versions, years, build ids, members), styled ({@link StyleApplier}), and taken
 * when it passes every {@link ExemplarCheck}; only exemplars whose diff is at least {@link
 * RetrievalGenerator#reuseFloor} alike are tried. None passes: no subject, and {@link TemplateRule} writes.
 */
final class ExemplarRule implements SubjectRule {
    @Override
    public Written write(Composition c) {
        List<Written> first = scan(c, true);
        return first.isEmpty() ? null : first.get(0);
    }

    /** Every subject this rule could write for {@code c}, one per exemplar that passes, in the ranker's order. */
    static List<Written> all(Composition c) {
        return scan(c, false);
    }

    private static List<Written> scan(Composition c, boolean firstOnly) {
        if (c.candidates.isEmpty()) {
            return List.of();
        }
        // 0 (nothing learned, or a request from before the choice was kept): the generator's own weights
        ExemplarRanker.Weights rank = c.ranker > 0 && c.ranker < RankerChoice.GRID.size()
                ? RankerChoice.GRID.get(c.ranker) : c.generator.weights();
        // a fleet commit's row number counts another memory's rows: it has no age here
        Set<IndexedCommit> foreign = Set.of();
        if (!c.fleetNeighbours.isEmpty()) {
            foreign = Collections.newSetFromMap(new IdentityHashMap<>());
            for (RepoKnowledge.Neighbor n : c.fleetNeighbours) {
                foreign.add(n.commit());
            }
        }
        // below the floor, another change's subject most often, however its words are edited: not ranked, not tried
        List<Integer> order = ExemplarRanker.order(c.candidates, c.subjects, c.features.signature(),
                c.features.versionShape(), c.diff.commit().author(), c.window.to(), foreign, rank,
                c.generator.reuseFloor());
        if (order.isEmpty()) {
            return List.of();
        }
        // only a diff that moves to one new version can rewrite a bump's "from A to B": scan its patch for the old
        // one then, not for every suggestion
        List<String> oldVersions = c.features.newVersions().size() == 1 ? DiffTokens.oldVersions(c.patch()) : List.of();
        // a diff of a test is about the class it tests: an exemplar's class becomes that one
        String underTest = FileNameEdit.classUnderTest(c.files, c.patch());
        MemberEdit.Member member = null;
        boolean memberRead = false;
        List<Written> out = new ArrayList<>();
        for (int i : order) {
            RepoKnowledge.Neighbor candidate = c.candidates.get(i);
            Subject subject = c.subjects.get(i);
            if (!ExemplarCheck.mayEdit(c, candidate, subject)) {
                continue;
            }
            Subject edited = SubjectEditor.adapt(subject, candidate.commit().files(), c.files, underTest, oldVersions,
                    c.features.newVersions(), c.pastTense);
            // a copyright notice's year is the one this diff writes
            edited = edited.withDescription(DateEdit.editYear(edited.description(), c.patch()));
            // and a release train's year and month, the one this diff points at
            edited = edited.withDescription(DateEdit.editYearMonth(edited.description(), c.patch()));
            // a bump's plain numbers ("from 93 to 104", "@v4 -> v5"), the ones this diff moves
            edited = edited.withDescription(VersionEdit.editNumberPair(edited.description(), c.patch()));
            // a build id the exemplar moved to ("Update Orbit to R20220830213456") becomes the one this diff adds
            edited = edited.withDescription(CarriedNameEdit.replaceCarried(edited.description(),
                    candidate.commit().signature(), c.features.signature(), c.patch()));
            if (MemberEdit.namesMember(edited.description())) {
                if (!memberRead) { // the patch is read for its declarations only when an exemplar names a member
                    member = MemberEdit.changedMember(c.patch());
                    memberRead = true;
                }
                edited = edited.withDescription(MemberEdit.editMember(edited.description(), member, c.patch()));
            }
            Subject styled = StyleApplier.withoutUnsupportedArea(c.styled(edited), c.patch());
            if (styled.render().length() > SubjectLength.MAX && !edited.scope().isEmpty()
                    && !edited.scope().equals(styled.scope())
                    && styled.withScope(edited.scope()).render().length() <= SubjectLength.MAX) {
                // the voted scope would cut a description that fits whole under the exemplar's own: "fix(types):
                // calling readonly() with ref() should return Readonly<Ref<T>>" had become "fix(reactivity): …
                // should return"
                styled = styled.withScope(edited.scope());
            }
            // a bump names the library this diff bumps, not another one near it
            Subject bump = BumpedArtifact.named(styled, c.patch(), c.features.newVersions());
            if (bump != null) {
                styled = bump;
            }
            if (ExemplarCheck.passes(c, new ExemplarCheck.Candidate(candidate, subject, edited, styled, bump != null))) {
                out.add(new Written(styled, c.exemplarsFrom(candidate)));
                if (firstOnly) {
                    break;
                }
            }
        }
        return out;
    }
}
