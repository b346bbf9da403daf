package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SubjectEditorTest {
    @Test
    void editsNamesAndVersionsOfTheExemplar() {
        assertThat(SubjectEditor.edit("Fix race in PackWriter", List.of("PackWriter"), List.of("RefUpdate")))
                .isEqualTo("Fix race in RefUpdate");
        assertThat(SubjectEditor.edit("Fix race in PackWriter", List.of("PackWriter"), List.of("PackWriter", "X")))
                .as("a name this diff changes too stays").isEqualTo("Fix race in PackWriter");
        assertThat(SubjectEditor.editVersion("Update jetty to 12.0.19", List.of("12.0.21"))).isEqualTo("Update jetty to 12.0.21");
        assertThat(SubjectEditor.editVersion("update dependency vite to v5", List.of("6.2.0"))).isEqualTo("update dependency vite to v6");
        assertThat(SubjectEditor.editVersion("Bump 1.2 -> 1.3", List.of("2.0"))).as("ambiguous").isEqualTo("Bump 1.2 -> 1.3");
        assertThat(SubjectEditor.editVersion("Start building against Spring WS 5.0.0 snapshots", List.of("5.0.1-SNAPSHOT")))
                .as("the exemplar's version has no qualifier: neither does the edit")
                .isEqualTo("Start building against Spring WS 5.0.1 snapshots");
        assertThat(SubjectEditor.editVersion("Upgrade to Netty 4.1.99.Final", List.of("4.1.100.Final")))
                .isEqualTo("Upgrade to Netty 4.1.100.Final");
    }

    @Test
    void writesTheImperativeMood() {
        assertThat(SubjectEditor.imperative("Fixed the parser")).isEqualTo("Fix the parser");
        assertThat(SubjectEditor.imperative("adds a test")).isEqualTo("add a test");
        assertThat(SubjectEditor.imperative("Polish")).isEqualTo("Polish");
    }

    @Test
    void adaptsTheExemplarsDescriptionAndKeepsItsForm() {
        Subject exemplar = Subject.parse("[FLINK-1][runtime] Fixed race in PackWriter for 1.18.10");
        Subject adapted = SubjectEditor.adapt(exemplar, List.of("PackWriter"), List.of("RefUpdate"), List.of("1.18.11"));
        assertThat(adapted.description()).isEqualTo("Fix race in RefUpdate for 1.18.11");
        assertThat(adapted.tags()).isEqualTo(exemplar.tags());
        assertThat(adapted.ticket()).isEqualTo("FLINK-1");
    }
}
