package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link RepoStyle#conventions()} at the edges of its thresholds, over histories of ten commits. */
class ConventionsTest {
    /** Ten commits changing {@code Pack}: {@code count} with {@code subject}, the rest {@code "Fix it"}. */
    private static Conventions of(int count, String subject) {
        RepoStyle style = new RepoStyle();
        for (int i = 0; i < 10; i++) {
            style.learn(Subject.parse(i < count ? subject : "Fix it"), List.of("Pack"));
        }
        return style.conventions();
    }

    @Test
    void writesTicketsFromThreeInTen() {
        assertThat(of(3, "FLINK-1: Fix it").writesTickets()).isTrue();
        assertThat(of(2, "FLINK-1: Fix it").writesTickets()).isFalse();
        assertThat(of(3, "FLINK-1: Fix it").writesTags()).as("a plain ticket is no tag").isFalse();
    }

    @Test
    void writesTagsFromThreeInTenAndIsMostlyTaggedFromHalf() {
        assertThat(of(3, "[hotfix] Fix it").writesTags()).isTrue();
        assertThat(of(2, "[hotfix] Fix it").writesTags()).isFalse();
        assertThat(of(5, "[hotfix] Fix it").mostlyTagged()).isTrue();
        assertThat(of(4, "[hotfix] Fix it").mostlyTagged()).isFalse();
    }

    @Test
    void usesConventionalCommitsAndAreasFromThreeInTen() {
        assertThat(of(3, "fix(core): fix it").usesConventional()).isTrue();
        assertThat(of(2, "fix(core): fix it").usesConventional()).isFalse();
        assertThat(of(3, "RevWalk: Fix it").usesArea()).isTrue();
        assertThat(of(2, "RevWalk: Fix it").usesArea()).isFalse();
    }

    /** {@code plain} commits of plain prose, then {@code typed} conventional ones. */
    private static RepoStyle turned(int plain, int typed) {
        RepoStyle style = new RepoStyle();
        for (int i = 0; i < plain + typed; i++) {
            style.learn(Subject.parse(i < plain ? "Fix it" : "fix(core): fix it"), List.of("Pack"));
        }
        return style;
    }

    @Test
    void aHistoryThatTurnedConventionalIsConventionalFromItsRecentSubjects() {
        assertThat(turned(1000, 40).conventions().usesConventional()).as("4% of the whole, most of the last hundred")
                .isTrue();
        assertThat(turned(1000, 30).conventions().usesConventional()).as("26% of the last hundred or so").isFalse();

        RepoStyle gaveUp = new RepoStyle();
        for (int i = 0; i < 1150; i++) {
            gaveUp.learn(Subject.parse(i < 1000 ? "fix(core): fix it" : "Fix it"), List.of("Pack"));
        }
        assertThat(gaveUp.conventions().usesConventional()).as("87% of the whole, none of the last 150").isFalse();
    }

    @Test
    void aModelRestoredFromBeforeTheRecentCountsAnswersFromTheWholeHistory() {
        RepoStyle restored = turned(1000, 40);
        restored.recentTotal = 0;
        restored.recentConventional = 0;
        assertThat(restored.conventions().usesConventional()).isFalse();
        while (restored.recentTotal < RepoStyle.RECENT_ENOUGH) {
            assertThat(restored.conventions().usesConventional()).as("the whole history's 4% till then").isFalse();
            restored.learn(Subject.parse("fix(core): fix it"), List.of("Pack"));
        }
        assertThat(restored.conventions().usesConventional()).as("once enough recent ones weigh in").isTrue();
    }

    @Test
    void aHistoryThatWritesShortSubjectsTakesShortOnesFromThreeInAHundred() {
        RepoStyle style = new RepoStyle();
        for (int i = 0; i < 99; i++) {
            style.learn(Subject.parse(i < 2 ? "Fix typo (#12)" : "Fix the typo in the walker"), List.of("Pack"));
        }
        assertThat(style.conventions().subjectFloor()).as("2 in 99, the (#12) not counted").isEqualTo(SubjectLength.MIN);
        style.learn(Subject.parse("Javadoc"), List.of("Pack"));
        assertThat(style.conventions().subjectFloor()).as("3 in 100").isEqualTo(SubjectLength.SHORT_FLOOR);
        assertThat(style.conventions().withSubjectFloor(0).subjectFloor())
                .as("a request restored from before the floor: 0 read as 20").isEqualTo(SubjectLength.MIN);
    }

    @Test
    void scopeIsUsuallyAFileByMoreThanHalfAndAreaByHalf() {
        RepoStyle style = new RepoStyle();
        style.learn(Subject.parse("fix(Pack): fix it"), List.of("Pack"));
        style.learn(Subject.parse("fix(core): fix it"), List.of("Pack"));
        style.learn(Subject.parse("Pack: Fix it"), List.of("Pack"));
        style.learn(Subject.parse("core: Fix it"), List.of("Pack"));
        assertThat(style.conventions().scopeIsUsuallyFile()).as("one of two").isFalse();
        assertThat(style.conventions().areaIsUsuallyFile()).as("one of two").isTrue();
        style.learn(Subject.parse("fix(pack): fix it"), List.of("Pack"));
        style.learn(Subject.parse("core: Fix it"), List.of("Pack"));
        assertThat(style.conventions().scopeIsUsuallyFile()).as("two of three").isTrue();
        assertThat(style.conventions().areaIsUsuallyFile()).as("one of three").isFalse();
    }

