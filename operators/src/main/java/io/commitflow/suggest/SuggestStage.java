package io.commitflow.suggest;

import io.commitflow.event.Suggestion;
import io.commitflow.git.DiffedCommit;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.util.OutputTag;

/**
 * The suggest stage in a pipeline: diffs keyed by repository into one {@link SuggestOperator}, uid {@value #UID}.
 *
 * <pre>{@code
 * DataStream<Suggestion> out = SuggestStage.attach(diffs, settings);
 * }</pre>
 */
public final class SuggestStage {
    /** The stage's uid: its keyed state (rows, caches, requests in flight) is restored by it. */
    public static final String UID = "suggest";
    public static final KeySelector<DiffedCommit, String> BY_REPO = new ByRepo();

    /**
     * Suggestions for drafts ({@code "draft":true} events: staged changes that {@code commitflow suggest} asks about),
     * a side output of the stage: someone waits for them, so the job writes them at once (at-least-once) instead of
     * with the next checkpoint.
     */
    public static final OutputTag<Suggestion> DRAFTS = new OutputTag<>("draft-suggestions", TypeInformation.of(Suggestion.class));

    private SuggestStage() {}

    public static SingleOutputStreamOperator<Suggestion> attach(DataStream<DiffedCommit> diffs, SuggestSettings settings) {
        return attach(diffs, new SuggestOperatorFactory(settings));
    }

    public static SingleOutputStreamOperator<Suggestion> attach(DataStream<DiffedCommit> diffs,
                                                                SuggestOperatorFactory operator) {
        return diffs.keyBy(BY_REPO)
                .transform("suggest (index, batched retrieval, generator)", TypeInformation.of(Suggestion.class), operator)
                .uid(UID);
    }

    private static final class ByRepo implements KeySelector<DiffedCommit, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(DiffedCommit d) {
            return d.commit().repo();
        }
    }
}
