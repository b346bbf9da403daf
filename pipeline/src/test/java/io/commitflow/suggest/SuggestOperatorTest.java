package io.commitflow.suggest;

import io.commitflow.event.Reason;
import io.commitflow.event.Suggestion;
import io.commitflow.generate.RetrievalGenerator;
import io.commitflow.generate.TestDiffs;
import io.commitflow.git.DiffedCommit;
import io.commitflow.gpu.EngineMode;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.commitflow.generate.TestDiffs.change;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The suggest operator in Flink's keyed harness on RocksDB: result cache, retrieval from what it learned, bounded
 * memory, and the same answer however and whenever a request is answered — by a batch, by the CPU scan after its
 * timeout, after a restore with the request in flight, or after the engine failed.
 */
class SuggestOperatorTest {
    static final SuggestSettings CPU = SuggestSettings.DEFAULT.withEngine(EngineMode.CPU).withHistory(100);
    /** Batches never fill and never time out: requests stay in flight until their own timeout hands them to the scan. */
    static final SuggestSettings HELD = CPU.withBatching(10_000, Duration.ofHours(1)).withTimeout(Duration.ofHours(1));

    private static final String[][] HISTORY = {
        {"PackWriter", "writePack", "PackWriter: Retry writing the pack"},
        {"RefUpdate", "update", "RefUpdate: Retry locking the ref"},
        {"DirCache", "lock", "DirCache: Retry taking the lock"},
        {"PackWriter", "writeIndex", "PackWriter: Write the index in one pass"},
        {"Config", "load", "Config: Load included files once"},
    };

    private static final String ANN = "Ann <ann@example.com>";
    private static final String BOB = "Bob <bob@example.com>";

    private static DiffedCommit learned(int i) {
        return change("app", String.valueOf((char) ('a' + i)).repeat(40), HISTORY[i][0], HISTORY[i][1],
                HISTORY[i][2] + "\n", null);
    }

    private static DiffedCommit query(String cls, String method) {
        return change("app", "f".repeat(40), cls, method, null, null);
    }

    private static void assertSame(Suggestion actual, Suggestion expected) {
        assertThat(actual).usingRecursiveComparison().ignoringFields("latencyMs", "madeMs").isEqualTo(expected);
    }

    @Test
    void learnsTheRepositorysStyleAndReusesItsNearestSubject() throws Exception {
        try (StageHarness s = new StageHarness(CPU).open()) {
            for (int i = 0; i < 3; i++) {
                s.suggest(learned(i));
            }
            Suggestion out = s.suggest(query("PackWriter", "writeIndex"));

            assertThat(out.backend()).isEqualTo("retrieval");
            assertThat(out.subject()).startsWith("PackWriter: Retry");
            assertThat(out.similarity()).isGreaterThan(0.3);
            assertThat(out.exemplars()).first().isEqualTo("a".repeat(40));
            assertThat(out.cache()).isEqualTo("miss");
        }
    }

    @Test
    void writesAsShortAsTheRepositorysOwnSubjectsUnlessTheJobSetsAFloor() throws Exception {
        String[][] terse = {{"PackWriter", "writePack", "Retry packs"}, {"RefUpdate", "update", "Retry refs"},
            {"DirCache", "lock", "Retry locks"}};
        for (SuggestSettings settings : new SuggestSettings[] {CPU, CPU.withMinSubjectChars(20)}) {
            try (StageHarness s = new StageHarness(settings).open()) {
                for (int i = 0; i < terse.length; i++) {
                    s.suggest(change("app", String.valueOf((char) ('a' + i)).repeat(40), terse[i][0], terse[i][1],
                            terse[i][2] + "\n", null));
                }
                String subject = s.suggest(query("PackWriter", "writeIndex")).subject();
                if (settings.minSubjectChars() == 0) {
                    assertThat(subject).as("the history's own length").isEqualTo("Retry packs");
                } else {
                    assertThat(subject).as("padded to the job's floor").startsWith("Retry packs in ").hasSizeBetween(20, 72);
                }
            }
        }
    }

