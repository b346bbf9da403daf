package io.commitflow.suggest;

import io.commitflow.event.RepoKeys;
import io.commitflow.event.Suggestion;
import io.commitflow.git.DiffedCommit;
import io.commitflow.keys.RepoKeySelector;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.util.OutputTag;

/**
 * The suggest stage in a pipeline: diffs keyed by tenant into the {@link FleetMemory} (uid {@value FleetMemory#UID};
 * unless the settings turn the fleet off), then keyed by repository into one {@link SuggestOperator}, uid
 * {@value #UID}.
 *
 * <pre>{@code
 * DataStream<Suggestion> out = SuggestStage.attach(diffs, settings);
 * }</pre>
 */
public final class SuggestStage {
    /** The stage's uid: its keyed state (rows, caches, requests in flight) is restored by it. */
    public static final String UID = "suggest";
    public static final KeySelector<CommitWithFleet, String> BY_REPO = byRepo(RepoKeys.GLOBAL);

    /**
     * Suggestions for drafts ({@code "draft":true} events: staged changes that {@code commitflow suggest} asks about),
     * a side output of the stage: someone waits for them, so the job writes them at once (at-least-once) instead of
     * with the next checkpoint.
     */
    public static final OutputTag<Suggestion> DRAFTS = new OutputTag<>("draft-suggestions", TypeInformation.of(Suggestion.class));

    private SuggestStage() {}

    public static SingleOutputStreamOperator<Suggestion> attach(DataStream<DiffedCommit> diffs, SuggestSettings settings) {
        return attach(diffs, settings, RepoKeys.GLOBAL);
    }

    /** @param keys whose names repository names are: what the stage is keyed by */
    public static SingleOutputStreamOperator<Suggestion> attach(DataStream<DiffedCommit> diffs, SuggestSettings settings,
                                                                RepoKeys keys) {
        return attach(diffs, settings, new SuggestOperatorFactory(settings, EngineSource.FROM_SETTINGS, keys));
    }

    public static SingleOutputStreamOperator<Suggestion> attach(DataStream<DiffedCommit> diffs, SuggestSettings settings,
                                                                SuggestOperatorFactory operator) {
        TypeInformation<CommitWithFleet> type = TypeInformation.of(CommitWithFleet.class);
        DataStream<CommitWithFleet> toSuggest = settings.fleet()
                ? diffs.keyBy(FleetMemory.BY_TENANT).process(new FleetMemory(settings.fleetRows()), type)
                        .uid(FleetMemory.UID).name("fleet memory (per tenant)")
                : diffs.map(CommitWithFleet::alone, type).name("no fleet");
        return toSuggest.keyBy(byRepo(operator.keys()))
                .transform("suggest (index, batched retrieval, generator)", TypeInformation.of(Suggestion.class), operator)
                .uid(UID);
    }

    /** Keyed by the commit's repository, named as {@code keys} names it. */
    private static KeySelector<CommitWithFleet, String> byRepo(RepoKeys keys) {
        return RepoKeySelector.repository(keys, c -> c.diff().commit());
    }
}
