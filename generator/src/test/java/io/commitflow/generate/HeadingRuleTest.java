package io.commitflow.generate;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.TestEvents;
import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The heading rule: a release titled with the change-log heading it adds, where the history titles releases so. */
class HeadingRuleTest {
    /** A release of version 1.{@code minor}.0 that opens the ChangeLog's new section and sets the version header. */
    private static DiffedCommit release(int minor, String message) {
        CommitEvent c = TestEvents.withMessage(TestEvents.commit("r", String.format("%040x", 0xfee000 + minor)), message);
        String heading = String.format("2026.%02d.%02d, Version 1.%d.0 (Stable)", 1 + minor % 12, 1 + minor, minor);
        String patch = "diff --git a/ChangeLog b/ChangeLog\n--- a/ChangeLog\n+++ b/ChangeLog\n@@ -1,3 +1,8 @@\n"
                + "+" + heading + "\n+\n+Changes since version 1." + (minor - 1) + ".0:\n+\n"
                + "+* unix: fix a leak in the loop (A. Author)\n+\n"
                + " 2025.12.01, Version 1." + (minor - 1) + ".0 (Stable)\n"
                + "diff --git a/include/widget/version.h b/include/widget/version.h\n--- a/include/widget/version.h\n"
                + "+++ b/include/widget/version.h\n@@ -1,2 +1,2 @@\n-#define WIDGET_VERSION_MINOR " + (minor - 1)
                + "\n+#define WIDGET_VERSION_MINOR " + minor + "\n";
        return DiffedCommit.of(c, List.of(
                new FileChange("MODIFY", "ChangeLog", "ChangeLog", false, 5, 0, 0, "100644", "100644"),
                new FileChange("MODIFY", "include/widget/version.h", "include/widget/version.h", false, 1, 1, 0,
                        "100644", "100644")), 2, patch, "", "mirror", null);
    }

    private static String headingOf(int minor) {
        return String.format("2026.%02d.%02d, Version 1.%d.0 (Stable)", 1 + minor % 12, 1 + minor, minor);
    }

    @Test
    void aReleaseIsTitledWithTheHeadingItAddsWhereItsNeighboursWereSoTitled() {
        try (Rules r = new Rules()) {
            DiffedCommit next = release(9, null);
            assertThat(new HeadingRule().write(r.composition(next))).as("no release learned yet").isNull();
            for (int minor = 2; minor <= 4; minor++) {
                r.learn(release(minor, headingOf(minor) + "\n"));
                r.learn(TestDiffs.change("r", String.format("%040d", minor), "Widget" + minor, "run",
                        "unix: retry widget " + minor + " when busy\n", null));
            }
            SubjectRule.Written w = new HeadingRule().write(r.composition(next));
            assertThat(w).isNotNull();
            assertThat(w.whole().subject()).as("this diff's own date and version").isEqualTo(headingOf(9));
            DiffFeatures f = DiffFeatures.of(next);
            assertThat(r.generator.generate(next, f, r.memory, r.memory.vector(f.terms())).subject())
                    .isEqualTo(headingOf(9));
        }
    }

    @Test
    void aChangeThatAlsoOpensTheNextSectionIsNoRelease() {
        try (Rules r = new Rules()) {
            for (int minor = 2; minor <= 4; minor++) {
                r.learn(release(minor, headingOf(minor) + "\n"));
            }
            for (int i = 0; i < 4; i++) {
                r.learn(TestDiffs.change("r", String.format("%040d", i), "Loop", "run" + i,
                        "unix: retry the loop " + i + " when busy\n", null));
            }
            // a change of the loop that also opens the next version's section of the change log: its nearest
            // neighbours are the loop's changes, not the releases
            DiffedCommit loop = TestDiffs.change("r", "e".repeat(40), "Loop", "run9", null, null);
            String opened = "diff --git a/ChangeLog b/ChangeLog\n--- a/ChangeLog\n+++ b/ChangeLog\n@@ -1,1 +1,3 @@\n+"
                    + headingOf(9) + "\n+\n " + headingOf(4) + "\n";
            DiffedCommit both = Rules.withPatch(loop, loop.patch() + opened);
            assertThat(Changelog.heading(both.patch())).isEqualTo(headingOf(9));
            assertThat(new HeadingRule().write(r.composition(both))).isNull();
        }
    }

    @Test
    void aHistoryThatTitlesItsReleasesOtherwiseKeepsItsForm() {
        try (Rules r = new Rules()) {
            for (int minor = 2; minor <= 4; minor++) {
                r.learn(release(minor, "chore: release 1." + minor + ".0\n"));
            }
            assertThat(new HeadingRule().write(r.composition(release(9, null)))).isNull();
        }
    }

    @Test
    void theHeadingIsTheFirstLineAddedToAChangeLogWhenItNamesAVersion() {
        String markdown = "diff --git a/CHANGELOG.md b/CHANGELOG.md\n--- a/CHANGELOG.md\n+++ b/CHANGELOG.md\n"
                + "@@ -1,2 +1,5 @@\n # Changelog\n+\n+## 2.1.0\n+\n+- Add retries\n";
        assertThat(Changelog.heading(markdown)).as("its markup aside").isEqualTo("2.1.0");
        String entryFirst = "diff --git a/CHANGELOG.md b/CHANGELOG.md\n--- a/CHANGELOG.md\n+++ b/CHANGELOG.md\n"
                + "@@ -3,2 +3,3 @@\n ## 2.1.0\n+- Add retries in 2.1\n";
        assertThat(Changelog.heading(entryFirst)).as("an entry added under an existing heading").isNull();
        String unversioned = "diff --git a/NEWS b/NEWS\n--- a/NEWS\n+++ b/NEWS\n@@ -1,1 +1,2 @@\n+Unreleased\n";
        assertThat(Changelog.heading(unversioned)).isNull();
        String source = "diff --git a/src/a.c b/src/a.c\n--- a/src/a.c\n+++ b/src/a.c\n@@ -1,1 +1,1 @@\n+v 1.2\n";
        assertThat(Changelog.heading(source)).as("no change log").isNull();
        assertThat(HeadingRule.shape("2026.03.06, Version 1.52.1 (Stable)"))
                .isEqualTo(HeadingRule.shape("2024.9.25, version 1.49.0 (Stable)."));
    }
}
