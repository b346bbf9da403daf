package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

class BleuTest {
    @Test
    void tokenisesLowercasedWithPunctuationSplitOff() {
        assertThat(MessageTokens.of("fix(Core): don't crash on [FLINK-123].")).containsExactly(
                "fix", "(", "core", ")", ":", "don", "'", "t", "crash", "on", "[", "flink", "-", "123", "]", ".");
    }

    @Test
    void scoresAHandComputedExample() {
        // unigrams 2/3; bigrams (0+1)/(2+1); trigrams (0+1)/(1+1); 4-grams (0+1)/(0+1); no brevity penalty
        double expected = Math.exp((Math.log(2.0 / 3) + Math.log(1.0 / 3) + Math.log(1.0 / 2) + Math.log(1)) / 4);
        assertThat(Bleu.bnorm("Fix the bug", "fix a bug")).isCloseTo(expected, offset(1e-12));
        assertThat(Bleu.bnorm("Update jetty to 12.0.21", "update Jetty to 12.0.21")).isEqualTo(1.0);
        // as the reference bleu.py: an empty hypothesis keeps only the brevity penalty exp(1 - (3 + 1) / (0 + 1))
        assertThat(Bleu.bnorm("", "fix a bug")).isCloseTo(Math.exp(-3), offset(1e-12));
        assertThat(Bleu.bnorm("totally different words here", "fix a bug")).isLessThan(1e-6);
    }

    @Test
    void theLogarithmsOfCountsAreMathLogsBitForBitInTheTableAndPastIt() {
        for (int i = 0; i < 5000; i++) {
            assertThat(Double.doubleToRawLongBits(Bleu.log(i)))
                    .as("log of %d", i).isEqualTo(Double.doubleToRawLongBits(Math.log(i + Double.MIN_VALUE)));
        }
        assertThat(Bleu.log(0)).isLessThan(-700).isGreaterThan(Double.NEGATIVE_INFINITY);
    }

    @Test
    void penalisesShortHypotheses() {
        assertThat(Bleu.bnorm("fix", "fix the parser")).isLessThan(Bleu.bnorm("fix the", "fix the parser"));
    }

    @Test
    void theSignatureScorerEqualsTheGenericOneBitForBit() {
        java.util.Random random = new java.util.Random(7);
        for (int trial = 0; trial < 500; trial++) {
            int alphabet = 1 + random.nextInt(trial % 2 == 0 ? 6 : 400); // small alphabets repeat n-grams often
            int[] ours = randomWords(random, random.nextInt(DiffTokens.SIGNATURE_WORDS + 1), alphabet);
            SignatureBleu scorer = new SignatureBleu(ours);
            for (int other = 0; other < 4; other++) {
                int[] theirs = other == 0 ? ours.clone() : randomWords(random, random.nextInt(DiffTokens.SIGNATURE_WORDS + 1), alphabet + other);
                assertThat(scorer.against(theirs)).as("trial %d/%d", trial, other)
                        .isEqualTo(Bleu.sentence(boxed(ours), boxed(theirs)));
            }
        }
        assertThat(new SignatureBleu(new int[] {1, 2, 3, 4}).against(new int[] {1, 2, 3, 4})).isEqualTo(1.0);
        // the longest signature it takes, one word repeated: every n-gram of ours at its most, theirs the same
        int[] longest = new int[SignatureBleu.MAX_LENGTH];
        assertThat(new SignatureBleu(longest).against(longest)).isEqualTo(Bleu.sentence(boxed(longest), boxed(longest)));
        assertThatThrownBy(() -> new SignatureBleu(new int[SignatureBleu.MAX_LENGTH + 1]))
                .isInstanceOf(IllegalArgumentException.class);
        int[] distinct = java.util.stream.IntStream.range(0, SignatureBleu.MAX_WORDS + 1).toArray();
        assertThatThrownBy(() -> new SignatureBleu(distinct)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new SignatureBleu(java.util.Arrays.copyOf(distinct, SignatureBleu.MAX_WORDS)).against(distinct))
                .isEqualTo(Bleu.sentence(boxed(java.util.Arrays.copyOf(distinct, SignatureBleu.MAX_WORDS)), boxed(distinct)));
    }

    @Test
    void thePairwiseScorerEqualsTheGenericOneBitForBit() {
        java.util.Random random = new java.util.Random(13);
        String[] vocabulary = {"fix", "the", "race", "in", "pack", "writer", "(", ")", ":", "update", "to", "1", ".",
                "2", "walker", "-", "a", "of", "use", "retry"};
        for (int trial = 0; trial < 2000; trial++) {
            int alphabet = 1 + random.nextInt(vocabulary.length); // small alphabets repeat n-grams often
            java.util.List<java.util.List<String>> sequences = new java.util.ArrayList<>();
            int m = 1 + random.nextInt(16);
            for (int i = 0; i < m; i++) {
                if (i > 0 && random.nextInt(6) == 0) {
                    sequences.add(sequences.get(random.nextInt(i))); // neighbours often share a description
                    continue;
                }
                java.util.List<String> tokens = new java.util.ArrayList<>();
                int n = random.nextInt(random.nextInt(10) == 0 ? 60 : 14);
                for (int t = 0; t < n; t++) {
                    tokens.add(vocabulary[random.nextInt(alphabet)]);
                }
                sequences.add(tokens);
            }
            PairwiseBleu scorer = new PairwiseBleu(sequences);
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < m; j++) {
                    assertThat(scorer.sentence(i, j)).as("trial %d, %d against %d", trial, i, j)
                            .isEqualTo(Bleu.sentence(sequences.get(i), sequences.get(j)));
                }
            }
        }
    }

    @Test
    void thePairwiseScorerHandlesMoreTokensThanItsIdsHold() {
        java.util.List<String> a = new java.util.ArrayList<>();
        java.util.List<String> b = new java.util.ArrayList<>();
        for (int t = 0; t < 40_000; t++) {
            a.add("a" + t);
            b.add(t % 3 == 0 ? "a" + t : "b" + t);
        }
        PairwiseBleu scorer = new PairwiseBleu(java.util.List.of(a, b, a.subList(0, 5)));
        assertThat(scorer.sentence(0, 1)).isEqualTo(Bleu.sentence(a, b));
        assertThat(scorer.sentence(1, 0)).isEqualTo(Bleu.sentence(b, a));
        assertThat(scorer.sentence(2, 0)).isEqualTo(Bleu.sentence(a.subList(0, 5), a));
    }

    private static int[] randomWords(java.util.Random random, int n, int alphabet) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = (random.nextInt(alphabet) - alphabet / 2) * 0x9E3779B1; // hashes: negative ones too
        }
        return out;
    }

    private static java.util.List<Integer> boxed(int[] xs) {
        return java.util.Arrays.stream(xs).boxed().toList();
    }

    @Test
    void computesRougeLAsTheF1OfTheLongestCommonSubsequence() {
        assertThat(Bleu.rougeL("fix the bug", "fix a bug")).isCloseTo(2.0 / 3, offset(1e-12));
        assertThat(Bleu.rougeL("a b c d", "a c")).isCloseTo(2 * 0.5 * 1.0 / 1.5, offset(1e-12));
        assertThat(Bleu.rougeL("", "x")).isZero();
    }
}
