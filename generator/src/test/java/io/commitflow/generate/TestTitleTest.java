package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TestTitleTest {
    private static String spec(String... added) {
        StringBuilder p = new StringBuilder("diff --git a/packages/runtime-core/__tests__/hydration.spec.ts "
                + "b/packages/runtime-core/__tests__/hydration.spec.ts\n--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n"
                + "   describe('mismatch handling', () => {\n");
        for (String a : added) {
            p.append('+').append(a).append('\n');
        }
        return p.toString();
    }

    @Test
    void readsTheOneTestCaseADiffAdds() {
        assertThat(TestTitle.of(spec("    test('should not warn on falsy bindings of non-property keys', () => {", "    })")))
                .isEqualTo("should not warn on falsy bindings of non-property keys");
        assertThat(TestTitle.of(spec("  it(\"reload async child wrapped in Suspense + KeepAlive\", async () => {")))
                .isEqualTo("reload async child wrapped in Suspense + KeepAlive");
        assertThat(TestTitle.of(spec("  it.only(`handles the \\`display\\` value.`, () => {")))
                .as("unescaped, without its period").isEqualTo("handles the `display` value");
    }

    @Test
    void noTitleWhenNoneOrSeveralOrNoneThatStands() {
        assertThat(TestTitle.of(spec("  const x = submit(a, b)"))).isNull();
        assertThat(TestTitle.of(spec("  it('warns once', () => {", "  it('warns twice', () => {")))
                .as("which one would be a guess").isNull();
        assertThat(TestTitle.of(spec("  it('inside transition-group', () => {"))).as("a scenario's tail").isNull();
        assertThat(TestTitle.of(spec("  it(`renders ${kind} nodes`, () => {"))).as("a template").isNull();
        assertThat(TestTitle.of(spec("  it('basic', () => {"))).as("one word").isNull();
        assertThat(TestTitle.of(" it('context line', () => {\n-  it('removed case', () => {\n")).isNull();
        assertThat(TestTitle.of(null)).isNull();
    }

    @Test
    void titlesAreSubjectsOnlyWhereTheyBeatThePicksAndSayEnoughOnTheirOwn() {
        RepoStyle style = new RepoStyle();
        for (int i = 0; i < RepoStyle.TITLE_LESSONS - 1; i++) {
            style.learnTestTitle(0.4, 0.2);
        }
        assertThat(style.conventions().subjectIsTestTitle()).as("too few lessons").isFalse();
        style.learnTestTitle(0.4, 0.2);
        assertThat(style.conventions().subjectIsTestTitle()).isTrue();

        RepoStyle weak = new RepoStyle();
        for (int i = 0; i < 2 * RepoStyle.TITLE_LESSONS; i++) {
            weak.learnTestTitle(0.15, 0.08); // better than weak picks, still no subjects (babel/babel's 0.15)
        }
        assertThat(weak.conventions().subjectIsTestTitle()).isFalse();

        RepoStyle beaten = new RepoStyle();
        for (int i = 0; i < 2 * RepoStyle.TITLE_LESSONS; i++) {
            beaten.learnTestTitle(0.3, 0.35);
        }
        assertThat(beaten.conventions().subjectIsTestTitle()).isFalse();
    }
}
