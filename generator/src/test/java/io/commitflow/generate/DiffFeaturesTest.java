package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class DiffFeaturesTest {
    private static final String[] PREFIXES = {"+", "-", " ", "+++ b/", "--- a/", "+++", "---", "diff --git a/x b/x",
            "@@ -1,3 +1,4 @@", "", "+-", "-+", "\\ No newline at end of file", "index 1234..5678 100644"};
    private static final String[] PIECES = {"parseCommitEvent", "HTTPServerError", "snake_case_name", "_private",
            "x", "a1", "getURL", "v2", "1.18.11", "3.1-SNAPSHOT", "2.0.0-RC1", "v1.2", "1.2.3.Final", "0.9", "a.1.2",
            "ÄpfelBaum", "日本語", "😀", "\r", "\t", " ", "(", ");", ".", "..", "-", "__", "Ω", "x_Y", "ABC", "abcDEFGhi",
            "9lives", "CONSTANT_VALUE", "i", "if", "return", "the", "foo.bar(baz)", "\"str\"", "//", "#", "1.2.3 1.2.3"};

    /** A patch of random lines: signs, headers, identifiers of every shape, versions, other scripts, stray CRs. */
    private static String randomPatch(Random random) {
        StringBuilder b = new StringBuilder();
        int lines = random.nextInt(random.nextInt(8) == 0 ? 800 : 40);
        for (int l = 0; l < lines; l++) {
            b.append(PREFIXES[random.nextInt(PREFIXES.length)]);
            int pieces = random.nextInt(12);
            for (int p = 0; p < pieces; p++) {
                b.append(PIECES[random.nextInt(PIECES.length)]);
                if (random.nextBoolean()) {
                    b.append(random.nextBoolean() ? ' ' : (char) ('a' + random.nextInt(26)));
                }
            }
            if (l < lines - 1 || random.nextBoolean()) {
                b.append('\n');
            }
        }
        if (random.nextInt(10) == 0) {
            b.append("\n\n");
        }
        return b.toString();
    }

    private static DiffedCommit diff(String patch, List<FileChange> files) {
        DiffedCommit any = TestDiffs.change("r", "a".repeat(40), "Widget", "run", null, null);
        return DiffedCommit.of(any.commit(), files, files.size(), patch, "", "mirror", null);
    }

    @Test
    void onePassGivesWhatTheSeparatePassesGaveInTheSameOrder() {
        Random random = new Random(11);
        List<FileChange> files = List.of(
                new FileChange("MODIFY", "src/main/java/org/example/PackWriter.java", "src/main/java/org/example/PackWriter.java", false, 3, 1, 0, "100644", "100644"),
                new FileChange("RENAME", "docs/Old_name.md", "docs/newName.md", false, 0, 0, 90, "100644", "100644"));
        FeatureSpace space = new FeatureSpace();
        for (int trial = 0; trial < 3000; trial++) {
            String patch = randomPatch(random);
            DiffedCommit d = diff(patch, trial % 3 == 0 ? List.of() : files);
            DiffFeatures now = DiffFeatures.of(d);
            DiffFeatures before = DiffTokensBefore.features(d);
            // the same entries in the same iteration order: FeatureSpace.vector sums floats in that order
            assertThat(new ArrayList<>(now.terms().entrySet())).as("trial %d", trial)
                    .isEqualTo(new ArrayList<>(before.terms().entrySet()));
            assertThat(new ArrayList<>(DiffTokens.of(d).entrySet())).isEqualTo(new ArrayList<>(before.terms().entrySet()));
            assertThat(space.vector(now.terms())).isEqualTo(space.vector(before.terms()));
            assertThat(now.signature()).isEqualTo(before.signature()).isEqualTo(DiffTokens.signature(patch));
            assertThat(now.lines()).isEqualTo(before.lines()).isEqualTo(DiffTokens.lineFingerprints(patch));
            assertThat(now.newVersions()).isEqualTo(before.newVersions()).isEqualTo(DiffTokens.newVersions(patch));
            space.learn(before.terms());
        }
    }

    @Test
    void anXmlDeclarationsVersionIsNoNewVersionInTheOnePassEither() {
        String patch = "--- /dev/null\n+++ b/jgit-4.32.target\n+<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "+<unit id=\"org.tukaani.xz\" version=\"1.9.0\"/>\n";
        assertThat(DiffFeatures.of(diff(patch, List.of())).newVersions()).containsExactly("1.9.0");
    }

    @Test
    void findsVersionsAsTheRegularExpressionDoes() {
        java.util.regex.Pattern version =
                java.util.regex.Pattern.compile("(?:(?<![\\w.])|(?<=(?<![\\w.])v))\\d+(?:\\.\\d+)+(?:[-.][A-Za-z][\\w.]*)?(?![\\w.])");
        String alphabet = "0123456789...v--aZq_ +;/(é٣v.-";
        Random random = new Random(5);
        for (int trial = 0; trial < 200_000; trial++) {
            StringBuilder b = new StringBuilder();
            int n = random.nextInt(24);
            for (int i = 0; i < n; i++) {
                b.append(alphabet.charAt(random.nextInt(trial % 2 == 0 ? 16 : alphabet.length())));
            }
            String text = b.toString();
            List<String> expected = new ArrayList<>();
            java.util.regex.Matcher m = version.matcher(text);
            while (m.find()) {
                expected.add(m.group());
            }
            assertThat(DiffTokens.versionsIn(text, 0, text.length())).as(text).isEqualTo(expected);
            // within a longer text: the bounds, not the neighbouring characters, end the look-arounds
            String framed = "1." + text + ".2";
            assertThat(DiffTokens.versionsIn(framed, 2, framed.length() - 2)).as(framed).isEqualTo(expected);
        }
        String line = "+<v>1.18.11</v> 3.1-SNAPSHOT 2.0.0-RC1 v1.2 1.2x 1.2.Final";
        assertThat(DiffTokens.versionsIn(line, 0, line.length()))
                .containsExactly("1.18.11", "3.1-SNAPSHOT", "2.0.0-RC1", "1.2", "1.2.Final");
    }

    @Test
    void capsIdentifiersAsBefore() {
        String patch = "+" + "someIdentifier otherOne_x ".repeat(3000) + "\n-tail_end lastOne\n";
        DiffedCommit d = diff(patch, List.of());
        assertThat(new ArrayList<>(DiffFeatures.of(d).terms().entrySet()))
                .isEqualTo(new ArrayList<>(DiffTokensBefore.features(d).terms().entrySet()));
    }
}
