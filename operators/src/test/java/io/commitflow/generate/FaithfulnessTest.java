package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FaithfulnessTest {
    private static final String PATCH = """
            diff --git a/src/main/java/org/eclipse/jgit/transport/ReceivePack.java b/src/main/java/org/eclipse/jgit/transport/ReceivePack.java
            --- a/src/main/java/org/eclipse/jgit/transport/ReceivePack.java
            +++ b/src/main/java/org/eclipse/jgit/transport/ReceivePack.java
            @@ -10,3 +10,4 @@ class ReceivePack {
            -    private int maxObjectSizeLimit;
            +    private long max_object_size;
            +    void sendProgress() {}
            diff --git a/pom.xml b/pom.xml
            -    <version>5.0.0</version>
            +    <version>5.0.1</version>
            """;

    @Test
    void namesTheDiffContainsAreSupported() {
        assertThat(Faithfulness.unsupported("Use max_object_size in ReceivePack.java and sendProgress()", PATCH)).isEmpty();
        assertThat(Faithfulness.unsupported("Bump version to 5.0.1", PATCH)).isEmpty();
        assertThat(Faithfulness.unsupported("transport: rename maxObjectSizeLimit (see jgit/transport/)", PATCH)).isEmpty();
    }

    @Test
    void namesTheDiffLacksAreNot() {
        // the nonsense edit of issue 16: a file's name swapped for a class that has nothing to do with it
        assertThat(Faithfulness.unsupported("Show real demo output in the PatchId", PATCH)).containsExactly("PatchId");
        assertThat(Faithfulness.unsupported("Update README.md and getRef()", PATCH)).containsExactly("README.md", "getRef()");
        assertThat(Faithfulness.unsupported("Bump version to 5.1.0", PATCH)).containsExactly("5.1.0");
        assertThat(Faithfulness.unsupported("Fix #4242 in PackWriter", PATCH)).containsExactly("PackWriter");
    }

    @Test
    void issueAndPullRequestNumbersAreListedApart() {
        assertThat(Faithfulness.unsupported("[FLINK-12345] Fix checkpoint timeout", PATCH)).isEmpty();
        assertThat(Faithfulness.numbers("[FLINK-12345] Fix #4242 and UTF-8 names (#11630)")).containsExactly("FLINK-12345", "#4242");
        assertThat(Faithfulness.numbers("Revert \"Fix #12 (#13)\"")).isEmpty();
    }

    @Test
    void gitHubsSquashSuffixAndPlainWordsAreNotJudged() {
        assertThat(Faithfulness.faithful("Fix the progress meter when pushing (#11630)", PATCH)).isTrue();
        assertThat(Faithfulness.withoutSquashSuffix("Fix the meter (#11630)")).isEqualTo("Fix the meter");
        assertThat(Faithfulness.faithful("Git: handle UTF-8 names, e.g. in README and 3.x branches", PATCH)).isTrue();
        assertThat(Faithfulness.faithful("Revert \"Add a cache\"", PATCH)).isTrue();
        assertThat(Faithfulness.faithful("Revert \"fix(Transition): keep KeepAlive child (#11778)\"", PATCH))
                .as("the reverted commit's subject is quoted, not claimed").isTrue();
        assertThat(Faithfulness.withoutPullRequests("Bump codeql (#1421) 3.17.0")).isEqualTo("Bump codeql 3.17.0");
    }
}
