package io.commitflow.generate;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.TestEvents;
import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Where nearly every subject starts with an area, every suggestion has one: the area the history gives its paths. */
class AreaAlwaysTest {
    private static DiffedCommit change(int i, String path, String method, String message) {
        CommitEvent c = TestEvents.withMessage(TestEvents.commit("r", String.format("%040x", i)), message);
        String patch = "diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path + "\n@@ -1,3 +1,3 @@\n"
                + " impl Chan {\n-    fn " + method + "(&self) {}\n+    fn " + method + "(&self, n: usize) { self.wake(n) }\n }\n";
        return DiffedCommit.of(c, List.of(new FileChange("MODIFY", path, path, false, 1, 1, 0, "100644", "100644")), 1,
                patch, "", "mirror", null);
    }

    /** A history whose subjects name the area of their folder: {@code sync} for tokio/src/sync, {@code rt} for runtime. */
    private static void learnHistory(Rules r, int n, double withArea) {
        for (int i = 0; i < n; i++) {
            boolean sync = i % 2 == 0;
            String path = sync ? "tokio/src/sync/mpsc/chan" + i + ".rs" : "tokio/src/runtime/task/core" + i + ".rs";
            String description = (sync ? "fix a missed wakeup in send " : "avoid a lost task in poll ") + i;
            boolean area = i < n * withArea;
            r.learn(change(i, path, "m" + i, (area ? (sync ? "sync: " : "rt: ") : "") + description + "\n"));
        }
    }

    @Test
    void anAreaAlwaysWrittenIsTheOneThePathsHave() {
        try (Rules r = new Rules()) {
            learnHistory(r, 40, 1.0);
            Conventions c = r.memory.model().style.conventions();
            assertThat(c.areaAlways()).isTrue();
            assertThat(c.areaOfFolders(List.of("tokio", "src", "runtime", "task"))).isEqualTo("rt");
            assertThat(c.areaOfFolders(List.of("tokio", "src", "sync", "mpsc"))).isEqualTo("sync");

            DiffedCommit d = change(1000, "tokio/src/runtime/task/harness.rs", "poll_inner", null);
            Draft draft = r.generator.generate(d, DiffFeatures.of(d), r.memory, r.memory.vector(DiffFeatures.of(d).terms()));
            assertThat(Subject.parse(draft.subject()).area()).isEqualTo("rt");
            // the exemplar's own area is a neighbour's; the paths decide
            Subject fromSync = StyleApplier.styled(Subject.parse("sync: avoid a lost task in poll"), List.of(), List.of(),
                    c, List.of("harness.rs"), List.of("harness.rs"), "", null, "rt");
            assertThat(fromSync.area()).isEqualTo("rt");
            Subject mentioned = StyleApplier.styled(Subject.parse("make rt reusable"), List.of(), List.of(),
                    c, List.of("harness.rs"), List.of("harness.rs"), "", null, "rt");
            assertThat(mentioned.area()).as("kept where the description names it too").isEqualTo("rt");
        }
    }

    @Test
    void aFormItsNeighboursWroteBareStaysBareWithItsOwnCase() {
        try (Rules r = new Rules()) {
            learnHistory(r, 40, 1.0);
            Conventions c = r.memory.model().style.conventions();
            assertThat(c.areaAlways()).isTrue();
            List<RepoKnowledge.Neighbor> versions = List.of(neighbour("Now working on version 1.4.1", 0.9f),
                    neighbour("Now working on version 1.3.2", 0.8f), neighbour("rt: avoid a lost task in poll", 0.5f));
            Subject bump = StyleApplier.styled(Subject.parse("Now working on version 1.4.2"), versions,
                    RepoKnowledge.subjects(versions), c, List.of("version"), List.of("version"), "", null, "rt");
            assertThat(bump.render()).as("one of the few forms the history writes without an area")
                    .isEqualTo("Now working on version 1.4.2");
            List<RepoKnowledge.Neighbor> areas = List.of(neighbour("rt: avoid a lost task in poll", 0.9f),
                    neighbour("Now working on version 1.4.1", 0.5f));
            Subject fix = StyleApplier.styled(Subject.parse("Fix the version check"), areas,
                    RepoKnowledge.subjects(areas), c, List.of("version"), List.of("version"), "", null, "rt");
            assertThat(fix.render()).as("the neighbours write areas: the paths' area, in its case")
                    .isEqualTo("rt: fix the version check");
        }
    }