    @Test
    void aScopeNamesAFolderWhereItWasTheNameOfOneOfItsDiffsFoldersHalfTheTime() {
        RepoStyle style = new RepoStyle();
        List<String> runtime = List.of("packages", "runtime-core", "src");
        style.learn(Subject.parse("fix(runtime-core): handle null"), List.of("renderer"), null, runtime);
        style.learn(Subject.parse("fix(runtime-core): bump"), List.of("package"), null, List.of());
        style.learn(Subject.parse("fix(types): infer props"), List.of("apiDefineComponent"), null, runtime);
        style.learn(Subject.parse("fix(types): infer emits"), List.of("apiDefineComponent"), null, runtime);
        Conventions c = style.conventions();
        assertThat(c.namesAFolder("runtime-core")).as("one of two").isTrue();
        assertThat(c.namesAFolder("runtime-cores")).as("by its key").isTrue();
        assertThat(c.namesAFolder("types")).as("no folder: a scope of its own").isFalse();
        assertThat(c.namesAFolder("")).isFalse();
        style.learn(Subject.parse("fix(runtime-core): tidy"), List.of("Walk"), null, List.of("scripts"));
        assertThat(style.conventions().namesAFolder("runtime-core")).as("one of three").isFalse();
    }

    @Test
    void capitalizesFromHalfAndEndsWithAPeriodFromMoreThanHalf() {
        assertThat(of(5, "fix it").capitalizes()).as("five of ten in capitals").isTrue();
        assertThat(of(6, "fix it").capitalizes()).as("four of ten").isFalse();
        assertThat(of(6, "Fix it.").endsWithPeriod()).isTrue();
        assertThat(of(5, "Fix it.").endsWithPeriod()).isFalse();
    }

    @Test
    void answersNoWithoutHistory() {
        assertThat(new RepoStyle().conventions()).isEqualTo(
                new Conventions(false, false, false, false, false, false, false, false, false, false, false, ""));
        assertThat(of(0, "").hasHistory()).isTrue();
    }

    @Test
    void learnsTheTypeTheHistoryGivesADiffOfOneKindFromTenSuchCommitsAndHalf() {
        RepoStyle style = new RepoStyle();
        for (int i = 0; i < 9; i++) {
            style.learn(Subject.parse(i < 5 ? "test(core): cover it" : "chore: tidy tests"), List.of("PackTest"),
                    PathKind.TEST);
            style.learn(Subject.parse("fix(core): fix it"), List.of("Pack"), null); // mixed or source: not counted
        }
        assertThat(style.conventions().habitualType(PathKind.TEST)).as("nine commits of tests only").isNull();
        style.learn(Subject.parse("fix(core): fix the test"), List.of("PackTest"), PathKind.TEST);
        Conventions c = style.conventions();
        assertThat(c.habitualType(PathKind.TEST)).as("five of ten").isEqualTo("test");
        assertThat(c.kindTypes()).isEqualTo("TEST=test");
        assertThat(c.habitualType(PathKind.DOCS)).isNull();
        assertThat(c.habitualType(null)).isNull();
        style.learn(Subject.parse("chore: tidy tests"), List.of("PackTest"), PathKind.TEST);
        assertThat(style.conventions().habitualType(PathKind.TEST)).as("five of eleven").isNull();
        assertThat(new Conventions(true, true, false, false, false, false, false, false, false, false, false, null)
                .habitualType(PathKind.TEST)).as("a request from before the habit was kept").isNull();
    }

    @Test
    void learnsTheSpellingOfAScopeTheHistoryWritesMost() {
        RepoStyle style = new RepoStyle();
        for (String s : List.of("fix(custom-elements): a", "fix(custom-elements): b", "fix(custom-element): c",
                "fix(custom-element): d", "fix(custom-element): e", "fix(ssr): f", "fix(types): g", "fix(type): h")) {
            style.learn(Subject.parse(s), List.of("Pack"));
        }
        Conventions c = style.conventions();
        assertThat(c.spelling("custom-elements")).isEqualTo("custom-element");
        assertThat(c.spelling("customElement")).as("case and joiners aside").isEqualTo("custom-element");
        assertThat(c.spelling("ssr")).isEqualTo("ssr");
        assertThat(c.spelling("type")).as("a tie goes to the first in order").isEqualTo("type");
        assertThat(c.spelling("reactivity")).as("never written").isEqualTo("reactivity");
        assertThat(c.spelling("")).isEmpty();
        assertThat(c.scopes()).isEqualTo("custom-element,custom-elements,ssr,type,types");
        assertThat(c.pathScope(List.of("packages", "ssr", "custom-elements", "src"))).as("the most written")
                .isEqualTo("custom-element");
        assertThat(c.pathScope(List.of("packages", "reactivity"))).isNull();
        assertThat(c.pathScope(List.of("ssr", "types", "src"))).as("a folder inside the outermost one, written as often")
                .isEqualTo("type");
        assertThat(c.pathScope(List.of("custom-elements", "ssr"))).as("inside the outermost, though written less")
                .isEqualTo("ssr");
        assertThat(c.pathScope(List.of("ssr", "src"))).as("the outermost folder where no other is a scope").isEqualTo("ssr");
        assertThat(c.pathScope(List.of("packages", "custom-elements", "ssr"))).as("inside it, the most written")
                .isEqualTo("custom-element");
        assertThat(new Conventions(true, true, false, false, false, false, false, false, false, false, false, null)
                .spelling("custom-elements")).as("a request from before spellings were kept").isEqualTo("custom-elements");
    }
}
