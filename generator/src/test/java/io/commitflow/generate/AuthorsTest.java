package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import io.commitflow.gpu.CpuEngine;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AuthorsTest {
    @Test
    void knowsBotsByNameOrAddress() {
        assertThat(Authors.isBot("renovate[bot] <29139614+renovate[bot]@users.noreply.github.com>")).isTrue();
        assertThat(Authors.isBot("Babel Bot <babel-bot@example.com>")).isTrue();
        assertThat(Authors.isBot("dependabot")).isTrue();
        assertThat(Authors.isBot("Abbott Robotham <abbott@example.com>")).isFalse();
        assertThat(Authors.isBot("")).isFalse();
        assertThat(Authors.isBot(null)).isFalse();
    }

    /** The type a history gives diffs of only tests is its people's habit: a bot's ten commits teach none. */
    @Test
    void aRepositorysHabitsAreCountedFromItsPeoplesCommitsOnly() {
        try (CpuEngine engine = new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, 1000);
            for (int i = 0; i < 2 * RepoStyle.KIND_COMMITS; i++) {
                boolean bot = i < RepoStyle.KIND_COMMITS;
                DiffedCommit d = TestDiffs.by(TestDiffs.change("r", String.format("%040x", i + 1), "WidgetTest",
                        "run" + i, bot ? "ci(deps): update test fixtures\n" : "test: cover widget retries\n", null),
                        bot ? "renovate[bot] <bot@renovateapp.com>" : "Ann <ann@example.com>");
                DiffFeatures f = DiffFeatures.of(d);
                memory.learn(d, f, memory.vector(f.terms()), d.commit().message());
                if (i == RepoStyle.KIND_COMMITS - 1) {
                    assertThat(memory.model().style.conventions().habitualType(PathKind.TEST)).as("bots only").isNull();
                }
            }
            assertThat(memory.model().style.conventions().habitualType(PathKind.TEST)).isEqualTo("test");
        }
    }
}