    /**
     * The fleet stage's output into the suggest stage: a repository that has learned nothing writes from its tenant's
     * other repository's commit on the same file; once it has learned {@value RetrievalGenerator#YOUNG} commits the
     * fleet's exemplars no longer count.
     */
    @Test
    void aYoungRepositoryWritesFromItsFleetAndAGrownOneFromItsOwnHistory() throws Exception {
        var fleetStage = FleetMemoryTest.harness();
        try (fleetStage; StageHarness s = new StageHarness(CPU).open()) {
            fleetStage.open();
            fleetStage.processElement(change("tools", "1".repeat(40), "Widget", "run", "Retry widget runs when busy\n",
                    null), 0);
            DiffedCommit ask = change("web", "2".repeat(40), "Widget", "run", null, null);
            fleetStage.processElement(ask, 0);
            List<CommitWithFleet> passed = fleetStage.extractOutputValues();

            Suggestion young = s.suggest(passed.get(1));
            assertThat(young.exemplars()).first().isEqualTo("1".repeat(40));
            assertThat(young.subject()).startsWith("Retry widget runs when busy");
            assertThat(s.suggest(CommitWithFleet.alone(ask)).exemplars()).as("without the fleet")
                    .doesNotContain("1".repeat(40));

            for (int i = 0; i < RetrievalGenerator.YOUNG; i++) {
                s.suggest(change("web", String.format("%040d", i), "Scheduler" + i, "plan", "Plan slots lazily\n", null));
            }
            DiffedCommit later = change("web", "3".repeat(40), "Widget", "run", null, null);
            assertThat(s.suggest(new CommitWithFleet(later, null, passed.get(1).fleet())).exemplars())
                    .doesNotContain("1".repeat(40));
        }
    }

    @Test
    void answersADraftOnItsOwnOutputAndNeitherLearnsNorCachesIt() throws Exception {
        try (StageHarness s = new StageHarness(CPU).open()) {
            s.suggest(learned(0));
            s.suggest(learned(1));
            // a draft that (against the parser's rules) carries a message: still not learned from
            DiffedCommit draft = StageHarness.asDraft(change("app", "d".repeat(40), "PackWriter", "writeIndex",
                    "Draft: Must not be learned\n", "9".repeat(40)));
            s.send(draft);
            s.awaitDrafts(1);

            Suggestion reply = s.drafts().get(0);
            assertThat(s.outputs()).as("not on the suggestions' output").hasSize(2);
            assertThat(reply.traceId()).isEqualTo(draft.commit().traceId());
            assertThat(reply.subject()).startsWith("PackWriter: Retry");
            assertThat(reply.exemplars()).first().isEqualTo("a".repeat(40));
            assertThat(reply.alternatives()).as("the other subjects a developer may pick").isNotEmpty()
                    .doesNotContain(reply.subject()).doesNotHaveDuplicates().hasSizeLessThanOrEqualTo(4);

            Suggestion later = s.suggest(change("app", "e".repeat(40), "PackWriter", "writeIndex", null, "9".repeat(40)));
            assertThat(later.cache()).as("the draft's message was not cached under its patch-id").isEqualTo("miss");
            assertThat(later.exemplars()).as("nor learned as a row").doesNotContain("d".repeat(40));
            assertThat(later.subject()).doesNotContain("Must not be learned");
            assertThat(later.alternatives()).as("a commit's suggestion lists none").isEmpty();
        }
    }

    @Test
    void givesACherryPickTheOriginalsMessage() throws Exception {
        try (StageHarness s = new StageHarness(CPU).open()) {
            s.suggest(change("app", "a".repeat(40), "Widget", "run", "Widget: Handle retries\n\nRetry twice.\n", "9".repeat(40)));
            Suggestion pick = s.suggest(change("app", "b".repeat(40), "Widget", "run", null, "9".repeat(40)));

            assertThat(pick.cache()).isEqualTo("hit");
            assertThat(pick.backend()).isEqualTo("cache");
            assertThat(pick.subject()).isEqualTo("Widget: Handle retries");
            assertThat(pick.body()).isEqualTo("Retry twice.");
            assertThat(pick.exemplars()).containsExactly("a".repeat(40));
            assertThat(s.suggest(change("fork", "c".repeat(40), "Widget", "run", null, "9".repeat(40))).cache())
                    .as("another repository's cache is its own").isEqualTo("miss");
        }
    }