    @Test
    void anAreaThatIsAPathKeepsTheFolderTheDiffSupports() {
        String workflow = "diff --git a/.github/workflows/build.yml b/.github/workflows/build.yml\n"
                + "--- a/.github/workflows/build.yml\n+++ b/.github/workflows/build.yml\n@@ -1,2 +1,2 @@\n"
                + "-      run: brew install ffmpeg\n+      run: brew install --quiet ffmpeg\n";
        assertThat(StyleApplier.withoutUnsupportedArea(Subject.parse("ci/win32: silence reinstall warnings"), workflow)
                .render()).as("win32 is nowhere in the diff; its folder is a word").isEqualTo("ci: silence reinstall warnings");
        assertThat(StyleApplier.withoutUnsupportedArea(Subject.parse("vf_d3d11vpp: silence reinstall warnings"), workflow)
                .render()).as("no folder to keep").isEqualTo("silence reinstall warnings");
        assertThat(StyleApplier.withoutUnsupportedArea(Subject.parse("ci/build: silence reinstall warnings"), workflow)
                .render()).as("supported whole").isEqualTo("ci/build: silence reinstall warnings");
    }

    private static RepoKnowledge.Neighbor neighbour(String subject, float score) {
        return new RepoKnowledge.Neighbor(new IndexedCommit(0, "a".repeat(40), subject, List.of("version"), new int[0],
                new float[0], new int[0], 0, 0, 0, null, false, ""), score);
    }

    @Test
    void aHistoryThatTookToAreasWritesThemAlwaysFromItsRecentSubjects() {
        RepoStyle style = new RepoStyle();
        List<String> folders = List.of("crates", "globset");
        for (int i = 0; i < 650; i++) {
            style.learn(Subject.parse("Fix a glob that missed dotfiles " + i), List.of("lib.rs"), null, folders);
        }
        for (int i = 0; i < 300; i++) {
            style.learn(Subject.parse((i % 10 == 0 ? "" : "globset: ") + "fix a glob " + i), List.of("lib.rs"), null,
                    folders);
        }
        Conventions c = style.conventions();
        assertThat(c.areaAlways()).as("28% of the whole history, 90% of the last three hundred").isTrue();
        assertThat(c.areaOfFolders(folders)).isEqualTo("globset");
    }

    @Test
    void anAreaRenamedIsWrittenWithItsNewNameOnceTheNewOneLeadsOfLate() {
        RepoStyle style = new RepoStyle();
        List<String> folders = List.of("tokio", "src", "runtime");
        for (int i = 0; i < 300; i++) {
            style.learn(Subject.parse("rt: avoid a lost task in poll " + i), List.of("core.rs"), null, folders);
        }
        assertThat(style.conventions().areaOfFolders(folders)).isEqualTo("rt");
        for (int i = 0; i < 250; i++) {
            style.learn(Subject.parse("runtime: avoid a lost task in poll " + i), List.of("core.rs"), null, folders);
        }
        assertThat(style.conventions().areaOfFolders(folders)).as("250 of 550 in all, most of the last 256")
                .isEqualTo("runtime");
    }

    @Test
    void aFolderWhoseFilesAreTheirOwnAreasGivesTheChangedFilesName() {
        RepoStyle style = new RepoStyle();
        String[] sources = {"mime", "ftp", "http", "url", "cookie"};
        for (int i = 0; i < 40; i++) {
            String file = sources[i % sources.length];
            style.learn(Subject.parse(file + ": fix a leak " + i), List.of(file, "Makefile"), null, List.of("lib"));
            String option = "CURLOPT_X" + i;
            style.learn(Subject.parse(option + ".md: clarify " + i), List.of(option), null,
                    List.of("docs", "libcurl", "opts"));
        }
        Conventions c = style.conventions();
        assertThat(c.areaAlways()).isTrue();
        assertThat(c.areaOfPath("lib/sendf.c")).as("a file of the folder never named before").isEqualTo("sendf");
        assertThat(c.areaOfPath("docs/libcurl/opts/CURLOPT_SHARE.md")).as("the whole name")
                .isEqualTo("CURLOPT_SHARE.md");
        assertThat(c.areaOfPath("src/tool_main.c")).as("a folder the history gave no area").isNull();

        assertThat(Conventions.asFolderArea("mime", List.of("mime", "Makefile"))).isEqualTo(Conventions.FILE_AREA);
        assertThat(Conventions.asFolderArea("mime.c", List.of("mime"))).isEqualTo(Conventions.NAME_AREA);
        assertThat(Conventions.asFolderArea("mime", List.of("Makefile", "mime"))).as("not the main file's")
                .isEqualTo("mime");
        assertThat(Conventions.asFolderArea("tls", List.of())).isEqualTo("tls");
    }

