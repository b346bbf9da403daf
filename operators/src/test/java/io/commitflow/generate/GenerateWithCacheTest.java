package io.commitflow.generate;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.Suggestion;
import io.commitflow.event.TestEvents;
import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The result cache: a cherry-pick or rebase (same patch-id) reuses the first suggestion. */
class GenerateWithCacheTest {
    private static final Duration TTL = Duration.ofHours(24);
    private static final String PATCH_ID = "1234567890abcdef1234567890abcdef12345678";
    static final AtomicInteger GENERATED = new AtomicInteger();

    /** Counts its calls, so that a hit can be shown to skip generation. */
    static final class Counting implements Generator {
        @Override
        public Draft generate(DiffedCommit diff) {
            GENERATED.incrementAndGet();
            return new TemplateGenerator().generate(diff);
        }
    }

    private KeyedOneInputStreamOperatorTestHarness<String, DiffedCommit, Suggestion> harness;

    @BeforeEach
    void open() throws Exception {
        GENERATED.set(0);
        harness = new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new GenerateWithCache(new Counting(), TTL)), GenerateWithCache.KEY, Types.STRING);
        harness.setStateBackend(new EmbeddedRocksDBStateBackend());
        harness.open();
        harness.setStateTtlProcessingTime(0);
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    private static DiffedCommit diff(String repo, String sha, String patchId, String path) {
        CommitEvent c = TestEvents.commit(repo, sha);
        return DiffedCommit.of(c, List.of(new FileChange("MODIFY", path, path, false, 3, 1, 0, "100644", "100644")),
                1, "", "", "mirror", patchId);
    }

    @Test
    void reusesTheSuggestionForACherryPick() throws Exception {
        harness.processElement(diff("app", "a".repeat(40), PATCH_ID, "src/Widget.java"), 0);
        // the cherry-pick: same change, another commit (its generated subject would differ: another path)
        harness.processElement(diff("app", "b".repeat(40), PATCH_ID, "src/Other.java"), 0);

        List<Suggestion> out = harness.extractOutputValues();
        assertThat(out).extracting(Suggestion::cache).containsExactly("miss", "hit");
        assertThat(out.get(1).subject()).isEqualTo(out.get(0).subject()).isEqualTo("Update Widget");
        assertThat(out.get(1).sha()).isEqualTo("b".repeat(40));
        assertThat(out.get(1).exemplars()).containsExactly("a".repeat(40));
        assertThat(GENERATED).hasValue(1);
    }

    @Test
    void keepsRepositoriesApart() throws Exception {
        harness.processElement(diff("app", "a".repeat(40), PATCH_ID, "x.c"), 0);
        harness.processElement(diff("fork", "b".repeat(40), PATCH_ID, "x.c"), 0);

        assertThat(harness.extractOutputValues()).extracting(Suggestion::cache).containsExactly("miss", "miss");
    }

    @Test
    void neverCachesCommitsWithoutPatchId() throws Exception {
        harness.processElement(diff("app", "a".repeat(40), null, "x.c"), 0);
        harness.processElement(diff("app", "a".repeat(40), null, "x.c"), 0);

        assertThat(harness.extractOutputValues()).extracting(Suggestion::cache).containsExactly("miss", "miss");
        assertThat(GENERATED).hasValue(2);
    }

    @Test
    void forgetsAfterTheTtl() throws Exception {
        harness.processElement(diff("app", "a".repeat(40), PATCH_ID, "x.c"), 0);
        harness.setStateTtlProcessingTime(TTL.toMillis() - 1);
        harness.processElement(diff("app", "b".repeat(40), PATCH_ID, "x.c"), 0);
        harness.setStateTtlProcessingTime(2 * TTL.toMillis());
        harness.processElement(diff("app", "c".repeat(40), PATCH_ID, "x.c"), 0);

        assertThat(harness.extractOutputValues()).extracting(Suggestion::cache).containsExactly("miss", "hit", "miss");
    }
}
