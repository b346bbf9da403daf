package io.commitflow.llm;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The prompt's stable prefix, and diffs fitted to a token budget without cutting a line. */
class PromptsTest {
    private static String file(String path, int hunks, int linesPerHunk) {
        StringBuilder p = new StringBuilder("diff --git a/" + path + " b/" + path + "\nindex 1111111..2222222 100644\n--- a/"
                + path + "\n+++ b/" + path + "\n");
        for (int h = 0; h < hunks; h++) {
            p.append("@@ -").append(h * 100 + 1).append(",3 +").append(h * 100 + 1).append(",").append(linesPerHunk + 1).append(" @@\n");
            for (int i = 0; i < linesPerHunk; i++) {
                p.append("+    int value").append(h).append('_').append(i).append(" = compute(").append(i).append(");\n");
            }
            p.append(" }\n");
        }
        return p.toString();
    }

    @Test
    void theSamePrefixForTheSameExemplars() {
        List<Prompts.Exemplar> ex = List.of(new Prompts.Exemplar("PackWriter: Retry writing the pack", List.of("PackWriter")));
        assertThat(Prompts.prefix(ex)).isEqualTo(Prompts.prefix(List.copyOf(ex)))
                .startsWith(Prompts.INSTRUCTIONS).contains("- PackWriter: Retry writing the pack  (PackWriter)");
    }

    @Test
    void aDiffThatFitsIsKeptWhole() {
        String d = file("src/A.java", 1, 5);
        assertThat(Prompts.fitDiff(d, 10_000)).isEqualTo(d);
    }

    @Test
    void aLargeDiffIsSummarisedPerHunkThenPerFileWithinTheBudgetAndNeverMidLine() {
        String d = file("src/A.java", 5, 40) + file("src/B.java", 5, 40) + file("src/C.java", 5, 40) + file("docs/D.md", 3, 30);
        Set<String> original = Set.copyOf(d.lines().toList());
        for (int budget : new int[] {200, 500, 1200, 3000}) {
            String fit = Prompts.fitDiff(d, budget);
            assertThat(Prompts.tokens(fit)).as("budget %d", budget).isLessThanOrEqualTo(budget);
            for (String line : fit.lines().toList()) {
                assertThat(original.contains(line) || line.startsWith("# ") || line.matches(".*: \\+\\d+ -\\d+"))
                        .as("a whole line of the diff or a summary: %s", line).isTrue();
            }
        }
        String tight = Prompts.fitDiff(d, 500);
        assertThat(tight).contains("diff --git a/src/A.java").contains("hunk summarised");
        assertThat(Prompts.fitDiff(d, 120)).contains("docs/D.md: +90 -0");
    }

    @Test
    void kvReuseRatioIsTheReusedShareOfThePrompt() {
        assertThat(Prompts.kvReuseRatio(800, 1000)).isEqualTo(0.8);
        assertThat(Prompts.kvReuseRatio(0, 1000)).isZero();
        assertThat(Prompts.kvReuseRatio(10, 0)).isZero();
    }
}
