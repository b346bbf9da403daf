package io.commitflow.suggest;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.Suggestion;
import io.commitflow.event.TestEvents;
import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;
import io.commitflow.ingest.DeadLetters;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.runtime.tasks.mailbox.Mail;
import org.apache.flink.streaming.runtime.tasks.mailbox.TaskMailbox;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One {@link SuggestOperator} in Flink's keyed test harness, on RocksDB. The test thread is the task thread: it runs
 * the mails the operator's workers send back ({@link #awaitOutputs}) and moves processing time ({@link #expire}).
 */
public final class StageHarness implements AutoCloseable {
    public final KeyedOneInputStreamOperatorTestHarness<String, CommitWithFleet, Suggestion> harness;

    public StageHarness(SuggestSettings settings) throws Exception {
        this(new SuggestOperatorFactory(settings));
    }

    public StageHarness(SuggestOperatorFactory factory) throws Exception {
        harness = new KeyedOneInputStreamOperatorTestHarness<>(factory, SuggestStage.BY_REPO, Types.STRING);
        harness.setStateBackend(new EmbeddedRocksDBStateBackend());
    }

    public StageHarness open() throws Exception {
        harness.open();
        harness.setStateTtlProcessingTime(0);
        return this;
    }

    public StageHarness restore(OperatorSubtaskState snapshot) throws Exception {
        harness.initializeState(snapshot);
        return open();
    }

    /** The commit's suggestion, once its answer is back. */
    public Suggestion suggest(DiffedCommit d) throws Exception {
        return suggest(CommitWithFleet.alone(d));
    }

    public Suggestion suggest(CommitWithFleet c) throws Exception {
        int before = outputs().size();
        send(c);
        return awaitOutputs(before + 1).get(before);
    }

    public void send(DiffedCommit d) throws Exception {
        send(CommitWithFleet.alone(d));
    }

    /** A commit as the fleet stage passes it on: with exemplars from its tenant's other repositories. */
    public void send(CommitWithFleet c) throws Exception {
        harness.processElement(c, c.diff().commit().origin().kafkaTs());
    }

    public List<Suggestion> outputs() {
        return harness.extractOutputValues();
    }

    /** The drafts' suggestions the operator sent to {@link SuggestStage#DRAFTS}. */
    public List<Suggestion> drafts() {
        return sideOutput(SuggestStage.DRAFTS);
    }

    private <T> List<T> sideOutput(org.apache.flink.util.OutputTag<T> tag) {
        List<T> out = new ArrayList<>();
        var q = harness.getSideOutput(tag);
        if (q != null) {
            q.forEach(r -> out.add(r.getValue()));
        }
        return out;
    }

    public void awaitDrafts(int n) throws Exception {
        runMailsUntil(() -> drafts().size() >= n, n + " drafts' suggestions");
    }

    /** {@code d} as a draft: a staged change asking for its message. */
    public static DiffedCommit asDraft(DiffedCommit d) {
        CommitEvent c = d.commit();
        CommitEvent draft = new CommitEvent(c.tenant(), c.repo(), c.sha(), c.parents(), c.author(), c.ts(), c.message(),
                c.patch(), c.traceId(), c.origin(), true);
        return new DiffedCommit(draft, d.files(), d.totalFiles(), d.linesAdded(), d.linesDeleted(), d.patch(), d.truncation(),
                d.source(), d.patchId());
    }

    /** The dead letters the operator sent to its side output. */
    public List<DeadLetter> deadLetters() {
        return sideOutput(DeadLetters.TAG);
    }

    /** Runs the operator's mails until it has emitted {@code n} suggestions in all (at most 20 s). */
    public List<Suggestion> awaitOutputs(int n) throws Exception {
        runMailsUntil(() -> outputs().size() >= n, n + " suggestions");
        return outputs();
    }

    public void awaitDeadLetters(int n) throws Exception {
        runMailsUntil(() -> deadLetters().size() >= n, n + " dead letters");
    }

    private void runMailsUntil(java.util.function.BooleanSupplier done, String what) throws Exception {
        TaskMailbox mailbox = harness.getTaskMailbox();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!done.getAsBoolean()) {
            Optional<Mail> mail = mailbox.tryTake(TaskMailbox.MIN_PRIORITY);
            if (mail.isPresent()) {
                mail.get().run();
            } else if (System.nanoTime() > deadline) {
                throw new AssertionError("waited 20 s for " + what + "; have " + outputs().size() + " suggestions and "
                        + deadLetters().size() + " dead letters");
            } else {
                Thread.sleep(1);
            }
        }
    }

    /** Moves processing time past every request's timeout: the CPU scan answers what is still in flight. */
    public void expire() throws Exception {
        harness.setProcessingTime(Long.MAX_VALUE / 2);
    }

    public OperatorSubtaskState snapshot(long id) throws Exception {
        return harness.snapshot(id, id);
    }

    @Override
    public void close() throws Exception {
        harness.close();
    }
}
