package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ExemplarRankerTest {
    private static final ExemplarRanker.Weights SIMILARITY_ONLY = new ExemplarRanker.Weights(10, 5, 0, 0, 0, 0, 0, 0);

    private static RepoKnowledge.Neighbor neighbour(String subject, float score) {
        return neighbour(subject, score, 0, "");
    }

    private static RepoKnowledge.Neighbor neighbour(String subject, float score, long seq, String author) {
        return new RepoKnowledge.Neighbor(new IndexedCommit(seq, "a".repeat(40), subject, List.of(), new int[0],
                new float[0], new int[0], 0, 0, 0, null, false, author), score);
    }

    private static int choose(List<RepoKnowledge.Neighbor> nn, ExemplarRanker.Weights weights) {
        return choose(nn, "", 1, weights);
    }

    private static int choose(List<RepoKnowledge.Neighbor> nn, String author, long nextSeq,
                              ExemplarRanker.Weights weights) {
        return ExemplarRanker.order(nn, RepoKnowledge.subjects(nn), new int[0], null, author, nextSeq, weights).get(0);
    }

    @Test
    void comparesVersionShapes() {
        assertThat(ExemplarRanker.shapeMatch("SNAPSHOT", "SNAPSHOT")).isEqualTo(1);
        assertThat(ExemplarRanker.shapeMatch("SNAPSHOT", "")).isEqualTo(-1);
        assertThat(ExemplarRanker.shapeMatch(null, "")).isZero();
    }

    @Test
    void fitRewardsWordsOfThisDiffAndPenalisesWordsOnlyOfTheirs() {
        WordSet ours = WordSet.of(new int[] {DiffTokens.wordHash("retry")});
        int[] theirs = {DiffTokens.wordHash("walker")};
        assertThat(ExemplarRanker.fit(List.of("retry", "packs"), ours, theirs)).isEqualTo(0.5);
        assertThat(ExemplarRanker.fit(List.of("retry", "walker"), ours, theirs)).isZero();
        assertThat(ExemplarRanker.fit(List.of("in", "(", "of"), ours, theirs)).as("no word of three letters").isZero();
        // "Update Orbit to S20211108222137": its old build id is edited to this diff's, so it counts neither way
        int[] orbit = {DiffTokens.wordHash("s20211108222137"), DiffTokens.wordHash("walker")};
        assertThat(ExemplarRanker.fit(List.of("retry", "s20211108222137"), ours, orbit)).isEqualTo(1.0);
        assertThat(ExemplarRanker.fit(List.of("retry", "2024"), ours, new int[] {DiffTokens.wordHash("2024")}))
                .as("a year is no id").isZero();
        assertThat(ExemplarRanker.isId("jdk18on")).isTrue();
        assertThat(ExemplarRanker.isId("log4j")).isTrue();
        assertThat(ExemplarRanker.isId("sha1")).isFalse();
        assertThat(ExemplarRanker.isId("20240101")).isFalse();
    }

    @Test
    void aWordSetHasTheWordsOfItsSignature() {
        java.util.Random random = new java.util.Random(3);
        for (int trial = 0; trial < 200; trial++) {
            int[] words = new int[random.nextInt(DiffTokens.SIGNATURE_WORDS + 1)];
            for (int i = 0; i < words.length; i++) {
                words[i] = random.nextInt(600) - 300; // repeats, negative hashes too
            }
            java.util.Set<Integer> expected = new java.util.HashSet<>();
            for (int x : words) {
                expected.add(x);
            }
            WordSet set = WordSet.of(words);
            for (int probe = -310; probe <= 310; probe++) {
                assertThat(set.contains(probe)).isEqualTo(expected.contains(probe));
            }
        }
    }

    @Test
    void choosesTheMostSimilarNeighbourWhenOnlySimilarityCounts() {
        List<RepoKnowledge.Neighbor> nn = List.of(neighbour("Update docs", 0.9f), neighbour("Fix race", 0.8f));
        assertThat(choose(nn, SIMILARITY_ONLY)).isZero();
        assertThat(choose(List.of(neighbour("Fix race", 0.1f)), ExemplarRanker.DEFAULT_WEIGHTS)).isZero();
    }

    @Test
    void prefersADescriptionTheOtherNeighboursAgreeWith() {
        List<RepoKnowledge.Neighbor> nn = List.of(neighbour("Update the docs", 0.6f),
                neighbour("Fix race in pack writer", 0.5f), neighbour("Fix race in pack writer thread", 0.5f));
        ExemplarRanker.Weights consensus = new ExemplarRanker.Weights(10, 5, 0, 1, 0, 0, 0, 0);
        assertThat(choose(nn, consensus)).isNotZero();
    }

    @Test
    void prefersTheSameAuthorOnlyWhenThatWeighsAndTheAuthorIsKnown() {
        List<RepoKnowledge.Neighbor> nn = List.of(neighbour("Update docs", 0.9f, 0, "Bob <bob@example.com>"),
                neighbour("Fix race", 0.8f, 1, "Ann <ann@example.com>"));
        ExemplarRanker.Weights author = new ExemplarRanker.Weights(10, 5, 0, 0, 0, 0, 0.5, 0);

        assertThat(choose(nn, "Ann <ann@example.com>", 2, author)).isEqualTo(1);
        assertThat(choose(nn, "Ann <ann@example.com>", 2, SIMILARITY_ONLY)).isZero();
        assertThat(choose(nn, "", 2, author)).as("an event without an author matches nobody's empty author").isZero();
    }

    @Test
    void scoresEachDescriptionAgainstTheRealOneAsBNormDoes() {
        List<RepoKnowledge.Neighbor> nn = List.of(neighbour("Retry the pack writer", 0.9f),
                neighbour("Update docs", 0.8f), neighbour("fix(core): retry packs", 0.7f));
        List<Subject> subjects = RepoKnowledge.subjects(nn);
        double[] score = new double[3];

        double[][] f = ExemplarRanker.features(nn, subjects, new int[0], null, "", 1, "Retry the pack writer twice", score);

        for (int i = 0; i < 3; i++) {
            assertThat(score[i]).isEqualTo(Bleu.bnorm(subjects.get(i).description(), "Retry the pack writer twice"));
        }
        assertThat(f).isDeepEqualTo(ExemplarRanker.features(nn, subjects, new int[0], null, "", 1));
    }

    @Test
    void aFleetExemplarHasNoRecencyHere() {
        // the fleet's row 5,000 counts the tenant's memory, not this repository's 100 rows
        List<RepoKnowledge.Neighbor> nn = List.of(neighbour("Update docs", 0.8f, 50, ""),
                neighbour("Fix race", 0.8f, 5000, ""));
        ExemplarRanker.Weights recency = new ExemplarRanker.Weights(10, 5, 0, 0, 0, 0, 0, 0.5);
        List<Subject> subjects = RepoKnowledge.subjects(nn);

        assertThat(ExemplarRanker.order(nn, subjects, new int[0], null, "", 100, recency).get(0)).isEqualTo(1);
        assertThat(ExemplarRanker.order(nn, subjects, new int[0], null, "", 100, java.util.Set.of(nn.get(1).commit()),
                recency).get(0)).isZero();
    }

    @Test
    void recencyFavoursTheNewerRowByItsAgeInLearnedCommits() {
        List<RepoKnowledge.Neighbor> nn = List.of(neighbour("Update docs", 0.9f, 0, ""),
                neighbour("Fix race", 0.8f, 999, ""));
        ExemplarRanker.Weights recency = new ExemplarRanker.Weights(10, 5, 0, 0, 0, 0, 0, 0.5);

        assertThat(choose(nn, "", 1000, recency)).isEqualTo(1);
        double[][] f = ExemplarRanker.features(nn, RepoKnowledge.subjects(nn), new int[0], null, "", 1000);
        assertThat(f[1][6]).as("the newest row").isEqualTo(1.0);
        assertThat(f[0][6]).isCloseTo(Math.exp(-999 / ExemplarRanker.RECENCY_ROWS), org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void rankingAboveAFloorIsTheFullRankingWithTheRestLeftOut() {
        String[] words = {"retry", "pack", "writer", "docs", "update", "fix", "race", "walker", "the", "in"};
        java.util.Random random = new java.util.Random(7);
        for (int trial = 0; trial < 300; trial++) {
            int n = 1 + random.nextInt(ExemplarRanker.CONSENSUS_NEIGHBOURS + 8);
            List<RepoKnowledge.Neighbor> nn = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                StringBuilder subject = new StringBuilder(words[random.nextInt(words.length)]);
                for (int w = random.nextInt(5); w > 0; w--) {
                    subject.append(' ').append(words[random.nextInt(words.length)]);
                }
                int[] signature = random.ints(random.nextInt(6), 0, words.length)
                        .map(w -> DiffTokens.wordHash(words[w])).toArray();
                nn.add(new RepoKnowledge.Neighbor(new IndexedCommit(random.nextInt(100), "a".repeat(40),
                        subject.toString(), List.of(), new int[0], new float[0], signature, 0, 0, 0, null, false,
                        random.nextBoolean() ? "ann" : "bob"), random.nextInt(11) / 10f));
            }
            int[] ours = random.ints(4, 0, words.length).map(w -> DiffTokens.wordHash(words[w])).toArray();
            ExemplarRanker.Weights weights = new ExemplarRanker.Weights(30, 10, random.nextDouble(),
                    random.nextDouble() * 2, random.nextDouble(), 0.3, random.nextDouble(), random.nextDouble());
            float floor = random.nextInt(11) / 10f;
            List<Subject> subjects = RepoKnowledge.subjects(nn);

            List<Integer> full = ExemplarRanker.order(nn, subjects, ours, null, "ann", 100, java.util.Set.of(), weights);
            List<Integer> above = ExemplarRanker.order(nn, subjects, ours, null, "ann", 100, java.util.Set.of(), weights,
                    floor);

            assertThat(above).as("trial %d", trial)
                    .isEqualTo(full.stream().filter(i -> nn.get(i).score() >= floor).toList());
        }
    }
}
