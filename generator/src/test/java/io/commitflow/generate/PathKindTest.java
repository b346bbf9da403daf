package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PathKindTest {
    private static String patch(String path, String hunk) {
        return "diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path + "\n@@ -1,3 +1,3 @@\n" + hunk;
    }

    @Test
    void aDiffOfCodeThatChangesOnlyCommentsIsOfItsOwnKind() {
        // vuejs/core's "chore: update comments for proxyRefs"
        assertThat(PathKind.commentsOnly(patch("packages/reactivity/src/ref.ts",
                " /**\n- * Returns a proxy\n+ * Returns a reactive proxy\n+\n  */\n"))).isTrue();
        assertThat(PathKind.commentsOnly(patch("src/W.java", "-// old\n+// new\n-int x;\n+long x;\n")))
                .as("code changed too").isFalse();
        assertThat(PathKind.commentsOnly(patch("CHANGELOG.md", "-* **complier:** fix\n+* **compiler:** fix\n")))
                .as("a document's items are its text").isFalse();
        assertThat(PathKind.commentsOnly(patch("src/W.java", " x\n"))).as("no change").isFalse();
    }
}
