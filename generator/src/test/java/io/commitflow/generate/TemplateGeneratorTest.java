package io.commitflow.generate;

import io.commitflow.event.TestEvents;
import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TemplateGeneratorTest {
    private final TemplateGenerator generator = new TemplateGenerator();

    private static FileChange add(String path, int lines) {
        return new FileChange("ADD", "", path, false, lines, 0, 0, "", "100644");
    }

    private static FileChange modify(String path, int added, int deleted) {
        return new FileChange("MODIFY", path, path, false, added, deleted, 0, "100644", "100644");
    }

    private static Draft draft(List<FileChange> files) {
        return new TemplateGenerator().generate(DiffedCommit.of(TestEvents.commit("r", "a".repeat(40)), files,
                files.size(), "", "", "mirror", null));
    }

    @Test
    void namesAddedSourceFilesByClass() {
        Draft d = draft(List.of(add("operators/src/main/java/x/CommitDiffer.java", 80),
                add("operators/src/main/java/x/DiffCommits.java", 60)));

        assertThat(d.subject()).isEqualTo("Add CommitDiffer and DiffCommits");
        assertThat(d.type()).isEqualTo("feat");
        assertThat(d.scope()).isEqualTo("operators");
    }

    @Test
    void namesATypeScriptDeclarationFileWhole() {
        assertThat(TemplateGenerator.displayName("types/index.d.ts")).isEqualTo("index.d.ts");
        assertThat(TemplateGenerator.displayName("src/index.ts")).isEqualTo("index");
    }

    @Test
    void describesRenameAndMove() {
        assertThat(draft(List.of(new FileChange("RENAME", "a/Old.java", "a/New.java", false, 0, 0, 100, "100644", "100644"))).subject())
                .isEqualTo("Rename Old.java to New.java");
        assertThat(draft(List.of(new FileChange("RENAME", "a/Same.java", "b/Same.java", false, 0, 0, 100, "100644", "100644"))).subject())
                .isEqualTo("Move Same.java from a to b");
    }

    @Test
    void infersTypeFromPaths() {
        assertThat(draft(List.of(modify("README.md", 3, 1))).type()).isEqualTo("docs");
        assertThat(draft(List.of(modify("pom.xml", 3, 1))).type()).isEqualTo("build");
        assertThat(draft(List.of(modify("src/test/java/FooTest.java", 3, 1))).type()).isEqualTo("test");
        assertThat(draft(List.of(modify(".github/workflows/ci.yml", 3, 1))).type()).isEqualTo("ci");
        assertThat(draft(List.of(modify("src/Foo.java", 3, 1))).type()).isEqualTo("fix");
        assertThat(draft(List.of(modify("docs/latest.md", 1, 1))).type()).as("latest.md is no test").isEqualTo("docs");
    }

    @Test
    void summarisesManyFilesByTheirCommonDirectory() {
        List<FileChange> files = List.of(modify("gpu/src/a/A.java", 1, 1), modify("gpu/src/a/B.java", 1, 1),
                modify("gpu/src/b/C.java", 1, 1), modify("gpu/src/b/D.java", 1, 1));

        Draft d = draft(files);

        assertThat(d.subject()).isEqualTo("Update 4 files in gpu/src");
        assertThat(d.scope()).isEqualTo("gpu");
    }

    @Test
    void manyFilesAtTheTopAreLedByTheMainFile() {
        // a first commit: "Add 5 files" alone is too short, and "Add 5 files in pom.xml" would put all five in one
        List<FileChange> files = List.of(add("README.md", 40), add("pom.xml", 120), add("a/A.java", 10),
                add("b/B.java", 10), add(".gitignore", 2));

        assertThat(draft(files).subject()).isEqualTo("Add pom.xml and 4 more files");
        assertThat(draft(files.subList(0, 4)).subject()).isEqualTo("Add pom.xml and 3 more files");
    }

    @Test
    void keepsSubjectWithinSeventyTwoCharacters() {
        String longName = "x/" + "VeryLongClassName".repeat(6) + ".java";
        Draft d = draft(List.of(modify(longName, 1, 1)));

        assertThat(d.subject()).hasSizeBetween(20, 72).isEqualTo("Update 1 file in x in this repository");
    }

    @Test
    void isDeterministic() {
        List<FileChange> files = List.of(modify("x/Y.java", 10, 2), add("x/Z.java", 5));
        assertThat(draft(files)).isEqualTo(draft(files));
    }

    @Test
    void mentionsTruncationInBody() {
        Draft d = generator.generate(DiffedCommit.of(TestEvents.commit("r", "a".repeat(40)), List.of(modify("a.c", 1, 1)),
                400, "", "files 400>300", "mirror", null));

        assertThat(d.body()).contains("files 400>300");
    }
}