    @Test
    void aCherryPickKeepsItsShortRealSubjectUnlessTheJobSetsAFloor() throws Exception {
        for (SuggestSettings settings : new SuggestSettings[] {CPU, CPU.withMinSubjectChars(30)}) {
            try (StageHarness s = new StageHarness(settings).open()) {
                s.suggest(change("app", "a".repeat(40), "Widget", "run", "Retry twice\n", "9".repeat(40)));
                Suggestion pick = s.suggest(change("app", "b".repeat(40), "Widget", "run", null, "9".repeat(40)));

                assertThat(pick.cache()).isEqualTo("hit");
                if (settings.minSubjectChars() == 0) {
                    assertThat(pick.subject()).as("as its author wrote it").isEqualTo("Retry twice");
                } else {
                    assertThat(pick.subject()).as("held to the job's floor").startsWith("Retry twice ")
                            .hasSizeBetween(30, 72);
                }
            }
        }
    }

    @Test
    void forgetsCachedSuggestionsAfterTheTtl() throws Exception {
        try (StageHarness s = new StageHarness(CPU).open()) {
            s.suggest(change("app", "a".repeat(40), "Widget", "run", "x\n", "9".repeat(40)));
            s.harness.setStateTtlProcessingTime(CPU.cacheTtl().toMillis() + 1);

            assertThat(s.suggest(change("app", "b".repeat(40), "Widget", "run", null, "9".repeat(40))).cache()).isEqualTo("miss");
        }
    }

    @Test
    void keepsAtMostItsHistoryForgettingTheOldestFirst() throws Exception {
        // the rows it draws on, however little alike: no reuse floor
        try (StageHarness s = new StageHarness(CPU.withHistory(2).withReuseFloor(0)).open()) {
            s.suggest(change("app", "a".repeat(40), "Alpha", "one", "Alpha: Retry first\n", null));
            s.suggest(change("app", "b".repeat(40), "Beta", "two", "Beta: Retry second\n", null));
            s.suggest(change("app", "c".repeat(40), "Gamma", "three", "Gamma: Retry third\n", null));

            Suggestion out = s.suggest(change("app", "d".repeat(40), "Alpha", "one", null, null));

            assertThat(out.exemplars()).doesNotContain("a".repeat(40)).contains("b".repeat(40), "c".repeat(40));
        }
    }

    /**
     * The stage learns its ranking as it learns commits, and keeps it through a checkpoint: Ann and Bob describe the
     * same kind of change each in their own words, Bob twice as often, and Ann's next commit is written in hers (with
     * the default weights, the neighbours' consensus writes Bob's: {@code RankerChoiceTest}).
     */
    @Test
    void learnsWhichWeightsTheRepositoryRewardsAndKeepsThemThroughACheckpoint() throws Exception {
        OperatorSubtaskState snapshot;
        DiffedCommit next = TestDiffs.by(change("app", "f".repeat(40), "Widget", "run3", null, null), ANN);
        try (StageHarness s = new StageHarness(CPU).open()) {
            for (int i = 0; i < 60; i++) {
                boolean ann = i % 3 == 0;
                s.suggest(TestDiffs.by(change("app", String.format("%040x", i + 1), "Widget", "run" + (i % 7),
                        ann ? "Make retries configurable\n" : "Harden the retry loop\n", null), ann ? ANN : BOB));
            }
            snapshot = s.snapshot(1);
            assertThat(s.suggest(next).subject()).isEqualTo("Make retries configurable");
        }
        try (StageHarness restored = new StageHarness(CPU).restore(snapshot)) {
            assertThat(restored.suggest(next).subject()).isEqualTo("Make retries configurable");
        }
    }

