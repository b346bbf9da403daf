package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FaithfulnessTest {
    private static final String POM_PROPERTIES = """
            diff --git a/pom.xml b/pom.xml
            --- a/pom.xml
            +++ b/pom.xml
            @@ -1,6 +1,6 @@
                 <commons-codec-version>1.17.1</commons-codec-version>
            -    <bytebuddy-version>1.14.7</bytebuddy-version>
            +    <bytebuddy-version>1.14.8</bytebuddy-version>
                 <commons-io-version>2.16.1</commons-io-version>
            """;
    private static final String POM_PLUGIN = """
            diff --git a/pom.xml b/pom.xml
            --- a/pom.xml
            +++ b/pom.xml
            @@ -1,7 +1,7 @@
                   <artifactId>maven-shade-plugin</artifactId>
                   <version>3.5.0</version>
                 </plugin>
                 <plugin>
                   <artifactId>maven-enforcer-plugin</artifactId>
            -      <version>3.2.1</version>
            +      <version>3.3.0</version>
            """;
    private static final String BAZEL = """
            diff --git a/WORKSPACE b/WORKSPACE
            --- a/WORKSPACE
            +++ b/WORKSPACE
            @@ -1,9 +1,9 @@
            -BYTE_BUDDY_VERSION = "1.15.1"
            +BYTE_BUDDY_VERSION = "1.15.3"
             maven_jar(
                 name = "commons-io",
                 artifact = "commons-io:commons-io:2.16.1",
            -    sha1 = "0d26263eb7524252d98e602fc6942996a3195e29",
            +    sha1 = "01b3069696cd9ed55d90b9114ffe3429035ff924",
             )
            """;

    @Test
    void aBumpNamesTheLibraryThisDiffChangesNotANeighbourInThePom() {
        assertThat(Faithfulness.bumpNamesChanged("Update bytebuddy to 1.14.8", POM_PROPERTIES)).isTrue();
        assertThat(Faithfulness.bumpNamesChanged("Update commons-codec to 1.14.8", POM_PROPERTIES)).isFalse();
        assertThat(Faithfulness.faithful("Update commons-codec to 1.14.8", POM_PROPERTIES))
                .as("in the patch, so faithful by names alone").isTrue();
        assertThat(Faithfulness.bumpNamesChanged("Update maven-enforcer-plugin to 3.3.0", POM_PLUGIN)).isTrue();
        assertThat(Faithfulness.bumpNamesChanged("Update maven-shade-plugin to 3.3.0", POM_PLUGIN)).isFalse();
        assertThat(Faithfulness.bumpNamesChanged("Update bytebuddy to 1.15.3", BAZEL)).as("BYTE_BUDDY_VERSION").isTrue();
        assertThat(Faithfulness.bumpNamesChanged("Update commons-io to 2.16.2", BAZEL)).as("declared above a sha1").isTrue();
        assertThat(Faithfulness.bumpNamesChanged("Update commons-io to 1.15.3", BAZEL))
                .as("1.15.3 is what bytebuddy's changed line moves to, not commons-io's").isFalse();
        String deps = """
                diff --git a/package.json b/package.json
                --- a/package.json
                +++ b/package.json
                @@ -1,4 +1,4 @@
                -    "jest": "^30.0.4",
                +    "jest": "^30.0.5",
                -    "typescript-eslint": "^8.59.1",
                +    "typescript-eslint": "^8.60.0",
                """;
        assertThat(Faithfulness.bumpNamesChanged("Update Jest to v8.60.0", deps)).as("babel: jest moves to 30.0.5").isFalse();
        assertThat(Faithfulness.bumpNamesChanged("Update typescript-eslint to v8.60.0", deps)).isTrue();
        assertThat(Faithfulness.bumpNamesChanged("Bump jest to v8 in yarn.lock", deps)).as("babel: jest is at 30").isFalse();
        assertThat(Faithfulness.bumpNamesChanged("Bump jest to v30", deps)).isTrue();
        assertThat(Faithfulness.bumpNamesChanged("Bump typescript-eslint to v8", deps)).isTrue();
        String bazel = """
                diff --git a/.bazelversion b/.bazelversion
                --- a/.bazelversion
                +++ b/.bazelversion
                @@ -1 +1 @@
                -7.6.1
                +8.2.1
                """;
        assertThat(Faithfulness.bumpNamesChanged("Bump bazel version to 8.2.1", bazel)).as("the file names it").isTrue();
        assertThat(Faithfulness.bumpName("Bump bazel version to 8.2.1")).isEqualTo("bazel");
        assertThat(Faithfulness.bumpNamesChanged("Update jest to 8.2.1", bazel)).isFalse();
        String module = """
                diff --git a/MODULE.bazel b/MODULE.bazel
                --- a/MODULE.bazel
                +++ b/MODULE.bazel
                @@ -40,1 +40,1 @@
                -        "com.google.errorprone:error_prone_type_annotations:2.38.0",
                +        "com.google.errorprone:error_prone_type_annotations:2.46.0",
                """;
        assertThat(Faithfulness.bumpNamesChanged("Update bazel to 2.46.0", module))
                .as("jgit: MODULE.bazel's extension names no bazel release").isFalse();
        assertThat(Faithfulness.bumpNamesChanged("Update error_prone_type_annotations to 2.46.0", module)).isTrue();
        assertThat(Faithfulness.bumpNamesChanged("Fix the enforcer rules", POM_PLUGIN)).as("no bump").isTrue();
        assertThat(Faithfulness.bumpName("chore(deps): update dependency vite to v5.4.19")).isEqualTo("vite");
        assertThat(Faithfulness.bumpName("Bump to next development version")).isNull();
        // a name in two words is still a bump: its last word is the library (jgit: "Update Apache commons-codec to …")
        assertThat(Faithfulness.bumpName("Update Apache commons-codec to 1.16.0")).isEqualTo("commons-codec");
        assertThat(Faithfulness.bumpNamesChanged("Update Apache commons-codec to 1.14.8", POM_PROPERTIES)).isFalse();
        assertThat(Faithfulness.bumpName("Update actions/checkout action to v4")).isEqualTo("actions/checkout");
        assertThat(Faithfulness.bumpName("Update copyright year to 2014-2022 in NOTICE files")).as("no library").isNull();
        assertThat(Faithfulness.bumpName("Update Copyright Year to 2024")).as("title case, no library").isNull();
        String two = """
                diff --git a/package.json b/package.json
                --- a/package.json
                +++ b/package.json
                @@ -1,2 +1,2 @@
                +    "jest": "^30.0.5",
                +    "left-pad": "^0.5",
                """;
        assertThat(Faithfulness.bumpNamesChanged("Update jest to 0.5", two)).as("0.5 inside 30.0.5 is no 0.5").isFalse();
        assertThat(Faithfulness.bumpNamesChanged("Update left-pad to 0.5", two)).isTrue();
    }

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
        // a nonsense edit seen in review: a file's name swapped for a class that has nothing to do with it
        assertThat(Faithfulness.unsupported("Show real demo output in the PatchId", PATCH)).containsExactly("PatchId");
        assertThat(Faithfulness.unsupported("Update README.md and getRef()", PATCH)).containsExactly("README.md", "getRef()");
        assertThat(Faithfulness.unsupported("Bump version to 5.1.0", PATCH)).containsExactly("5.1.0");
        assertThat(Faithfulness.unsupported("Fix #4242 in PackWriter", PATCH)).containsExactly("PackWriter");
        // a member with its parameters, as Apache Commons histories write them: the member must be in the diff
        assertThat(Faithfulness.unsupported("Add RandomAccessFileMode.io(String)", PATCH))
                .containsExactly("RandomAccessFileMode.io(String)");
        assertThat(Faithfulness.unsupported("Fix abbreviate(String, int) bounds", PATCH)).containsExactly("abbreviate(String");
        assertThat(Faithfulness.unsupported("Call ReceivePack.sendProgress(int) less (see notes)", PATCH)).isEmpty();
        // a conventional commit's type and scope is no call
        assertThat(Faithfulness.unsupported("fix(compiler): keep sendProgress", PATCH)).isEmpty();
        assertThat(Faithfulness.unsupported("feat(api)!: drop maxObjectSizeLimit", PATCH)).isEmpty();
    }

    @Test
    void aPreReleaseVersionIsJudgedWhole() {
        String release = """
                --- a/package.json
                +++ b/package.json
                -  "version": "12.0.0-1",
                +  "version": "12.0.0",
                """;
        assertThat(Faithfulness.unsupported("5.0.0-4", release)).as("another release's candidate").containsExactly("5.0.0-4");
        assertThat(Faithfulness.unsupported("Prepare 12.0.0-2", release)).containsExactly("12.0.0-2");
        assertThat(Faithfulness.unsupported("Release 12.0.0", release)).isEmpty();
        assertThat(Faithfulness.unsupported("Release 12.0.0-1 as 12.0.0", release)).isEmpty();
        assertThat(Faithfulness.unsupported("Prepare 2.0.0-rc.1 and 1.3-SNAPSHOT", release))
                .containsExactly("2.0.0-rc.1", "1.3-SNAPSHOT");
        assertThat(Faithfulness.unsupported("Keep 12.0-compatible", release)).as("a word after a version: not judged")
                .isEmpty();
    }

    @Test
    void issueAndPullRequestNumbersAreListedApart() {
        assertThat(Faithfulness.unsupported("[FLINK-12345] Fix checkpoint timeout", PATCH)).isEmpty();
        assertThat(Faithfulness.numbers("[FLINK-12345] Fix #4242 and UTF-8 names (#11630)")).containsExactly("FLINK-12345", "#4242");
        assertThat(Faithfulness.numbers("Revert \"Fix #12 (#13)\"")).isEmpty();
        // an old commit's id is no claim about this change either (jgit: "Fix @since from commit 64d0aaa2")
        assertThat(Faithfulness.numbers("Fix @since from commit 64d0aaa2")).containsExactly("64d0aaa2");
        assertThat(Faithfulness.numbers("Fix deadbeef and 1234567 and cafe4")).as("no digit, no letter, too short")
                .isEmpty();
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

    @Test
    void aStatedMoveFromOneVersionToAnotherIsThisDiffsMove() {
        String pom = "--- a/pom.xml\n+++ b/pom.xml\n-    <commons.text.version>1.13.1</commons.text.version>\n"
                + "+    <commons.text.version>1.14.0</commons.text.version>\n     <commons.parent>84</commons.parent>\n";
        assertThat(Faithfulness.movesAsStated("Bump commons.text from 1.13.1 to 1.14.0", pom)).isTrue();
        assertThat(Faithfulness.movesAsStated("Bump commons.text from 84 to 85", pom))
                .as("the parent's numbers, on no changed line").isFalse();
        assertThat(Faithfulness.movesAsStated("Bump commons.text from 1.14.0 to 1.13.1", pom)).as("backwards").isFalse();
        assertThat(Faithfulness.movesAsStated("Bump commons.text from 1.13 to 1.14", pom))
                .as("a prefix of a version is not that version").isFalse();
        assertThat(Faithfulness.movesAsStated("Update commons.text to 1.14.0", pom)).as("no pair stated").isTrue();
        assertThat(Faithfulness.movesAsStated("[build] org.apache.commons:commons-parent 1.13.1 -> 1.14.0", pom))
                .as("a move with an arrow").isTrue();
        assertThat(Faithfulness.movesAsStated("[build] org.apache.commons:commons-parent 48 -> 51", pom))
                .as("an arrow's numbers on no changed line").isFalse();
        assertThat(Faithfulness.movesAsStated("Update commons.text to 1.14", pom))
                .as("a bump's new version alone is on an added line too").isFalse();
        String sha = "--- a/WORKSPACE\n+++ b/WORKSPACE\n     artifact = \"org.apache.httpcomponents:httpcore:4.4.15\",\n"
                + "-    sha1 = \"aa\",\n+    sha1 = \"bb\",\n";
        assertThat(Faithfulness.movesAsStated("Update org.apache.httpcomponents:httpcore to 4.4.15", sha))
                .as("a checksum fixed beside a version moves nothing to it").isFalse();
        assertThat(Faithfulness.movesAsStated("Bump jest to v8", pom)).as("a bare major: bumpNamesChanged reads it")
                .isTrue();
    }

    @Test
    void aModulesFolderDoesNotNameTheLibraryItsFilesBump() {
        String patch = "--- a/flink-connector-kafka/src/test/java/DockerImageVersions.java\n"
                + "+++ b/flink-connector-kafka/src/test/java/DockerImageVersions.java\n"
                + "-    public static final String KAFKA = \"confluentinc/cp-kafka:7.5.0\";\n"
                + "+    public static final String KAFKA = \"confluentinc/cp-kafka:7.7.2\";\n";
        assertThat(Faithfulness.bumpNamesChanged("Bump flink version to 7.7.2", patch)).isFalse();
        assertThat(Faithfulness.bumpNamesChanged("Bump cp-kafka to 7.7.2", patch)).isTrue();
    }

    @Test
    void aVerbFitsWhatTheDiffDoesToItsFiles() {
        io.commitflow.git.DiffedCommit any = TestDiffs.change("r", "a".repeat(40), "Widget", "run", null, null);
        java.util.function.BiFunction<String, String, io.commitflow.git.FileChange> file = (change, path) ->
                new io.commitflow.git.FileChange(change, change.equals("ADD") ? "" : path,
                        change.equals("DELETE") ? "" : path, false, 3, 0, 0, "100644", "100644");
        io.commitflow.git.DiffedCommit adds = io.commitflow.git.DiffedCommit.of(any.commit(),
                java.util.List.of(file.apply("ADD", "regress/names.sh"), file.apply("ADD", "regress/names.result")), 2,
                any.patch(), "", "mirror", null);
        io.commitflow.git.DiffedCommit deletes = io.commitflow.git.DiffedCommit.of(any.commit(),
                java.util.List.of(file.apply("DELETE", "scripts/migrate.py")), 1, any.patch(), "", "mirror", null);
        io.commitflow.git.DiffedCommit mixed = io.commitflow.git.DiffedCommit.of(any.commit(),
                java.util.List.of(file.apply("ADD", "regress/names.sh"), file.apply("MODIFY", "Makefile.am")), 2,
                any.patch(), "", "mirror", null);
        io.commitflow.git.DiffedCommit cut = io.commitflow.git.DiffedCommit.of(any.commit(),
                java.util.List.of(file.apply("ADD", "regress/names.sh")), 40, any.patch(), "", "mirror", null);

        assertThat(Faithfulness.verbFitsFiles("Fix some regress tests.", adds)).isFalse();
        assertThat(Faithfulness.verbFitsFiles("Updated the names test", adds)).as("any tense").isFalse();
        assertThat(Faithfulness.verbFitsFiles("Add a test for names.", adds)).isTrue();
        assertThat(Faithfulness.verbFitsFiles("Missing test for names.", adds)).as("not a verb on what exists")
                .isTrue();
        assertThat(Faithfulness.verbFitsFiles("Add script to ease migration", deletes)).isFalse();
        assertThat(Faithfulness.verbFitsFiles("Remove the migration script", deletes)).isTrue();
        assertThat(Faithfulness.verbFitsFiles("Fix some regress tests.", deletes)).isTrue();
        assertThat(Faithfulness.verbFitsFiles("Fix some regress tests.", mixed)).as("a file modified").isTrue();
        assertThat(Faithfulness.verbFitsFiles("Fix some regress tests.", cut)).as("38 files not listed").isTrue();
        assertThat(Faithfulness.verbFitsFiles("Fix some regress tests.", any)).as("a modified file").isTrue();
    }

    @Test
    void whatASubjectAddsTheDiffAddsAndWhatItRemovesTheDiffRemoves() {
        String removesCall = "diff --git a/src/util.c b/src/util.c\n--- a/src/util.c\n+++ b/src/util.c\n@@ -1,4 +1,2 @@\n"
                + " int x;\n-int mkstemp(char *t) {\n-  return 0;\n-}\n";
        assertThat(Faithfulness.addsOrRemovesAsStated("Add mkstemp() for mingw build", removesCall)).isFalse();
        assertThat(Faithfulness.addsOrRemovesAsStated("Added mkstemp() for mingw build", removesCall)).isFalse();
        assertThat(Faithfulness.addsOrRemovesAsStated("Remove unused mkstemp()", removesCall)).isTrue();
        assertThat(Faithfulness.addsOrRemovesAsStated("Drop mkstemp()", removesCall)).isTrue();

        String addsSkip = "diff --git a/test/t.c b/test/t.c\n--- a/test/t.c\n+++ b/test/t.c\n@@ -1,1 +1,2 @@\n"
                + " TEST_IMPL(udp) {\n+  RETURN_SKIP(\"qemu\");\n";
        assertThat(Faithfulness.addsOrRemovesAsStated("remove erroneous RETURN_SKIP", addsSkip)).isFalse();
        assertThat(Faithfulness.addsOrRemovesAsStated("Add RETURN_SKIP under qemu", addsSkip)).isTrue();

        String bothSides = "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -1,1 +1,1 @@\n-old_name(x);\n+old_name(y);\n";
        assertThat(Faithfulness.addsOrRemovesAsStated("Add old_name() argument", bothSides))
                .as("a name on both sides: the diff changes it, either verb may say so").isTrue();
        assertThat(Faithfulness.addsOrRemovesAsStated("Remove unnecessary parentheses", removesCall))
                .as("prose words are not judged").isTrue();
        assertThat(Faithfulness.addsOrRemovesAsStated("Fix mkstemp() on mingw", removesCall)).isTrue();
    }

    @Test
    void aFileTheDiffDeletesIsRemovedWhateverItsLinesSay() {
        String deletes = "diff --git a/docs/.DS_Store b/docs/.DS_Store\ndeleted file mode 100644\n"
                + "Binary files differ\ndiff --git a/.gitignore b/.gitignore\n--- a/.gitignore\n+++ b/.gitignore\n"
                + "@@ -1,1 +1,2 @@\n node_modules\n+.DS_Store\n";
        assertThat(Faithfulness.addsOrRemovesAsStated("Delete .DS_Store", deletes)).isTrue();
        String creates = "diff --git a/docs/Kinsta.md b/docs/Kinsta.md\nnew file mode 100644\n--- /dev/null\n"
                + "+++ b/docs/Kinsta.md\n@@ -0,0 +1,1 @@\n+# Deploy\n";
        assertThat(Faithfulness.addsOrRemovesAsStated("Remove Kinsta.md", creates)).isFalse();
        assertThat(Faithfulness.addsOrRemovesAsStated("Add Kinsta.md", creates)).isTrue();
    }
}
