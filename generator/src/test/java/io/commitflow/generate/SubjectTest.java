package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SubjectTest {
    @Test
    void theHeadlineJoinsAFirstLineWrappedInTheMiddleOfASentence() {
        assertThat(Subject.headline("ClassUtils now throws IllegalArgumentException if a class name length is\n"
                + "too long\n\nBody.")).isEqualTo(
                "ClassUtils now throws IllegalArgumentException if a class name length is too long");
        // a subject line of its own stays one: short, ended, followed by a list, a trailer or a blank line
        assertThat(Subject.headline("Fix typo\nin the docs")).isEqualTo("Fix typo");
        assertThat(Subject.headline("Make the Kafka sink retry transactions that timed out.\nMore")).endsWith("out.");
        assertThat(Subject.headline("Make the Kafka sink retry transactions that timed out on\n- the broker"))
                .endsWith("timed out on");
        assertThat(Subject.headline("Make the Kafka sink retry transactions that timed out on\nChange-Id: I12"))
                .endsWith("timed out on");
        assertThat(Subject.headline("Make the Kafka sink retry transactions that timed out on\n\nthe broker"))
                .endsWith("timed out on");
        assertThat(Subject.headline("WordUtils.containsAllWords\u200B() may throw")).isEqualTo(
                "WordUtils.containsAllWords() may throw");
        assertThat(Subject.headline(null)).isEmpty();
    }

    @Test
    void parsesTheCommonConventions() {
        Subject flink = Subject.parse("[FLINK-1234][runtime] Fix the scheduler (#567)");
        assertThat(flink.tags()).containsExactly("FLINK-1234", "runtime");
        assertThat(flink.ticket()).isEqualTo("FLINK-1234");
        assertThat(flink.description()).isEqualTo("Fix the scheduler");
        assertThat(flink.pullRequest()).isTrue();

        Subject kafka = Subject.parse("KAFKA-99: Handle fencing");
        assertThat(kafka.ticket()).isEqualTo("KAFKA-99");
        assertThat(kafka.plainTicket()).isTrue();
        assertThat(kafka.description()).isEqualTo("Handle fencing");

        Subject conventional = Subject.parse("feat(compiler-sfc)!: drop reactivity transform");
        assertThat(conventional.type()).isEqualTo("feat");
        assertThat(conventional.scope()).isEqualTo("compiler-sfc");
        assertThat(conventional.breaking()).isTrue();

        Subject area = Subject.parse("RevWalk: Free flags on reset()");
        assertThat(area.area()).isEqualTo("RevWalk");
        assertThat(area.type()).isEmpty();

        assertThat(Subject.parse("See https://example.com: details").area()).isEmpty();
        assertThat(Subject.parse("Just a subject").description()).isEqualTo("Just a subject");
    }

    @Test
    void rendersWithoutThePullRequestNumber() {
        assertThat(Subject.parse("[FLINK-1][docs] Fix typo (#9)").render()).isEqualTo("[FLINK-1][docs] Fix typo");
        assertThat(Subject.parse("fix(core): x").render()).isEqualTo("fix(core): x");
        assertThat(new Subject(List.of(), "KAFKA-1", true, "", "", false, "", "y", false).render()).isEqualTo("KAFKA-1: y");
    }
}