    @Test
    void answersTheSameAfterRestoringFromACheckpoint() throws Exception {
        OperatorSubtaskState snapshot;
        Suggestion live;
        try (StageHarness s = new StageHarness(CPU).open()) {
            s.suggest(learned(0));
            s.suggest(learned(1));
            snapshot = s.snapshot(1);
            live = s.suggest(query("PackWriter", "writeIndex"));
        }
        try (StageHarness restored = new StageHarness(CPU).restore(snapshot)) {
            assertSame(restored.suggest(query("PackWriter", "writeIndex")), live);
        }
    }

    @Test
    void aRequestAnsweredLateSeesOnlyTheRowsOfItsWindow() throws Exception {
        DiffedCommit later = change("app", "e".repeat(40), "PackWriter", "writeIndex", "PackWriter: Speed up writing the index\n", null);
        Suggestion atOnce;
        try (StageHarness s = new StageHarness(CPU).open()) {
            s.suggest(learned(0));
            s.suggest(learned(1));
            atOnce = s.suggest(query("PackWriter", "writeIndex"));
        }
        try (StageHarness s = new StageHarness(HELD).open()) {
            s.send(learned(0));
            s.send(learned(1));
            s.send(query("PackWriter", "writeIndex"));
            // a later commit, nearer to the request than anything before it, is learned while the request waits
            s.send(later);
            s.expire();
            List<Suggestion> out = s.awaitOutputs(4);

            Suggestion late = out.stream().filter(x -> x.sha().equals("f".repeat(40))).findFirst().orElseThrow();
            assertSame(late, atOnce);
            assertThat(late.exemplars()).doesNotContain("e".repeat(40));
        }
    }

    @Test
    void theCpuScanAfterATimeoutAnswersAsTheEngineDoes() throws Exception {
        List<Suggestion> byEngine = new ArrayList<>();
        List<Suggestion> byScan;
        try (StageHarness s = new StageHarness(CPU).open()) {
            for (int i = 0; i < HISTORY.length; i++) {
                s.suggest(learned(i));
            }
            for (String[] h : HISTORY) {
                byEngine.add(s.suggest(query(h[0], h[1] + "Again")));
            }
        }
        try (StageHarness s = new StageHarness(HELD).open()) {
            for (int i = 0; i < HISTORY.length; i++) {
                s.send(learned(i));
            }
            for (String[] h : HISTORY) {
                s.send(query(h[0], h[1] + "Again"));
            }
            s.expire();
            byScan = s.awaitOutputs(2 * HISTORY.length).subList(HISTORY.length, 2 * HISTORY.length);
        }
        assertThat(byScan).hasSize(HISTORY.length);
        for (int i = 0; i < HISTORY.length; i++) {
            assertSame(byScan.get(i), byEngine.get(i));
        }
    }

    @Test
    void requestsInFlightAtACheckpointAreAnsweredAfterRestoreAsIfNothingHappened() throws Exception {
        List<DiffedCommit> commits = List.of(learned(0), change("lib", "b".repeat(40), "RefUpdate", "update",
                "RefUpdate: Retry locking the ref\n", null), learned(3), query("PackWriter", "writeIndex"));
        List<Suggestion> reference = new ArrayList<>();
        try (StageHarness s = new StageHarness(CPU).open()) {
            for (DiffedCommit c : commits) {
                reference.add(s.suggest(c));
            }
        }
        OperatorSubtaskState snapshot;
        try (StageHarness s = new StageHarness(HELD).open()) {
            for (DiffedCommit c : commits) {
                s.send(c);
            }
            snapshot = s.snapshot(1);
            assertThat(s.outputs()).as("all four still in flight at the checkpoint").isEmpty();
        }
        try (StageHarness restored = new StageHarness(CPU).restore(snapshot)) {
            List<Suggestion> out = restored.awaitOutputs(commits.size());
            for (Suggestion expected : reference) {
                assertSame(out.stream().filter(x -> x.sha().equals(expected.sha())).findFirst().orElseThrow(), expected);
            }
            // the restored requests were written at the checkpoint and are forgotten at the next one
            restored.snapshot(2);
        }
    }

