package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TyposTest {
    private static String patch(String hunk) {
        return "diff --git a/src/W.ts b/src/W.ts\nindex 1..2 100644\n--- a/src/W.ts\n+++ b/src/W.ts\n@@ -1,4 +1,4 @@\n"
                + hunk;
    }

    @Test
    void aDiffThatOnlyCorrectsSpellingsIsATypoFix() {
        // vuejs/core's "chore: fix typo in changelog": valut -> value
        assertThat(Typos.corrections(patch(" // the client\n-// when client valut is null\n+// when client value is null\n }\n")))
                .containsExactly("valut\u2192value");
        // jgit's "fix typo in method name": the same correction on several lines counts once
        assertThat(Typos.corrections(patch("-int findPostion(long o) {\n+int findPosition(long o) {\n x();\n"
                + "-  return findPostion(o);\n+  return findPosition(o);\n")))
                .containsExactly("findPostion\u2192findPosition");
        assertThat(Typos.corrections(patch("-// overriden by teh user\n+// overridden by teh user\n"
                + "-// desutructured here\n+// destructured here\n"))).hasSize(2);
    }

    @Test
    void anythingElseInTheDiffIsNoTypoFix() {
        assertThat(Typos.corrections(patch("-// client valut\n+// client value\n+// and a new line\n")))
                .as("a line added").isEmpty();
        assertThat(Typos.corrections(patch("-// client valut is null\n+// client value was null\n")))
                .as("another word changed too").isEmpty();
        assertThat(Typos.corrections(patch(" x\n y\n"))).as("no change").isEmpty();
        assertThat(Typos.corrections("")).isEmpty();
    }

    @Test
    void aNearSpellingIsOneEditApartInAWordOfFourLettersOrMore() {
        assertThat(Typos.nearSpelling("optioanl", "optional")).as("two letters swapped").isTrue();
        assertThat(Typos.nearSpelling("TRESHOLD", "THRESHOLD")).isTrue();
        assertThat(Typos.nearSpelling("infernece", "inference")).as("two edits in a long word").isTrue();
        assertThat(Typos.nearSpelling("minimum", "maximum")).as("two edits: another word").isFalse();
        assertThat(Typos.nearSpelling("http", "https")).as("letters added at the end").isFalse();
        assertThat(Typos.nearSpelling("COMPILER_FILTER", "COMPILER_FILTERS")).isFalse();
        assertThat(Typos.nearSpelling("getValue", "setValue")).as("another first letter").isFalse();
        assertThat(Typos.nearSpelling("then", "than")).isTrue();
        assertThat(Typos.nearSpelling("teh", "the")).as("too short to tell").isFalse();
        assertThat(Typos.nearSpelling("Value", "value")).as("case alone").isFalse();
        assertThat(Typos.nearSpelling("v1234", "v1235")).as("no word").isFalse();
    }

    @Test
    void saysWhetherTheCorrectionsAreInJavadocOrAComment() {
        String java = "diff --git a/W.java b/W.java\n--- a/W.java\n+++ b/W.java\n@@ -1,3 +1,3 @@\n";
        assertThat(Typos.place(java + "-   * the optioanl name\n+   * the optional name\n")).isEqualTo("Javadoc");
        assertThat(Typos.place(patch("-// client valut\n+// client value\n"))).isEqualTo("comment");
        assertThat(Typos.place(java + "-int findPostion() {\n+int findPosition() {\n")).as("code").isNull();
        String md = "diff --git a/CHANGELOG.md b/CHANGELOG.md\n--- a/CHANGELOG.md\n+++ b/CHANGELOG.md\n@@ -1 +1 @@\n";
        assertThat(Typos.place(md + "-* **complier:** fix\n+* **compiler:** fix\n")).as("a document's item").isNull();
    }
}
