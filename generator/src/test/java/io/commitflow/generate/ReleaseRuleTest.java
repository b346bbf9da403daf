package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import org.junit.jupiter.api.Test;

import static io.commitflow.generate.ReleaseFormTest.cargo;
import static io.commitflow.generate.ReleaseFormTest.npm;
import static org.assertj.core.api.Assertions.assertThat;

/** The release rule: a history's release form learned and written with this diff's version and package. */
class ReleaseRuleTest {
    @Test
    void aHistoryThatWordsItsReleasesOneWayHasThemWrittenSo() {
        try (Rules r = new Rules()) {
            DiffedCommit release = Rules.withPatch(TestDiffs.change("r", "f".repeat(40), "Widget", "run", null, null),
                    cargo("anyhow", "1.0.9", "1.0.10"));
            assertThat(new ReleaseRule().write(r.composition(release))).as("no release learned yet").isNull();

            for (int i = 1; i <= 3; i++) {
                r.learn(Rules.withPatch(TestDiffs.change("r", String.format("%040d", i), "Widget", "run",
                        "Release 1.0." + i + "\n", null), cargo("anyhow", "1.0." + (i - 1), "1.0." + i)));
                r.learn(TestDiffs.change("r", String.format("%040d", 100 + i), "Widget" + i, "run",
                        "Retry widget " + i + " when busy\n", null));
            }

            SubjectRule.Written w = new ReleaseRule().write(r.composition(release));
            assertThat(w.subject().render()).as("the form, as short as the history's own releases (half its subjects)")
                    .isEqualTo("Release 1.0.10");
            assertThat(r.generator.generate(release, DiffFeatures.of(release), r.memory,
                    r.memory.vector(DiffFeatures.of(release).terms())).subject()).isEqualTo("Release 1.0.10");
            DiffedCommit change = TestDiffs.change("r", "e".repeat(40), "Widget", "stop", null, null);
            assertThat(new ReleaseRule().write(r.composition(change))).as("not a release").isNull();
        }
    }

    @Test
    void aHistoryThatWritesShortSubjectsKeepsItsShortForm() {
        assertThat(ReleaseRule.completed("0.2", "ky", SubjectLength.SHORT_FLOOR)).isEqualTo("0.2 of ky");
    }

    @Test
    void aFormTooShortIsCompletedInTheFewestWords() {
        assertThat(ReleaseRule.completed("Release 1.0.104", "anyhow", SubjectLength.MIN)).isEqualTo("Release 1.0.104 of anyhow");
        assertThat(ReleaseRule.completed("0.26.0", "ky", SubjectLength.MIN)).as("a bare version says what it is")
                .isEqualTo("Release 0.26.0 of ky");
        assertThat(ReleaseRule.completed("1.0.0", "ky", SubjectLength.MIN)).as("the shortest that reaches 20 characters")
                .isEqualTo("Release version 1.0.0");
        assertThat(ReleaseRule.completed("v2.3.4", "@scope/pkg", SubjectLength.MIN)).as("a name that is no plain word is not written")
                .isEqualTo("Release version v2.3.4");
        assertThat(ReleaseRule.completed("Release 1.0.104", "@scope/pkg", SubjectLength.MIN)).as("nothing reaches it: left to SubjectLength")
                .isEqualTo("Release 1.0.104");
        for (String s : new String[] {"Release 0.26.0 of ky", "Release version 1.0.0", "Release version v2.3.4"}) {
            assertThat(s.length()).isBetween(SubjectLength.MIN, SubjectLength.MAX);
        }
    }

    @Test
    void aFormThatDoesNotNameItsPackageIsThatPackagesOnly() {
        // a monorepo: the main package releases as "release: v5.0.1", its plugin as "release: plugin-legacy@8.2.0"
        try (Rules r = new Rules()) {
            for (int i = 1; i <= 3; i++) {
                r.learn(Rules.withPatch(TestDiffs.change("r", String.format("%040d", i), "Widget", "run",
                        "release: v5.0." + i + "\n", null), npm("vite", "5.0." + (i - 1), "5.0." + i)));
                r.learn(TestDiffs.change("r", String.format("%040d", 100 + i), "Widget" + i, "run",
                        "fix: retry widget " + i + " when busy\n", null));
            }
            r.learn(Rules.withPatch(TestDiffs.change("r", String.format("%040d", 50), "Widget", "run",
                    "release: plugin-legacy@8.1.9\n", null), npm("@vitejs/plugin-legacy", "8.1.8", "8.1.9")));
            DiffedCommit own = Rules.withPatch(TestDiffs.change("r", "f".repeat(40), "Widget", "run", null, null),
                    npm("vite", "5.0.3", "5.0.4"));
            assertThat(new ReleaseRule().write(r.composition(own)).subject().render()).startsWith("release: v5.0.4");
            DiffedCommit plugin = Rules.withPatch(TestDiffs.change("r", "e".repeat(40), "Widget", "run", null, null),
                    npm("@vitejs/plugin-legacy", "8.1.9", "8.2.0"));
            assertThat(new ReleaseRule().write(r.composition(plugin))).as("another package's release: not in vite's form")
                    .isNull();
        }
        ReleaseForm plugin = new ReleaseForm("8.2.0", "@vitejs/plugin-legacy");
        assertThat(plugin.fill("release: v{version}" + ReleaseForm.PACKAGE + "vite")).isNull();
        assertThat(plugin.fill("release: v{version}" + ReleaseForm.PACKAGE + "@vitejs/plugin-legacy"))
                .isEqualTo("release: v8.2.0");
        assertThat(plugin.fill("release: v{version}")).as("a form learned before packages were kept").isEqualTo("release: v8.2.0");
    }
}
