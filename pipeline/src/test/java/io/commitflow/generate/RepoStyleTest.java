package io.commitflow.generate;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RepoStyleTest {
    private static <T> T roundTrip(Class<T> type, T value) throws Exception {
        return io.commitflow.testing.PojoRoundTrip.of(type, value);
    }

    private static RepoStyle learned() {
        RepoStyle style = new RepoStyle();
        style.learn(Subject.parse("[FLINK-1][runtime] fix(Pack): retry packs. (#12)"), List.of("Pack"));
        style.learn(Subject.parse("KAFKA-2: RevWalk: Free flags"), List.of("RevWalk"));
        style.learn(Subject.parse("feat: add walks"), List.of("Walk"));
        return style;
    }

    @Test
    void keepsItsSerializerFieldsAsWhenTheyWerePublic() {
        var info = (PojoTypeInfo<RepoStyle>) TypeInformation.of(RepoStyle.class);
        List<String> fields = new java.util.ArrayList<>();
        for (int i = 0; i < info.getArity(); i++) {
            fields.add(info.getPojoFieldAt(i).getField().getName());
        }
        assertThat(fields).containsExactlyInAnyOrder("total", "conventional", "tagged", "ticketed", "plainTicket",
                "area", "areaIsFile", "scopeIsFile", "capitalized", "period", "pullRequest", "descriptionChars",
                "types", "tags", "ticketKeys",
                // added later: Flink's POJO schema evolution restores an older savepoint with both at 0
                "changelogEntries", "changelogMirrors",
                // added later still: restored empty (or null, which the style reads as empty)
                "kindTypes",
                // and the scopes' spellings: restored empty or null as kindTypes
                "scopes",
                // and which scopes are folders' names: restored empty or null likewise
                "folderScopes",
                // and the test titles' lessons: restored at 0, so titles wait for ten new lessons
                "testTitles", "titleScores", "pickScores",
                // and the change-log entries' lessons: restored at 0, so entries wait for ten new lessons
                "entryLessons", "entryScores", "entryPickScores",
                // and the change-log entries' issues: restored at 0, so the entry's issue waits for three new ones
                "changelogIssues", "changelogIssuesTitled",
                // and the release forms: restored at 0 and null (read as empty), so a form waits for two releases
                "releases", "releaseForms",
                // and the folders' areas: restored null (read as empty), counted again from the next subjects
                "folderAreas",
                // and the bare types that a history of areas writes as areas: restored at 0
                "bareTypes",
                // and the recent subjects' weights: restored at 0, so the whole history answers till they weigh in
                "recentTotal", "recentConventional", "recentArea", "recentBareTypes",
                // and the short subjects: restored at 0, so suggestions are padded to 20 until short ones are counted
                "shortSubjects",
                // and the diffs' own tickets: restored at 0, so a diff's ticket waits for ten new ones
                "ownTickets", "ownTicketsTitled", "ownTitles", "ownTitlesSaid",
                // and the commits of the log alone: restored at 0, so their entries wait for three new ones
                "logOnlyEntries", "logOnlyMirrors");
        assertThat(TypeInformation.of(RepoModel.class)).isInstanceOf(PojoTypeInfo.class);
    }

    @Test
    void roundTripsWithItsCountsInsideTheModel() throws Exception {
        RepoModel model = new RepoModel(8);
        model.style = learned();
        model.style.learn(Subject.parse("fix(core): walk less"), List.of("Walk"), null, List.of("core", "src"));
        for (int i = 0; i < RepoStyle.TITLE_LESSONS; i++) {
            model.style.learnTestTitle(0.5, 0.25);
        }
        for (int i = 0; i < 3; i++) {
            model.style.learnChangelog("Fix walk " + i, "LANG-" + i, "[LANG-" + i + "] Fix walk " + i, true);
        }
        RepoStyle copy = roundTrip(RepoModel.class, model).style;
        RepoStyle style = model.style;
        assertThat(copy.total).isEqualTo(4);
        assertThat(copy.ticketed).isEqualTo(2);
        assertThat(copy.plainTicket).isEqualTo(1);
        assertThat(copy.pullRequest).isEqualTo(1);
        assertThat(copy.descriptionChars).isEqualTo(style.descriptionChars);
        assertThat(copy.types).isEqualTo(style.types).containsOnlyKeys("fix", "feat");
        assertThat(copy.tags).isEqualTo(style.tags).containsOnlyKeys("runtime");
        assertThat(copy.ticketKeys).isEqualTo(style.ticketKeys).containsOnlyKeys("FLINK", "KAFKA");
        assertThat(copy.scopes).isEqualTo(style.scopes).containsOnlyKeys("Pack", "core");
        assertThat(copy.folderScopes).isEqualTo(style.folderScopes).containsOnlyKeys("core");
        assertThat(copy.testTitles).isEqualTo(RepoStyle.TITLE_LESSONS);
        assertThat(copy.titleScores).isEqualTo(style.titleScores);
        assertThat(copy.pickScores).isEqualTo(style.pickScores);
        assertThat(copy.recentTotal).isEqualTo(style.recentTotal).isGreaterThan(3);
        assertThat(copy.recentConventional).isEqualTo(style.recentConventional).isGreaterThan(1);
        assertThat(copy.conventions()).isEqualTo(style.conventions());
        assertThat(copy.conventions().subjectIsTestTitle()).isTrue();
        assertThat(copy.changelogIssues).isEqualTo(3);
        assertThat(copy.changelogIssuesTitled).isEqualTo(3);
        assertThat(copy.conventions().entryIssueIsTicket()).isTrue();
        assertThat(copy.logOnlyMirrors).isEqualTo(3);
        assertThat(copy.conventions().logOnlyIsEntry()).isTrue();
        assertThat(copy.describe()).isEqualTo(style.describe());
    }

    @Test
    void keepsTheTypesOfSingleKindDiffsThroughARoundTrip() throws Exception {
        RepoModel model = new RepoModel(8);
        for (int i = 0; i < RepoStyle.KIND_COMMITS; i++) {
            model.style.learn(Subject.parse("test: cover walks"), List.of("WalkTest"), PathKind.TEST);
        }
        for (int i = 0; i < 3; i++) {
            model.style.learnChangelog("Fix walk " + i, "LANG-" + i, "[LANG-" + i + "] Fix walk " + i, true);
        }
        RepoStyle copy = roundTrip(RepoModel.class, model).style;
        assertThat(copy.kindTypes).containsExactly(java.util.Map.entry("TEST:test", RepoStyle.KIND_COMMITS));
        assertThat(copy.conventions().kindTypes()).isEqualTo("TEST=test");
        copy.kindTypes = null; // as a savepoint from before the field may restore it
        assertThat(copy.conventions().kindTypes()).isEmpty();
        copy.learn(Subject.parse("test: cover packs"), List.of("PackTest"), PathKind.TEST);
        assertThat(copy.kindTypes).containsOnlyKeys("TEST:test");
    }

    @Test
    void conventionsTravelAsAPojo() throws Exception {
        Conventions c = learned().conventions();
        assertThat(roundTrip(Conventions.class, c)).isEqualTo(c);
    }

    @Test
    void describesTheConventionsForAPrompt() {
        assertThat(new RepoStyle().describe()).isEqualTo("No earlier commits yet.");
        assertThat(learned().describe()).isEqualTo("Conventions: conventional commits (type(scope): description; "
                + "types feat, fix); subjects carry a ticket id; the description starts in lower case; "
                + "no period at the end.");
    }
}
