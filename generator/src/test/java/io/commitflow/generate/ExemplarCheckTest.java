package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ExemplarCheckTest {
    private static ExemplarCheck.Candidate candidate(Composition c, String edited) {
        RepoKnowledge.Neighbor n = c.candidates.get(0);
        Subject s = Subject.parse(edited);
        return new ExemplarCheck.Candidate(n, s, s, s, true);
    }

    @Test
    void eachCheckTurnsDownWhatItIsFor() {
        try (Rules r = new Rules()) {
            r.learn(TestDiffs.change("r", "1".repeat(40), "Widget", "run", "Retry runs in Widget\n", null));
            Composition c = r.composition(TestDiffs.change("r", "2".repeat(40), "Widget", "run", null, null));

            assertThat(ExemplarCheck.mayEdit(c, c.candidates.get(0), Subject.parse("Revert \"Retry runs\"")))
                    .isFalse();
            assertThat(ExemplarCheck.mayEdit(c, c.candidates.get(0), new Subject(java.util.List.of(), "", false, "",
                    "", false, "", "+=codecov => notifications", false))).isFalse();
            assertThat(ExemplarCheck.mayEdit(c, c.candidates.get(0), Subject.parse("Retry runs in Widget"))).isTrue();

            assertThat(ExemplarCheck.passes(c, candidate(c, "Retry runs in Widget"))).isTrue();
            assertThat(ExemplarCheck.FAITHFUL.test(c, candidate(c, "Retry runs in PackWriter"))).isFalse();
            assertThat(ExemplarCheck.NO_OLD_NUMBER.test(c, candidate(c, "Retry runs in Widget, see #123 and FLINK-123"))).isFalse();
            assertThat(ExemplarCheck.NAMES_THE_BUMPED_LIBRARY.test(c, new ExemplarCheck.Candidate(
                    c.candidates.get(0), Subject.parse("x"), Subject.parse("x"), Subject.parse("x"), false))).isFalse();
            assertThat(ExemplarCheck.passes(c, candidate(c, "Retry runs in PackWriter"))).isFalse();
        }
    }

    @Test
    void aSubjectAboutAnotherChangeIsKeptOnlyForAnAlikeDiff() {
        try (Rules r = new Rules()) {
            r.learn(TestDiffs.change("r", "1".repeat(40), "Gadget", "load", "Tidy prose in Gadget\n", null));
            r.learn(TestDiffs.change("r", "3".repeat(40), "Sprocket", "save", "Tidy prose of Sprocket\n", null));
            Composition c = r.composition(TestDiffs.change("r", "2".repeat(40), "Widget", "run", null, null));
            RepoKnowledge.Neighbor near = c.candidates.get(0);
            RepoKnowledge.Neighbor loose = new RepoKnowledge.Neighbor(near.commit(), 0.3f);
            RepoKnowledge.Neighbor alike = new RepoKnowledge.Neighbor(near.commit(), 0.9f);
            Subject own = c.subjects.get(0);

            // the diff says every word: the class and the retry it adds
            assertThat(OwnWords.fits("Retry in Widget", c, loose, own)).isTrue();
            // a subject about another change: none of its words is this diff's or another neighbour's
            assertThat(OwnWords.fits("Add ASOF join to the converter", c, loose, own)).isFalse();
            assertThat(ExemplarCheck.SPEAKS_OF_THIS_DIFF.test(c, new ExemplarCheck.Candidate(loose,
                    own, Subject.parse("x"), Subject.parse("Add ASOF join to the converter"), true)))
                    .isFalse();
            // the same subject is kept whole where the diffs are alike
            assertThat(OwnWords.fits("Add ASOF join to the converter", c, alike, own)).isTrue();
            // "tidy" and "prose" are how this history describes a kind of change: another neighbour says them too
            assertThat(OwnWords.fits("Tidy prose in Widget", c, loose, own)).isTrue();
            // one foreign word in two is allowed, two in three is not
            assertThat(OwnWords.fits("Retry Widget mainframes", c, loose, own)).isTrue();
            assertThat(OwnWords.fits("Retry mainframe spools", c, loose, own)).isFalse();
        }
    }

    @Test
    void aDiffSaysWhatItsChangedLinesAndPathsSay() {
        String patch = "diff --git a/src/Parser.java b/src/Parser.java\n--- a/src/Parser.java\n+++ b/src/Parser.java\n"
                + "@@ -1,3 +1,3 @@\n class Parser extends AsofJoinBase {\n-  int depth;\n+  long Depth;\n }\n";
        String said = OwnWords.changedText(patch);
        assertThat(said).contains("parser.java", "long depth", "int depth").doesNotContain("asofjoinbase");
        assertThat(OwnWords.stem("aliases")).isEqualTo("alias");
        assertThat(OwnWords.stem("simplifies")).isEqualTo("simplif");
        assertThat(OwnWords.stem("runs")).isEqualTo("runs");
        assertThat(OwnWords.contentWords("fix(parser): Add the long depth to Parser")).containsExactly("parser",
                "long", "depth", "parser");
    }
}
