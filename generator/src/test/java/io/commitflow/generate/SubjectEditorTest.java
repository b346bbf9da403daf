package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SubjectEditorTest {
    @Test
    void editsNamesAndVersionsOfTheExemplar() {
        assertThat(FileNameEdit.edit("Fix race in PackWriter", List.of("PackWriter"), List.of("RefUpdate")))
                .isEqualTo("Fix race in RefUpdate");
        assertThat(FileNameEdit.edit("Fix race in PackWriter", List.of("PackWriter"), List.of("PackWriter", "X")))
                .as("a name this diff changes too stays").isEqualTo("Fix race in PackWriter");
        assertThat(FileNameEdit.edit("Update Orbit to S20220726152247 and bouncycastle to 1.71",
                List.of("S20220726152247", "WORKSPACE"), List.of("WORKSPACE", "pom")))
                .as("a file named by an id is replaced by no plain name")
                .isEqualTo("Update Orbit to S20220726152247 and bouncycastle to 1.71");
        assertThat(FileNameEdit.edit("A full device budget throws EngineFullException",
                List.of("EngineFullException", "CudaEngine"), List.of("CudaEngine", "CudaLane")))
                .as("an exception only for an exception").isEqualTo("A full device budget throws EngineFullException");
        assertThat(FileNameEdit.edit("Throw EngineFullException when full", List.of("EngineFullException"),
                List.of("LaneFullException"))).isEqualTo("Throw LaneFullException when full");
        assertThat(FileNameEdit.edit("Add orbit S20220726152247", List.of("S20220726152247"),
                List.of("R20221123021534"))).as("by an id of its form it is").isEqualTo("Add orbit R20221123021534");
        assertThat(VersionEdit.editVersion("Update jetty to 12.0.19", List.of("12.0.21"))).isEqualTo("Update jetty to 12.0.21");
        assertThat(VersionEdit.editVersion("update dependency vite to v5", List.of("6.2.0"))).isEqualTo("update dependency vite to v6");
        assertThat(VersionEdit.editVersion("Bump 1.2 -> 1.3", List.of("2.0"))).as("ambiguous").isEqualTo("Bump 1.2 -> 1.3");
        assertThat(VersionEdit.editVersion("Add jgit-4.38 target platform", List.of("3.0.0"))).as("part of a name")
                .isEqualTo("Add jgit-4.38 target platform");
        assertThat(VersionEdit.editVersion("Update Orbit to release/4.29.0", List.of("4.30.0"))).as("part of a path")
                .isEqualTo("Update Orbit to release/4.29.0");
        assertThat(VersionEdit.editVersion("Start building against Spring WS 5.0.0 snapshots", List.of("5.0.1-SNAPSHOT")))
                .as("the exemplar's version has no qualifier: neither does the edit")
                .isEqualTo("Start building against Spring WS 5.0.1 snapshots");
        assertThat(VersionEdit.editVersion("Upgrade to Netty 4.1.99.Final", List.of("4.1.100.Final")))
                .isEqualTo("Upgrade to Netty 4.1.100.Final");
    }

    @Test
    void aVersionOutsideAnUpdateTakesOnlyAVersionOfItsForm() {
        assertThat(VersionEdit.editVersion("Add target platform for Eclipse 2023-09 (4.29)", List.of("2.11.0")))
                .as("a library's version is no target platform's").isEqualTo("Add target platform for Eclipse 2023-09 (4.29)");
        assertThat(VersionEdit.editVersion("Prepare 6.10.0-SNAPSHOT builds", List.of("7.0.0.qualifier")))
                .isEqualTo("Prepare 7.0.0.qualifier builds");
        assertThat(VersionEdit.editVersion("Prepare 6.10.0-SNAPSHOT builds", List.of("7.0.0.qualifier", "7.0.0-SNAPSHOT")))
                .as("the exemplar's form where the diff has it").isEqualTo("Prepare 7.0.0-SNAPSHOT builds");
        assertThat(VersionEdit.editVersion("release: v3.4.0-alpha.3", List.of("3.4.0-alpha.4", "3.4.0-alpha.3")))
                .as("a counter is no form").isEqualTo("release: v3.4.0-alpha.4");
        assertThat(VersionEdit.editVersion("Prepare 6.10.0-SNAPSHOT builds", List.of("6.11")))
                .as("same major").isEqualTo("Prepare 6.11 builds");
        assertThat(VersionEdit.editVersion("gpu/README: the PTX's ISA 8.0 and what it takes to load", List.of("12.2")))
                .as("a bare decimal of another major is another figure").isEqualTo("gpu/README: the PTX's ISA 8.0 and what it takes to load");
        assertThat(VersionEdit.editVersion("README: the six, 1.09-2.40x", List.of("1.25")))
                .as("a range is figures").isEqualTo("README: the six, 1.09-2.40x");
        assertThat(VersionEdit.editVersion("Update CHANGELOG for 7.0.0-0", List.of("8.1.0")))
                .as("an npm pre-release is a version").isEqualTo("Update CHANGELOG for 8.1.0");
        assertThat(VersionEdit.editVersion("Prepare for 5.0.0-2", List.of("15.0.0-0")))
                .isEqualTo("Prepare for 15.0.0-0");
        assertThat(VersionEdit.editVersion("Widen the range to 1.2.3-4.5.6", List.of("2.0.0")))
                .as("a range of versions is no pre-release").isEqualTo("Widen the range to 1.2.3-4.5.6");
        assertThat(VersionEdit.editVersion("Cut the scan by 1.5%", List.of("1.7")))
                .as("a share is a figure").isEqualTo("Cut the scan by 1.5%");
        assertThat(VersionEdit.editVersion("Test against Flink 1.19", List.of("1.20")))
                .as("one of its major").isEqualTo("Test against Flink 1.20");
        assertThat(VersionEdit.editVersion("Bump Kafka to 3.9", List.of("4.1")))
                .as("an update takes any").isEqualTo("Bump Kafka to 4.1");
        assertThat(VersionEdit.editVersion("chore(deps): upgrade to typescript 5.5", List.of("6.0.3")))
                .as("an update").isEqualTo("chore(deps): upgrade to typescript 6.0.3");
        assertThat(VersionEdit.editVersion("Update orbit to S20210406213021 and add 4.20-staging target",
                List.of("0.1.55.v20221112"))).as("jgit: the update is Orbit's; the other clause names a target platform")
                .isEqualTo("Update orbit to S20210406213021 and add 4.20-staging target");
        assertThat(VersionEdit.editVersion("Update Orbit to S20220726152247 and bouncycastle to 1.71", List.of("1.72")))
                .as("a version of its form still moves in another clause").isEqualTo("Update Orbit to S20220726152247 and bouncycastle to 1.72");
    }

    @Test
    void aVersionNamingTheExemplarsFileBecomesTheVersionOfThisDiffsFile() {
        assertThat(VersionEdit.fileVersion("Add 4.31 target platform", List.of("jgit-4.31", "orbit-4.31", "pom"),
                List.of("jgit-4.32", "orbit-4.32", "pom"))).isEqualTo("Add 4.32 target platform");
        assertThat(VersionEdit.fileVersion("Add 4.31 target platform", List.of("jgit-4.31"), List.of("pom")))
                .as("no such file here").isNull();
        assertThat(VersionEdit.fileVersion("Add 4.31 target platform", List.of("jgit-4.31"),
                List.of("jgit-4.32", "jgit-4.33"))).as("which one is not clear").isNull();
        assertThat(VersionEdit.fileVersion("Update jetty to 12.0.16", List.of("pom"), List.of("pom")))
                .as("a version of no file").isNull();
        assertThat(SubjectEditor.adapt(Subject.parse("Add 4.31 target platform"), List.of("jgit-4.31"),
                List.of("jgit-4.32"), List.of("1.0", "0.1.55")).render()).isEqualTo("Add 4.32 target platform");
        // hamcrest 3.0 moved in the platforms' files: its version is no platform's
        assertThat(SubjectEditor.adapt(Subject.parse("Add 4.38 target platform"), List.of("jgit-4.38"),
                List.of("jgit-4.34", "jgit-4.35", "MANIFEST"), List.of("3.0")).render())
                .isEqualTo("Add 4.38 target platform");
        assertThat(SubjectEditor.adapt(Subject.parse("Add 4.22 target platform"), List.of("jgit-4.22"),
                List.of("jgit-4.23", "jgit-4.24"), List.of("4.23")).render())
                .as("a version one of this diff's files is named with").isEqualTo("Add 4.23 target platform");
    }

    @Test
    void aCopyrightYearBecomesTheOneThisDiffWrites() {
        String notice = "--- a/NOTICE\n+++ b/NOTICE\n-Copyright 2014-2023 The Apache Software Foundation\n"
                + "+Copyright 2014-2024 The Apache Software Foundation\n";
        assertThat(DateEdit.editYear("Update copyright year to 2014-2022 in NOTICE files", notice))
                .isEqualTo("Update copyright year to 2014-2024 in NOTICE files");
        assertThat(DateEdit.editYear("Update NOTICE file for 2022", notice)).as("a lone year: the range's end")
                .isEqualTo("Update NOTICE file for 2024");
        assertThat(DateEdit.editYear("Remove the API deprecated in 2019", notice)).as("not about years")
                .isEqualTo("Remove the API deprecated in 2019");
        assertThat(DateEdit.editYear("Update copyright year to 2024", "--- a/A\n+++ b/A\n+x = 1\n"))
                .as("no year written").isEqualTo("Update copyright year to 2024");
        String manual = "--- a/htop.1.in\n+++ b/htop.1.in\n-.TH \"HTOP\" \"1\" \"2025\"\n+.TH \"HTOP\" \"1\" \"2026\"\n"
                + "-Copyright \\(co 2020-2025 htop dev team.\n+Copyright \\(co 2020-2026 htop dev team.\n";
        assertThat(DateEdit.editYear("Updates for 2025. Happy New Year!", manual)).as("a year that ends a sentence")
                .isEqualTo("Updates for 2026. Happy New Year!");
        assertThat(DateEdit.editYear("Update the year's train to 2025.03", manual)).as("a version's first part")
                .isEqualTo("Update the year's train to 2025.03");
    }

    @Test
    void aReleaseTrainsYearAndMonthIsTheOneThisDiffPointsAt() {
        String target = "--- /dev/null\n+++ b/org.eclipse.jgit.target/jgit-4.35.target\n"
                + "+  <repository location=\"https://download.eclipse.org/releases/2025-03/\"/>\n"
                + "--- a/org.eclipse.jgit.target/jgit-4.34.target\n+++ b/org.eclipse.jgit.target/jgit-4.34.target\n"
                + "   <!-- Eclipse 2024-12 -->\n";
        assertThat(DateEdit.editYearMonth("Add 4.35 target platform for Eclipse 2024-12", target))
                .isEqualTo("Add 4.35 target platform for Eclipse 2025-03");
        assertThat(DateEdit.yearMonthsAdded("Add 4.35 target platform for Eclipse 2025-03", target)).isTrue();
        assertThat(DateEdit.yearMonthsAdded("Add 4.35 target platform for Eclipse 2024-12", target))
                .as("only on a line the diff keeps").isFalse();
        assertThat(DateEdit.yearMonthsAdded("Add 4.35 target platform", target)).isTrue();
        assertThat(DateEdit.editYearMonth("Release 2024-12-05 notes", target)).as("a date is no year and month")
                .isEqualTo("Release 2024-12-05 notes");
        assertThat(VersionEdit.nameVersionsAdded("Add target platform jgit-4.35 for Eclipse 2025-03", target))
                .isTrue();
        String pom = "--- a/pom.xml\n+++ b/pom.xml\n     <module>jgit-4.34</module>\n+    <module>jgit-4.35</module>\n";
        assertThat(VersionEdit.nameVersionsAdded("Add target platform jgit-4.34 for Eclipse 2025-03", pom))
                .as("a module the diff only keeps").isFalse();
        assertThat(VersionEdit.nameVersionsAdded("Add jgit-4.35 target platform", pom)).isTrue();
        String two = target + "+  <repository location=\"https://download.eclipse.org/releases/2025-06/\"/>\n";
        assertThat(DateEdit.editYearMonth("Add 4.35 target platform for Eclipse 2024-12", two))
                .as("which of two is not known").isEqualTo("Add 4.35 target platform for Eclipse 2024-12");
    }

    @Test
    void writesTheImperativeMood() {
        assertThat(MoodEdit.imperative("Fixed the parser")).isEqualTo("Fix the parser");
        assertThat(MoodEdit.imperative("adds a test")).isEqualTo("add a test");
        assertThat(MoodEdit.imperative("Polish")).isEqualTo("Polish");
        assertThat(MoodEdit.imperative("Bumps name the library they bump")).as("a noun, then its verb")
                .isEqualTo("Bumps name the library they bump");
        assertThat(MoodEdit.imperative("Bumps the version")).isEqualTo("Bump the version");
    }

    @Test
    void writesThePastTenseForAnAuthorWhoWritesIt() {
        assertThat(MoodEdit.inMood("Add a flag", true)).isEqualTo("Added a flag");
        assertThat(MoodEdit.inMood("fixes the parser", true)).isEqualTo("fixed the parser");
        assertThat(MoodEdit.inMood("Make it lazy", true)).isEqualTo("Made it lazy");
        assertThat(MoodEdit.inMood("Updated the docs", true)).isEqualTo("Updated the docs");
        assertThat(MoodEdit.inMood("Polish the docs", true)).as("no known verb").isEqualTo("Polish the docs");
        assertThat(MoodEdit.inMood("Bumps name the library they bump", true)).as("a noun, then its verb")
                .isEqualTo("Bumps name the library they bump");
        assertThat(MoodEdit.inMood("Added a flag", false)).isEqualTo("Add a flag");
        assertThat(MoodEdit.opensInPast("Added a flag")).isTrue();
        assertThat(MoodEdit.opensInPast("Add a flag")).isFalse();
        assertThat(MoodEdit.opensInPresent("Adds a flag")).isTrue();
        assertThat(MoodEdit.opensInPresent("Polish")).isFalse();
    }

    @Test
    void theMoodIsTheAuthorsAsTheirOwnNeighboursShowIt() {
        List<RepoKnowledge.Neighbor> nn = List.of(by("Added a flag", "armin"), by("Fixed the walker", "armin"),
                by("Add a test", "david"), by("Fix the build", "david"), by("Remove a leak", "david"));
        List<Subject> subjects = RepoKnowledge.subjects(nn);
        assertThat(Composition.writesPastTense(nn, subjects, "armin")).isTrue();
        assertThat(Composition.writesPastTense(nn, subjects, "david")).isFalse();
        assertThat(Composition.writesPastTense(nn, subjects, "someone else")).as("no neighbour of theirs").isFalse();
        assertThat(Composition.writesPastTense(nn, subjects, "")).as("no author").isFalse();
        assertThat(Composition.writesPastTense(nn.subList(0, 1), subjects.subList(0, 1), "armin"))
                .as("one subject is no habit").isFalse();
        List<RepoKnowledge.Neighbor> mixed = List.of(by("Added a flag", "armin"), by("Fixed the walker", "armin"),
                by("Add a test", "armin"), by("Fix the build", "armin"));
        assertThat(Composition.writesPastTense(mixed, RepoKnowledge.subjects(mixed), "armin")).as("half is no habit")
                .isFalse();
    }

    @Test
    void whetherAnAuthorWritesConventionalCommitsIsTheirNewestNeighboursAnswer() {
        List<RepoKnowledge.Neighbor> nn = List.of(by("fix: retry packs", "spf", 90), by("feat: add a flag", "spf", 91),
                by("docs: spell it", "spf", 92), by("Fix the walker", "jp", 93), by("Add a test", "jp", 94),
                by("Remove a leak", "jp", 95), by("Reset state", "jp", 96));
        List<Subject> subjects = RepoKnowledge.subjects(nn);
        assertThat(Composition.authorConventional(nn, subjects, "spf", 0)).isTrue();
        assertThat(Composition.authorConventional(nn, subjects, "jp", 0)).isFalse();
        assertThat(Composition.authorConventional(nn, subjects, "spf", 92)).as("one recent neighbour is no habit")
                .isNull();
        assertThat(Composition.authorConventional(nn, subjects, "someone else", 0)).isNull();
        List<RepoKnowledge.Neighbor> typed = List.of(by("fix: a", "spf", 1), by("fix: b", "spf", 2),
                by("fix: c", "spf", 3), by("feat: d", "jp", 4), by("feat: e", "jp", 5));
        assertThat(Composition.authorConventional(typed, RepoKnowledge.subjects(typed), "spf", 0))
                .as("neighbours all of one form: the repository's answer stands").isNull();
        List<RepoKnowledge.Neighbor> switched = List.of(by("Fix a", "jas", 1), by("Fix b", "jas", 2),
                by("fix: c", "jas", 10), by("fix: d", "jas", 11), by("fix: e", "jas", 12), by("fix: f", "jas", 13),
                by("Add g", "jp", 14));
        assertThat(Composition.authorConventional(switched, RepoKnowledge.subjects(switched), "jas", 0))
                .as("their newest four").isTrue();
    }

    private static RepoKnowledge.Neighbor by(String subject, String author) {
        return by(subject, author, 0);
    }

    private static RepoKnowledge.Neighbor by(String subject, String author, long seq) {
        return new RepoKnowledge.Neighbor(new IndexedCommit(seq, "a".repeat(40), subject, List.of(), new int[0],
                new float[0], new int[0], 0, 0, 0, null, false, author), 0.5f);
    }

    @Test
    void adaptsTheExemplarsDescriptionAndKeepsItsForm() {
        Subject exemplar = Subject.parse("[FLINK-1][runtime] Fixed race in PackWriter for 1.18.10");
        Subject adapted = SubjectEditor.adapt(exemplar, List.of("PackWriter"), List.of("RefUpdate"), List.of("1.18.11"));
        assertThat(adapted.description()).isEqualTo("Fix race in RefUpdate for 1.18.11");
        assertThat(adapted.tags()).isEqualTo(exemplar.tags());
        assertThat(adapted.ticket()).isEqualTo("FLINK-1");
    }

    @Test
    void neverTurnsAFileNameIntoANameOfAnotherShape() {
        // a nonsense edit seen in review: the README became a class
        assertThat(FileNameEdit.edit("Show real demo output in the README", List.of("README"), List.of("PatchId")))
                .isEqualTo("Show real demo output in the README");
        assertThat(FileNameEdit.namesOtherFiles("Show real demo output in the README", List.of("README"), List.of("PatchId")))
                .as("so the exemplar still speaks of a file this diff does not change").isTrue();
        assertThat(FileNameEdit.edit("Update the NEWS for the release", List.of("NEWS"), List.of("CHANGES")))
                .isEqualTo("Update the CHANGES for the release");
        assertThat(FileNameEdit.namesOtherFiles("Fix race in RefUpdate", List.of("PackWriter"), List.of("RefUpdate"))).isFalse();
    }

    @Test
    void aLowerCaseWordIsAFileOnlyWithItsExtension() {
        // babel/babel: "fix: update identifier to unicode 16" for a diff of yarn's files had become "Update yarn to
        // unicode 16"; "Improve traverse information collection performance" "Improve index information …"
        assertThat(FileNameEdit.edit("update identifier to unicode 16", List.of("identifier"), List.of("yarn")))
                .isEqualTo("update identifier to unicode 16");
        assertThat(FileNameEdit.namesOtherFiles("update identifier to unicode 16", List.of("identifier"),
                List.of("yarn"))).as("so that exemplar is passed over").isTrue();
        // written as a file, it is one: flink-connector-kafka's "Add back missing kafka.md Chinese documentation"
        assertThat(FileNameEdit.edit("Add back missing kafka.md Chinese documentation", List.of("kafka"),
                List.of("avro-confluent"))).isEqualTo("Add back missing avro-confluent.md Chinese documentation");
    }

    @Test
    void aTestClassStandsOnlyForATestClass() {
        // jgit with 30 candidates: "[pgm] Ensure UploadPackTest is closed to fix resource leak", "BlameGenerator: Add
        // BlameGeneratorTest that can overwrites its parents"
        assertThat(FileNameEdit.edit("Ensure RevWalk is closed to fix resource leak", List.of("RevWalk"),
                List.of("UploadPackTest"), null)).isEqualTo("Ensure RevWalk is closed to fix resource leak");
        assertThat(FileNameEdit.edit("Add missing test in BlameGeneratorTest", List.of("BlameGeneratorTest"),
                List.of("RevWalkTest"), null)).isEqualTo("Add missing test in RevWalkTest");
        assertThat(FileNameEdit.edit("Add missing test in BlameGeneratorTest", List.of("BlameGeneratorTest"),
                List.of("RevWalk", "RevWalkTest"), null)).as("nor does a class replace a test")
                .isEqualTo("Add missing test in BlameGeneratorTest");
        // commons-lang: a diff of CharRangeTest is about CharRange, the class it tests
        assertThat(FileNameEdit.edit("Fix collision in Range.hashCode()", List.of("Range"), List.of("CharRangeTest"),
                "CharRange")).isEqualTo("Fix collision in CharRange.hashCode()");
    }

    @Test
    void aClassThatActsInTheSentenceIsNotSwapped() {
        // the demo's "PathKind pads a short subject with no file it names already": what the sentence says of
        // SubjectLength, PathKind does not do
        assertThat(FileNameEdit.edit("SubjectLength pads a short subject with no file it names already",
                List.of("SubjectLength"), List.of("PathKind"))).startsWith("SubjectLength pads");
        assertThat(FileNameEdit.edit("RevWalk is closed twice", List.of("RevWalk"), List.of("PackWriter")))
                .isEqualTo("RevWalk is closed twice");
        // an area, an object, a plain noun after the name: swapped
        assertThat(FileNameEdit.edit("RevWalk: close twice", List.of("RevWalk"), List.of("PackWriter")))
                .isEqualTo("PackWriter: close twice");
        assertThat(FileNameEdit.edit("Close RevWalk twice", List.of("RevWalk"), List.of("PackWriter")))
                .isEqualTo("Close PackWriter twice");
        assertThat(FileNameEdit.edit("RevWalk tests cleanup", List.of("RevWalk"), List.of("PackWriter")))
                .as("a plural noun that is no verb still reads as one").isEqualTo("RevWalk tests cleanup");
        assertThat(FileNameEdit.edit("RevWalk javadoc cleanup", List.of("RevWalk"), List.of("PackWriter")))
                .isEqualTo("PackWriter javadoc cleanup");
    }

    @Test
    void theClassUnderTestIsOneThePatchNames() {
        String patch = "+++ b/src/test/java/CharRangeTest.java\n+        assertNotEquals(CharRange.is('a').hashCode(), x);\n";
        assertThat(FileNameEdit.classUnderTest(List.of("CharRangeTest"), patch)).isEqualTo("CharRange");
        assertThat(FileNameEdit.classUnderTest(List.of("KafkaSinkITCase"), patch)).as("not in the patch").isNull();
        assertThat(FileNameEdit.classUnderTest(List.of("CharRangeTest"), "+ CharRangeTest.run();\n"))
                .as("the test's own name is no mention").isNull();
        assertThat(FileNameEdit.classUnderTest(List.of("CharRange"), patch)).as("no test").isNull();
    }

    @Test
    void theQuickScansFindWhatTheirDefinitionsFind() {
        // containsIgnoreCase is regionMatches(true, …) at every place, classUnderTest the pattern (?<![\w$])NAME(?![\w$]):
        // their shortcuts must agree with those on case pairs outside ASCII (the Kelvin sign, the dotless i, the long s)
        // and on the characters around a name
        String[] texts = {"", "k", "K", "\u212A", "x\u212Aafka", "\u0131d", "\u0130D", "\u017Fha", "SHA", "Kafka",
                "+ kAfKa\n", "$CharRange", "CharRange$", "_CharRange", "CharRange_", "CharRanges", "(CharRange)",
                "\u00e9CharRange", "CharRange\u00e9", "a\uD801\uDC00CharRange", "CharRangeCharRange x CharRange",
                "\u00b5s", "\u039cS", "\u03bcs", "stra\u00dfe", "STRASSE", "\u00ff", "\u0178", "\uD801\uDC00"};
        String[] words = {"kafka", "k", "id", "sha", "CharRange", "\u00c9t\u00e9", "KAFKA", "\u00b5s", "\u03bcS",
                "\u00dfe", "\u0178", "\uD801\uDC00", "\uDC00", "", "CharRangeCharRange x CharRange!"};
        for (String text : texts) {
            for (String word : words) {
                boolean regionMatches = false;
                for (int i = 0; i + word.length() <= text.length(); i++) {
                    regionMatches |= text.regionMatches(true, i, word, 0, word.length());
                }
                assertThat(FileNameEdit.containsIgnoreCase(text, word)).as("%s in %s", word, text).isEqualTo(regionMatches);
            }
            boolean found = java.util.regex.Pattern.compile("(?<![\\w$])CharRange(?![\\w$])").matcher(text).find();
            assertThat(FileNameEdit.classUnderTest(List.of("CharRangeTest"), text)).as(text)
                    .isEqualTo(found ? "CharRange" : null);
        }
    }

    @Test
    void oneNameStandsForOneFile() {
        // jgit: "Remove TopoInDegreePhase and move Commit Graph info to TopoInDegreePhase"
        assertThat(FileNameEdit.edit("Remove TopoSortGenerator and move Commit Graph info to TopoInDegreePhase",
                List.of("TopoSortGenerator", "TopoInDegreePhase"), List.of("TopoInDegreePhase")))
                .as("this diff's file is named already").isEqualTo("Remove TopoSortGenerator and move Commit Graph info to TopoInDegreePhase");
        assertThat(FileNameEdit.edit("Move PackWriter statistics into PackStatistics",
                List.of("PackWriter", "PackStatistics"), List.of("RefUpdate")))
                .as("two of the exemplar's files do not both become this diff's one")
                .isEqualTo("Move RefUpdate statistics into PackStatistics");
        assertThat(FileNameEdit.edit("Fix PackWriter: PackWriter leaks", List.of("PackWriter"), List.of("RefUpdate")))
                .as("the same name twice is still one file").isEqualTo("Fix RefUpdate: RefUpdate leaks");
    }

    @Test
    void aWordSaidTwiceIsSaidOnce() {
        assertThat(SubjectEditor.adapt(Subject.parse("Bump Bump actions/cache from 5.0.3 to 5.0.4"), List.of(),
                List.of("maven.yml"), null, List.of("5.0.4"), List.of("5.0.5")).render())
                .as("commons-lang's history holds the typo").isEqualTo("Bump actions/cache from 5.0.4 to 5.0.5");
        assertThat(MoodEdit.withoutDoubledWords("Fix the the typo")).isEqualTo("Fix the typo");
        assertThat(MoodEdit.withoutDoubledWords("Add x.x support and 1 1 test")).isEqualTo("Add x.x support and 1 1 test");
        assertThat(MoodEdit.withoutDoubledWords("Update RefUpdate")).isEqualTo("Update RefUpdate");
    }

    @Test
    void dropsTheExemplarsPullRequestNumber() {
        Subject adapted = SubjectEditor.adapt(Subject.parse("fix(compiler): handle v-if on template (#11630)"),
                List.of(), List.of("compile"), List.of());
        assertThat(adapted.render()).isEqualTo("fix(compiler): handle v-if on template");
    }

    @Test
    void rewritesABumpsVersionPairWhenTheDiffMovesFromOneVersionToAnother() {
        Subject adapted = SubjectEditor.adapt(Subject.parse("Bump github/codeql-action from 3.29.2 to 3.29.4 (#1421)"),
                List.of(), List.of("codeql"), null, List.of("3.29.8"), List.of("3.29.9"));
        assertThat(adapted.render()).isEqualTo("Bump github/codeql-action from 3.29.8 to 3.29.9");
        assertThat(VersionEdit.editVersionPair("update vite from v5.4.1 to v5.4.2", List.of("5.4.2"), List.of("5.4.3")))
                .isEqualTo("update vite from v5.4.2 to v5.4.3");
        assertThat(VersionEdit.editVersionPair("Bump x from 1.0 to 1.1", List.of("1.0", "2.0"), List.of("1.2")))
                .as("two old versions: which one is unclear").isNull();
    }

    @Test
    void aMemberReferenceNamesTheOneMethodThisDiffChanges() {
        String patch = """
                diff --git a/src/test/java/NumberUtilsTest.java b/src/test/java/NumberUtilsTest.java
                --- a/src/test/java/NumberUtilsTest.java
                +++ b/src/test/java/NumberUtilsTest.java
                @@ -1,3 +1,3 @@
                -    public void testCreateLongFailure() {
                +    void testCreateLongFailure(final String s, @Nullable int[] radix) throws Exception {
                         assertThrows(x);
                """;
        MemberEdit.Member member = MemberEdit.changedMember(patch);
        assertThat(member).isEqualTo(new MemberEdit.Member("NumberUtilsTest", "testCreateLongFailure(String, int[])"));
        assertThat(MemberEdit.editMember("Refactor NumberUtilsTest.testCreateDouble() test using assertThrows",
                member, patch)).isEqualTo(
                "Refactor NumberUtilsTest.testCreateLongFailure(String, int[]) test using assertThrows");
        // the qualifier becomes the class the member is declared in
        assertThat(MemberEdit.editMember("Add org.example.IntegerRange.toIntStream()", member, patch))
                .isEqualTo("Add org.example.NumberUtilsTest.testCreateLongFailure(String, int[])");
        // nothing to edit: no reference, two references, a reference this diff has, no single changed member
        assertThat(MemberEdit.editMember("Use final", member, patch)).isEqualTo("Use final");
        assertThat(MemberEdit.editMember("Use a() and b()", member, patch)).isEqualTo("Use a() and b()");
        assertThat(MemberEdit.editMember("Fix testCreateLongFailure(String)", member, patch))
                .isEqualTo("Fix testCreateLongFailure(String)");
        assertThat(MemberEdit.editMember("Fix Foo.bar()", null, patch)).isEqualTo("Fix Foo.bar()");
        assertThat(MemberEdit.changedMember(patch + "+    private int other(int a) {\n")).as("two members").isNull();
        assertThat(MemberEdit.changedMember("+        if (x) {\n+        foo(bar);\n")).isNull();
    }

    @Test
    void findsANameTheExemplarsOwnDiffHadAndThisOneLacks() {
        String theirs = "diff --git a/WORKSPACE b/WORKSPACE\n-    artifact = \"org.tukaani:xz:1.8\",\n"
                + "+    artifact = \"org.tukaani:xz:1.9\",\n";
        String ours = "diff --git a/WORKSPACE b/WORKSPACE\n     artifact = \"org.ow2.asm:asm:9.5\",\n"
                + "-    artifact = \"net.bytebuddy:byte-buddy:1.14.7\",\n"
                + "+    artifact = \"net.bytebuddy:byte-buddy:1.14.8\",\n";
        int[] signature = DiffTokens.signature(theirs);
        String subject = "Use org.tukaani:xz directly from Maven Central";

        assertThat(CarriedNameEdit.carriedName(subject, signature, ours)).isEqualTo("tukaani");
        assertThat(CarriedNameEdit.carriedName(subject, signature, theirs)).as("this diff names it too").isNull();
        assertThat(CarriedNameEdit.carriedName("Use tukaani directly from Maven Central", signature, ours))
                .as("a plain word said twice may say the same of another diff: not judged").isNull();
        assertThat(CarriedNameEdit.carriedName("Use net.bytebuddy directly from Maven Central", signature, ours))
                .as("a name the exemplar's diff did not contain is this edit's own").isNull();
        assertThat(CarriedNameEdit.carriedName("Update Orbit to R20220830213456",
                DiffTokens.signature("+ <unit location=\"R20220830213456\"/>"), ours)).isEqualTo("R20220830213456");
        assertThat(CarriedNameEdit.carriedName(subject, new int[0], ours)).as("no signature kept: nothing judged").isNull();
        assertThat(CarriedNameEdit.carriedName(subject, signature, DiffTokens.signature(ours), ours))
                .as("this diff's signature read first: the same answer").isEqualTo("tukaani");
        assertThat(CarriedNameEdit.carriedName(subject, signature, signature, ours))
                .as("a word this diff's signature holds is this diff's").isNull();
    }

    @Test
    void aPlainWordTheExemplarsDiffSaysAgainAndAgainIsItsName() {
        StringBuilder theirs = new StringBuilder();
        for (String target : List.of("jgit-4.26", "jgit-4.27", "jgit-4.28")) {
            theirs.append("diff --git a/").append(target).append(".target b/").append(target).append(".target\n")
                    .append("+    <location type=\"Maven\" label=\"gson\">\n");
        }
        String ours = "diff --git a/jgit-4.28.target b/jgit-4.28.target\n"
                + "+    <location type=\"Maven\" label=\"xz\">\n+      <artifactId>xz</artifactId>\n";
        int[] signature = DiffTokens.signature(theirs.toString());
        assertThat(CarriedNameEdit.carriedName("Use gson directly from Maven Central", signature, ours))
                .as("gson, in every file the exemplar changed, is not this diff's").isEqualTo("gson");
        assertThat(CarriedNameEdit.carriedName("Use xz directly from Maven Central", signature, ours)).isNull();
        assertThat(CarriedNameEdit.carriedName("Use gson directly from Maven Central", signature,
                ours + "     <artifactId>gson</artifactId>\n")).as("this diff says it too").isNull();
    }

    @Test
    void replacesACarriedBuildIdByTheOneThisDiffAdds() {
        int[] theirs = DiffTokens.signature("-  <repository location=\"https://download.eclipse.org/tools/orbit/"
                + "downloads/drops/R20220531185310/repository\"/>\n+  <repository location=\"https://download.eclipse.org/"
                + "tools/orbit/downloads/drops/R20220830213456/repository\"/>\n");
        String ours = "--- a/jgit-4.26.tpd\n+++ b/jgit-4.26.tpd\n"
                + "-location \"https://download.eclipse.org/tools/orbit/downloads/drops/R20220830213456/repository\" {\n"
                + "+location \"https://download.eclipse.org/tools/orbit/downloads/drops/R20221123021534/repository\" {\n";

        assertThat(CarriedNameEdit.replaceCarried("Update Orbit to R20220531185310 for 2022-09", theirs, ours))
                .as("the exemplar's id, which this diff lacks, becomes the one it adds")
                .isEqualTo("Update Orbit to R20221123021534 for 2022-09");
        assertThat(CarriedNameEdit.replaceCarried("Update Orbit to R20220830213456 for 2022-09", theirs, ours))
                .as("an id this diff has (it removes it) is no carried name: left as it is")
                .isEqualTo("Update Orbit to R20220830213456 for 2022-09");
        String two = ours + "+location \"https://download.eclipse.org/tools/orbit/downloads/drops/S20221110001122/repository\" {\n";
        assertThat(CarriedNameEdit.replaceCarried("Update Orbit to R20220531185310", theirs, two))
                .as("two new ids of that shape: which one is meant is not known").isEqualTo("Update Orbit to R20220531185310");
    }

    @Test
    void aDescriptionStartingWithAnOperatorOrAListMarkerIsNoSubject() {
        for (String odd : List.of("+=codecov => notifications", "+= .asf.yaml", "* Inline var", "-> retry", "", "  ")) {
            assertThat(MoodEdit.startsAsProse(odd)).as(odd).isFalse();
        }
        for (String fine : List.of("Fix the walker", "2024 copyright", "@since tags", ".gitignore entries",
                "`foo` is gone", "\"quoted\" name", "[docs] fix", "#include order", "$HOME expansion",
                "<dependency> order", "_internal helper", "\uD83D\uDC1B Fix the walker", "\u2B06\uFE0F Bump click")) {
            assertThat(MoodEdit.startsAsProse(fine)).as(fine).isTrue();
        }
    }

    /** A patch of {@code path} whose hunk replaces the line {@code old} with {@code now}. */
    private static String replaced(String path, String old, String now) {
        return "--- a/" + path + "\n+++ b/" + path + "\n@@ -9,2 +9,2 @@\n-" + old + "\n+" + now + "\n";
    }

    @Test
    void aBumpsPlainNumbersAreTheOnesThisDiffMoves() {
        String parent = replaced("pom.xml", "    <version>103</version>", "    <version>104</version>");
        assertThat(VersionEdit.editNumberPair("Bump org.apache.commons:commons-parent from 93 to 104", parent))
                .isEqualTo("Bump org.apache.commons:commons-parent from 103 to 104");
        String v5 = "  - uses: actions/checkout@v5";
        String v6 = "  - uses: actions/checkout@v6";
        String action = replaced(".github/workflows/ci.yml", v5, v6) + replaced(".github/workflows/lint.yml", v5, v6);
        assertThat(VersionEdit.editNumberPair("Update actions/checkout@v4 -> v5", action))
                .as("every file moves the same number").isEqualTo("Update actions/checkout@v5 -> v6");
        assertThat(VersionEdit.editNumberPair("Wrap PR 343 to 80 columns", action))
                .as("\"to\" without \"from\" is no bump").isEqualTo("Wrap PR 343 to 80 columns");
        assertThat(VersionEdit.numberMove(replaced("pom.xml", "<version>1.2.3</version>", "<version>1.2.4</version>")))
                .as("a dotted version's last number is no plain number").isNull();
        assertThat(VersionEdit.numberMove(parent + replaced("README.md", "Copyright 2024", "Copyright 2025")))
                .as("two numbers moved: which one is the bump's is a guess").isNull();
        assertThat(VersionEdit.numberMove("--- a/x\n+++ b/x\n-a\n+b\n+c\n")).as("no number moved").isNull();
    }
}
