package io.commitflow.suggest;

import io.commitflow.event.RepoKeys;
import io.commitflow.event.Suggestion;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;

/** Makes each task's {@link SuggestOperator}, with the task's mailbox (as Flink's async operator gets it). */
public final class SuggestOperatorFactory extends AbstractStreamOperatorFactory<Suggestion>
        implements OneInputStreamOperatorFactory<CommitWithFleet, Suggestion> {
    private static final long serialVersionUID = 1L;

    private final SuggestSettings settings;
    private final EngineSource engines;
    private final RepoKeys keys;

    public SuggestOperatorFactory(SuggestSettings settings) {
        this(settings, EngineSource.FROM_SETTINGS);
    }

    public SuggestOperatorFactory(SuggestSettings settings, EngineSource engines) {
        this(settings, engines, RepoKeys.GLOBAL);
    }

    /** @param keys whose names repository names are: the keys of the operator's keyed state and index */
    public SuggestOperatorFactory(SuggestSettings settings, EngineSource engines, RepoKeys keys) {
        this.settings = settings;
        this.engines = engines;
        this.keys = keys;
    }

    public RepoKeys keys() {
        return keys;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends StreamOperator<Suggestion>> T createStreamOperator(StreamOperatorParameters<Suggestion> parameters) {
        return (T) new SuggestOperator(parameters, settings, engines, keys);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class<? extends StreamOperator> getStreamOperatorClass(ClassLoader classLoader) {
        return SuggestOperator.class;
    }
}
