package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ChangelogTest {
    private static String patch(String path, String... added) {
        StringBuilder p = new StringBuilder("diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path
                + "\n@@ -1,2 +1,3 @@\n   <body>\n");
        for (String a : added) {
            p.append('+').append(a).append('\n');
        }
        return p.toString();
    }

    @Test
    void readsTheOneEntryAChangeLogGains() {
        assertThat(Changelog.entry(patch("src/changes/changes.xml",
                "    <action type=\"add\" dev=\"ggregory\" due-to=\"Gary Gregory\">Add IntegerRange.fit(int).</action>")))
                .isEqualTo("Add IntegerRange.fit(int)");
        assertThat(Changelog.entry(patch("src/changes/changes.xml",
                "<action issue=\"LANG-1\" type=\"fix\">Fix &lt;T&gt; bounds in <code>Pair</code> #1234.</action>")))
                .isEqualTo("Fix <T> bounds in Pair");
        assertThat(Changelog.entry(patch("CHANGELOG.md",
                "- Fix the [progress meter](https://x/y) when pushing (#11630)", "")))
                .isEqualTo("Fix the progress meter when pushing");
        assertThat(Changelog.entry(patch("docs/NEWS", "* Speed up packing of large repositories by @someone in #12")))
                .isEqualTo("Speed up packing of large repositories");
        assertThat(Changelog.entry(patch("CHANGELOG.md", "- Associate `.ron` files with rust syntax, see #2036 (@someone)")))
                .as("a pointer to its issue; code quotes kept").isEqualTo("Associate `.ron` files with rust syntax");
        assertThat(Changelog.entry(patch("CHANGELOG.md", "- `[jest-config]` Allow `.mts` configs")))
                .as("a tag in code quotes is a tag").isEqualTo("[jest-config] Allow `.mts` configs");
        assertThat(Changelog.entry(patch("CHANGELOG.md",
                "- Add support for $LESSOPEN and $LESSCLOSE. See #1597, #1739 and #2444 (@someone)")))
                .isEqualTo("Add support for $LESSOPEN and $LESSCLOSE");
        assertThat(Changelog.entry(patch("CHANGELOG.md", "- Let users see #-comments in the sample config")))
                .as("see, not as a pointer").isEqualTo("Let users see #-comments in the sample config");
    }

    /** A patch that creates {@code path} with {@code lines}. */
    private static String created(String path, String... lines) {
        StringBuilder p = new StringBuilder("diff --git a/" + path + " b/" + path + "\nnew file mode 100644\n--- /dev/null\n"
                + "+++ b/" + path + "\n@@ -0,0 +1," + lines.length + " @@\n");
        for (String l : lines) {
            p.append('+').append(l).append('\n');
        }
        return p.toString();
    }

    @Test
    void readsTheEntryOfANewChangeLogFragment() {
        String code = patch("lib/rubocop/cop/style/date_time.rb", "  def on_send(node)");
        assertThat(Changelog.entry(created("changelog/fix_false_positives_for_style_date_time_20260821.md",
                "* [#15590](https://github.com/rubocop/rubocop/issues/15590): Fix false positives for `Style/DateTime`."
                        + " ([@someone][])") + code))
                .as("an issue link before it, a reference-style credit after it")
                .isEqualTo("Fix false positives for `Style/DateTime`");
        assertThat(Changelog.entry(created(".changeset/brave-dogs-sing.md", "---", "'svelte': patch", "---", "",
                "fix: keep the store's value when it is set twice") + code))
                .as("a changeset, its front matter aside").isEqualTo("fix: keep the store's value when it is set twice");
        assertThat(Changelog.entry(created("newsfragments/1234.bugfix", "Fix decoding of empty bodies.") + code))
                .as("towncrier's type as the extension").isEqualTo("Fix decoding of empty bodies");
        assertThat(Changelog.entry(created("changelog/fix_a.md", "* Fix the first thing in the parser")
                + created("changelog/fix_b.md", "* Fix the second thing in the parser") + code))
                .as("two fragments: which one is the subject would be a guess").isNull();
        assertThat(Changelog.entry(patch("changelog/fix_a.md", "* Fix the first thing in the parser") + code))
                .as("a fragment edited, not created").isNull();
        assertThat(Changelog.entry(created("docs/changes/fix_a.md", "* Fix the first thing in the parser") + code))
                .as("a folder named so below the root").isNull();
        assertThat(Changelog.entry(created("changelog/Changelog.java", "* Fix the first thing in the parser")))
                .as("code in a package named so").isNull();
        assertThat(Changelog.isFragment("changelog/new_add_new_lint_cop_20260821.md")).isTrue();
        assertThat(Changelog.isFragment("b/changes/1234.feature.rst")).isTrue();
        assertThat(Changelog.isFragment(".changeset/README.md")).isFalse();
        assertThat(Changelog.isFragment(".changeset/config.json")).isFalse();
    }

    @Test
    void anEntryWrappedOverSeveralLinesIsReadWhole() {
        assertThat(Changelog.entry(patch("CHANGES.md",
                "- Fix bug where module docstrings would be treated as normal strings if preceded by",
                "  comments (#4764)", "- ")))
                .as("a bullet's indented continuation").isEqualTo(
                        "Fix bug where module docstrings would be treated as normal strings if preceded by comments");
        assertThat(Changelog.entry(patch("src/changes/changes.xml",
                "    <action type=\"fix\" dev=\"ggregory\">Fix the Javadoc of StringUtils.abbreviate",
                "      for a negative width.</action>")))
                .as("an action closed on a later line")
                .isEqualTo("Fix the Javadoc of StringUtils.abbreviate for a negative width");
        String code = patch("src/_pytest/python.py", "    pass");
        assertThat(Changelog.entry(created("changelog/1234.bugfix.rst",
                "Fixed a crash when using the cache class on Windows and the cache directory",
                "was created concurrently.", "", "Second paragraph, not the entry.") + code))
                .as("a fragment's first paragraph, to its blank line").isEqualTo("Fixed a crash when using the cache"
                        + " class on Windows and the cache directory was created concurrently");
        assertThat(Changelog.entry(patch("CHANGELOG.md", "- Fix the first thing in the parser",
                "  - and a nested item of its own")))
                .as("a nested bullet is an entry of its own: two, so none").isNull();
        assertThat(Changelog.added(patch("CHANGELOG.md", "* [BUG #3076](https://github.com/o/r/issues/3076):",
                "  Fix a bug with `-m/--max-count` and `-U/--multiline`.")))
                .as("a link on a line of its own, the kind of issue in capitals: the issue, and the entry after it")
                .isEqualTo(new Changelog.Entry("Fix a bug with `-m/--max-count` and `-U/--multiline`", "#3076"));
        assertThat(Changelog.entry(patch("CHANGELOG.md", "* [BUG #1332](https://github.com/o/r/issues/1332),",
                "  [BUG #3001](https://github.com/o/r/issues/3001):", "  Make `rg -vf file` behave sensibly.")))
                .as("several issues, one per line").isEqualTo("Make `rg -vf file` behave sensibly");
        assertThat(Changelog.entry(patch("CHANGELOG.md", "- Fix the first thing in the parser",
                "### Internal")))
                .as("an unindented line after it is no continuation").isEqualTo("Fix the first thing in the parser");
    }

    @Test
    void aLinkedIssueIsTheEntrysIssueAndATagNamesIt() {
        String code = patch("lib/a.rb", "  def a");
        assertThat(Changelog.added(created("changelog/fix_a.md",
                "* [#15073](https://github.com/o/r/issues/15073): Fix the first thing in the parser.") + code).issue())
                .isEqualTo("#15073");
        assertThat(Changelog.added(created("changelog/fix_a.md",
                "* [#15590](https://github.com/o/r/pull/15590): Fix the first thing in the parser.") + code).issue())
                .as("a pull request is no issue").isNull();
        assertThat(Changelog.namesIssue(Subject.parse("[Fix #15073] Fix the parser"), "#15073")).isTrue();
        assertThat(Changelog.namesIssue(Subject.parse("[Fix #150731] Fix the parser"), "#15073")).isFalse();
        assertThat(Changelog.namesIssue(Subject.parse("[LANG-1] Fix the parser"), "LANG-1")).isTrue();
        assertThat(Changelog.issueTag("#7", List.of(Subject.parse("Fix a"), Subject.parse("[Fix #3] Fix b"),
                Subject.parse("[Closes #4] Fix c"), Subject.parse("[Fix #5] Fix d")))).isEqualTo("Fix #7");
        assertThat(Changelog.issueTag("#7", List.of(Subject.parse("[docs] Fix a")))).isNull();
    }

    @Test
    void aSubjectSaysItsEntryWithOrWithoutCodeQuotes() {
        assertThat(Changelog.mirrors("Fix false positives for Style/DateTime", "Fix false positives for `Style/DateTime`"))
                .isTrue();
    }

    @Test
    void nothingWhenTheDiffAddsNoEntryOrSeveral() {
        assertThat(Changelog.entry(patch("src/Main.java", "- a bullet in code is no entry"))).isNull();
        assertThat(Changelog.entry(patch("CHANGELOG.md", "## 1.2.0", "- Fix the meter when pushing",
                "- Add a flag for quiet runs"))).as("which one would be a guess").isNull();
        assertThat(Changelog.entry(patch("CHANGELOG.md", "## 1.2.0", "- 1.2.0"))).as("no sentence").isNull();
        assertThat(Changelog.entry("")).isNull();
    }

    @Test
    void anEntryKeepsTheTagsItOpensWithAndDropsANumberlessTicket() {
        // commons-lang writes "[javadoc] …" and "[test] Bump …" in changes.xml as in the subject
        assertThat(Changelog.entry(patch("src/changes/changes.xml", "<action type=\"fix\" dev=\"ggregory\">[javadoc] Fix "
                + "typo in Javadoc of Strings instances #1406.</action>")))
                .isEqualTo("[javadoc] Fix typo in Javadoc of Strings instances");
        assertThat(Changelog.entry(patch("src/changes/changes.xml", "<action issue=\"LANG-1819\" type=\"fix\">[LANG-] "
                + "Javadoc ArrayUtils.removeAll() null input behavior #1614.</action>")))
                .as("a ticket without its number says none").isEqualTo("Javadoc ArrayUtils.removeAll() null input behavior");
        assertThat(Changelog.entry(patch("CHANGELOG.md", "- [x] 1.2.0"))).as("tags before no sentence").isNull();
    }

    @Test
    void anEntryRemovedAndAddedAgainIsNoNewEntry() {
        String retagged = "diff --git a/src/changes/changes.xml b/src/changes/changes.xml\n--- a/src/changes/changes.xml\n"
                + "+++ b/src/changes/changes.xml\n@@ -1,2 +1,3 @@\n"
                + "-    <action type=\"fix\" due-to=\"Someone\">[javadoc] Fix incorrect class names in RegExUtils Javadoc #1564.</action>\n"
                + "+    <action issue=\"LANG-1806\" type=\"fix\" due-to=\"Someone\">[javadoc] Fix incorrect class names in RegExUtils Javadoc #1564.</action>\n"
                + "+    <action type=\"fix\">NumberUtils.isParsable(\"1.f\") should return true #1560.</action>\n";
        assertThat(Changelog.entry(retagged)).isEqualTo("NumberUtils.isParsable(\"1.f\") should return true");
        String reworded = "diff --git a/CHANGES b/CHANGES\n--- a/CHANGES\n+++ b/CHANGES\n@@ -1 +1 @@\n"
                + "-- Fix Javadocs in ClassUtils #1410.\n+- [javadoc] Fix Javadocs in ClassUtils #1410.\n";
        assertThat(Changelog.entry(reworded)).as("the commit \"Better action description\"").isNull();
    }

    @Test
    void aSubjectMirrorsItsEntryCaseAndPeriodAndReferencesAside() {
        assertThat(Changelog.mirrors("Add IntegerRange.fit(int)", "Add IntegerRange.fit(int).")).isTrue();
        assertThat(Changelog.mirrors("Fix the meter", "fix the meter (#12)")).isTrue();
        assertThat(Changelog.mirrors("Handle ParsePosition index beyond source string length cleanly (#1757)",
                "[LANG-1833] Handle ParsePosition index beyond source string length cleanly (#1757).")).isTrue();
        assertThat(Changelog.mirrors("Add tests for isEmpty(Object) (#1755, #1756)", "Add tests for isEmpty(Object)")).isTrue();
        assertThat(Changelog.mirrors("Fix the meter", "Fix the progress meter")).isFalse();
        assertThat(Changelog.mirrors(null, "Fix the meter")).isFalse();
    }

    @Test
    void aRepositoryWhoseSubjectsSayTheirEntriesLearnsIt() {
        RepoStyle style = new RepoStyle();
        style.learnChangelog("Add Foo.bar(int)", null, "Add Foo.bar(int).", false);
        style.learnChangelog("Fix the meter", null, "Fix the meter", false);
        assertThat(style.conventions().subjectIsChangelogEntry()).as("two are not enough").isFalse();
        style.learnChangelog("Speed up packing", null, "Make packing faster", false);
        style.learnChangelog(null, null, "Commits without an entry do not count", false);
        assertThat(style.conventions().subjectIsChangelogEntry()).isTrue();
        style.learnChangelog("Speed up reading", null, "Read faster", false);
        assertThat(style.conventions().subjectIsChangelogEntry()).as("half is not more than half").isFalse();
    }

    /** The issue of the one entry the patch adds; null when it adds none, several, or one that names none. */
    private static String issue(String patch) {
        Changelog.Entry added = Changelog.added(patch);
        return added == null ? null : added.issue();
    }

    @Test
    void anEntryMayNameItsIssue() {
        assertThat(issue(patch("src/changes/changes.xml", "    <action issue=\"LANG-1828\" type=\"fix\" "
                + "dev=\"ggregory\">Fix OOM in StringUtils.leftPad/rightPad when size is Integer.MIN_VALUE.</action>")))
                .isEqualTo("LANG-1828");
        assertThat(issue(patch("src/changes/changes.xml",
                "<action type=\"add\">Add IntegerRange.fit(int).</action>"))).as("an entry without one").isNull();
        assertThat(issue(patch("src/changes/changes.xml", "<action issue=\"LANG-1\" type=\"fix\">Fix A in B.</action>",
                "<action issue=\"LANG-2\" type=\"fix\">Fix B in C.</action>"))).as("no one entry, no issue").isNull();
        assertThat(issue(patch("src/Main.java", "// <action issue=\"LANG-1\">Fix B in C.</action>")))
                .as("not in a change log").isNull();
    }

    @Test
    void aRepositoryWhoseSubjectsCarryTheirEntrysIssueLearnsIt() {
        RepoStyle style = new RepoStyle();
        style.learnChangelog("Fix OOM in leftPad", "LANG-1828", "[LANG-1828] Fix OOM in leftPad", false);
        style.learnChangelog("Fix B in C", "LANG-2", "[LANG-2] Fix B in C.", false);
        style.learnChangelog("Add IntegerRange.fit(int)", null, "Add IntegerRange.fit(int)", false);
        assertThat(style.conventions().entryIssueIsTicket()).as("two are not enough").isFalse();
        style.learnChangelog("Fix D", "LANG-3", "Fix D", false);
        assertThat(style.conventions().entryIssueIsTicket()).isTrue();
        style.learnChangelog("Fix E", "LANG-4", "[LANG-5] Fix E", false);
        assertThat(style.conventions().entryIssueIsTicket()).as("another issue is not the entry's").isFalse();
    }
}
