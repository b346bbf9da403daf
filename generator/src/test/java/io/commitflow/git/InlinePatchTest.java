package io.commitflow.git;

import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Reason;
import io.commitflow.event.TestEvents;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InlinePatchTest {
    private static final String SHA = "d".repeat(40);
    private final InlinePatch inline = new InlinePatch(DiffBudget.DEFAULT);

    private static final String PATCH = """
            diff --git a/src/App.java b/src/App.java
            index 3b18e51..a0b2c3d 100644
            --- a/src/App.java
            +++ b/src/App.java
            @@ -1,3 +1,4 @@
             class App {
            -  int x;
            +  int x = 1;
            +  int y;
             }
            diff --git a/old.txt b/new.txt
            similarity index 100%
            rename from old.txt
            rename to new.txt
            diff --git a/img.png b/img.png
            new file mode 100644
            index 0000000..e69de29
            Binary files /dev/null and b/img.png differ
            """;

    @Test
    void readsFilesAndCountsFromGitPatch() throws Exception {
        DiffedCommit d = inline.parse(TestEvents.withPatch(TestEvents.commit("r", SHA), PATCH));

        assertThat(d.files()).extracting(FileChange::change).containsExactly("MODIFY", "RENAME", "ADD");
        assertThat(d.files().get(0)).satisfies(f -> {
            assertThat(f.path()).isEqualTo("src/App.java");
            assertThat(f.added()).isEqualTo(2);
            assertThat(f.deleted()).isEqualTo(1);
        });
        assertThat(d.files().get(1)).satisfies(f -> {
            assertThat(f.oldPath()).isEqualTo("old.txt");
            assertThat(f.newPath()).isEqualTo("new.txt");
        });
        assertThat(d.files().get(2).binary()).isTrue();
        assertThat(d.source()).isEqualTo("inline");
        assertThat(d.patch()).isEqualTo(PATCH);
    }

    @Test
    void rejectsTextThatChangesNoFile() {
        assertThatThrownBy(() -> inline.parse(TestEvents.withPatch(TestEvents.commit("r", SHA), "hello world\n")))
                .isInstanceOf(InvalidEventException.class)
                .satisfies(e -> assertThat(((InvalidEventException) e).reason()).isEqualTo(Reason.BAD_PATCH));
    }

    @Test
    void rejectsTruncatedHunk() {
        String broken = """
                diff --git a/f b/f
                --- a/f
                +++ b/f
                @@ -1,5 +1,5 @@
                -x
                """;
        assertThatThrownBy(() -> inline.parse(TestEvents.withPatch(TestEvents.commit("r", SHA), broken)))
                .isInstanceOf(InvalidEventException.class)
                .satisfies(e -> assertThat(((InvalidEventException) e).reason()).isEqualTo(Reason.BAD_PATCH));
    }

    @Test
    void refusesABareHeaderWithNothingAfterIt() {
        assertThatThrownBy(() -> inline.parse(TestEvents.withPatch(TestEvents.commit("r", SHA),
                "diff --git a/x b/x\n@@ garbage @@\n")))
                .isInstanceOfSatisfying(InvalidEventException.class, e -> assertThat(e.reason()).isEqualTo(Reason.BAD_PATCH))
                .hasMessageContaining("changes no file");
    }
}
