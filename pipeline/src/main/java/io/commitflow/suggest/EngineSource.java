package io.commitflow.suggest;

import io.commitflow.generate.FeatureSpace;
import io.commitflow.gpu.Engines;
import io.commitflow.gpu.RetrievalEngine;

import java.io.Serializable;

/**
 * Opens a task's retrieval engine when its {@link SuggestOperator} starts. The job uses {@link #FROM_SETTINGS}; a
 * test can hand the operator an engine of its own, such as one whose budget fills up after a few rows.
 */
@FunctionalInterface
public interface EngineSource extends Serializable {
    RetrievalEngine open(SuggestSettings settings);

    /** {@link Engines#open} with the settings' mode and device budget. */
    EngineSource FROM_SETTINGS = s -> Engines.open(s.engine(), FeatureSpace.DEFAULT_DIMENSION, s.deviceBudgetMiB() << 20);
}