    @Test
    void aFileTheHistoryGaveAnAreaOfItsOwnKeepsIt() {
        RepoStyle style = new RepoStyle();
        String[] outputs = {"vo_gpu", "vo_drm", "vo_sixel", "vo_tct"};
        for (int i = 0; i < 40; i++) {
            String vo = outputs[i % outputs.length];
            style.learn(Subject.parse(vo + ": fix a leak " + i), List.of(vo), null, List.of("video", "out"),
                    "video/out/" + vo + ".c");
            if (i % 4 == 0) {
                style.learn(Subject.parse("wayland: handle a lost seat " + i), List.of("wayland_common"), null,
                        List.of("video", "out"), "video/out/wayland_common.c");
            }
            style.learn(Subject.parse("options/m_property: check the type " + i), List.of("m_property"), null,
                    List.of("options"), "options/m_property.c");
            style.learn(Subject.parse("vendor: bump a crate " + i), List.of("Cargo"), null, List.of(), "Cargo.toml");
        }
        Conventions c = style.conventions();
        assertThat(c.areaAlways()).isTrue();
        assertThat(c.areaOfPath("video/out/wayland_common.c")).as("the file's own area").isEqualTo("wayland");
        assertThat(c.areaOfPath("video/out/vo_kitty.c")).as("its folder's other files are their own areas")
                .isEqualTo("vo_kitty");
        assertThat(c.areaOfPath("options/m_property.c")).isEqualTo("options/m_property");
        assertThat(c.areaOfPath("Cargo.toml")).as("vendor names no file: what the change was for, not whose file").isNull();

        assertThat(Conventions.namesFile("wayland", "video/out/wayland_common.c")).isTrue();
        assertThat(Conventions.namesFile("osc.lua", "player/lua/osc.lua")).isTrue();
        assertThat(Conventions.namesFile("player/command", "player/command.c")).isTrue();
        assertThat(Conventions.namesFile("way", "video/out/wayland_common.c")).as("not at a word's end").isFalse();
        assertThat(Conventions.namesFile("cargo", "Cargo.toml")).as("case counts").isFalse();
        assertThat(Conventions.namesFile("wayland", "video/out/")).isFalse();
    }

    @Test
    void aChangedFileANeighbourWroteAsItsAreaIsTheArea() {
        List<Subject> subjects = List.of(Subject.parse("ftp: fix a leak"), Subject.parse("mime: encode names"));
        assertThat(StyleApplier.namedByNeighbours(List.of("mime", "test1560"), subjects)).isEqualTo("mime");
        assertThat(StyleApplier.namedByNeighbours(List.of("urlapi"), subjects)).isNull();
    }

    @Test
    void aHistoryWhereAreasAreCommonButNotNearlyAlwaysKeepsItsVote() {
        try (Rules r = new Rules()) {
            learnHistory(r, 40, 0.5);
            Conventions c = r.memory.model().style.conventions();
            assertThat(c.usesArea()).isTrue();
            assertThat(c.areaAlways()).isFalse();
            assertThat(c.areaOfFolders(List.of("tokio", "src", "runtime"))).isNull();
            Subject mentioned = StyleApplier.styled(Subject.parse("make rt reusable"), List.of(), List.of(),
                    c, List.of("harness.rs"), List.of("harness.rs"), "", null, null);
            assertThat(mentioned.area()).isEmpty();
        }
    }

    @Test
    void aBareTypeCountsAsAnAreaWhereTheHistoryIsNotConventional() {
        // tokio: "sync: …" and "rt: …", with "ci: …" and "docs: …" among them, which read as conventional types
        try (Rules r = new Rules()) {
            for (int i = 0; i < 40; i++) {
                boolean sync = i % 2 == 0;
                String path = sync ? "tokio/src/sync/mpsc/chan" + i + ".rs" : "tokio/src/runtime/task/core" + i + ".rs";
                String prefix = i % 5 == 0 ? (sync ? "ci: " : "docs: ") : sync ? "sync: " : "rt: ";
                r.learn(change(i, path, "m" + i, prefix + "fix a missed wakeup " + i + "\n"));
            }
            Conventions c = r.memory.model().style.conventions();
            assertThat(c.usesConventional()).isFalse();
            assertThat(c.areaAlways()).as("80% areas and 20% bare types").isTrue();
            assertThat(c.areaOfFolders(List.of("tokio", "src", "sync", "mpsc"))).as("a type is no folder's area")
                    .isEqualTo("sync");
            Subject ci = StyleApplier.styled(Subject.parse("ci: run the tests under miri"), List.of(), List.of(),
                    c, List.of(".github/workflows/ci.yml"), List.of(), "", null, null);
            assertThat(ci.render()).as("a bare type is the area where no path gives one").isEqualTo("ci: run the tests under miri");
        }
    }
}