    /** The flaky engine's faults to come, and those it made: static, as the engine is made in the operator. */
    static final AtomicInteger FAILURES = new AtomicInteger();
    static final AtomicInteger FAILED = new AtomicInteger();

    /** What the CPU engine suggests for the PackWriter query after learning the first two commits. */
    private static Suggestion onTheCpuEngine() throws Exception {
        try (StageHarness s = new StageHarness(CPU).open()) {
            s.suggest(learned(0));
            s.suggest(learned(1));
            return s.suggest(query("PackWriter", "writeIndex"));
        }
    }

    @Test
    void aFailingEngineIsRetriedThenTheCpuScanAnswersTheSame() throws Exception {
        Suggestion expected = onTheCpuEngine();
        SuggestOperatorFactory factory = new SuggestOperatorFactory(CPU.withBatching(1, Duration.ZERO), x -> TestEngines.flaky(FAILURES, FAILED));
        try (StageHarness s = new StageHarness(factory).open()) {
            FAILURES.set(0);
            s.suggest(learned(0));
            s.suggest(learned(1));
            FAILED.set(0);
            FAILURES.set(2);
            assertSame(s.suggest(query("PackWriter", "writeIndex")), expected);
            assertThat(FAILED).as("two failures, then the engine answered").hasValue(2);

            FAILURES.set(3);
            assertSame(s.suggest(query("PackWriter", "writeIndex")), expected);
            assertThat(FAILED).as("three more failures: the retries are spent and the CPU scan answers").hasValue(5);
        }
    }

    static final AtomicInteger STICKY = new AtomicInteger();
    static final AtomicInteger STICKY_CALLS = new AtomicInteger();

    @Test
    void aStickyDeviceErrorLosesTheEngineAndTheCpuScanAnswersWithoutRetries() throws Exception {
        Suggestion expected = onTheCpuEngine();
        SuggestOperatorFactory factory = new SuggestOperatorFactory(CPU.withBatching(1, Duration.ZERO),
                x -> TestEngines.sticky(STICKY, STICKY_CALLS));
        try (StageHarness s = new StageHarness(factory).open()) {
            STICKY.set(0);
            s.suggest(learned(0));
            s.suggest(learned(1));
            STICKY_CALLS.set(0);
            STICKY.set(1_000); // the context is corrupt: every call would fail from now on
            assertSame(s.suggest(query("PackWriter", "writeIndex")), expected);
            assertThat(STICKY_CALLS).as("one call, no retries against a dead context").hasValue(1);

            assertSame(s.suggest(query("PackWriter", "writeIndex")), expected);
            // learning goes on: the repository leaves the lost engine and keeps its rows for the scan
            assertThat(s.suggest(learned(2)).subject()).isNotBlank();
            assertThat(s.suggest(query("DirCache", "lock")).subject()).isNotBlank();
            assertThat(STICKY_CALLS).as("nothing reaches the lost engine again").hasValue(1);
        }
    }

    @Test
    void aSuggestionThatCannotBeWrittenBecomesADeadLetterAndTheStageGoesOn() throws Exception {
        try (StageHarness s = new StageHarness(new SuggestOperatorFactory(CPU, x -> TestEngines.corrupt())).open()) {
            s.send(learned(0));
            s.send(learned(1));
            s.send(query("PackWriter", "writeIndex"));
            s.awaitDeadLetters(3);

            assertThat(s.deadLetters()).extracting(d -> d.reason()).containsOnly(Reason.GENERATION_FAILED.name());
            assertThat(s.deadLetters()).extracting(d -> d.sha())
                    .containsExactlyInAnyOrder("a".repeat(40), "b".repeat(40), "f".repeat(40));
            assertThat(s.outputs()).isEmpty();
            // the ranker's lookup before learning the second commit failed too (the first met an empty memory): counted
            assertThat(((SuggestOperator) s.harness.getOperator()).metrics().rankerObservationsSkipped()).isEqualTo(1);
        }
    }
}
