package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;

import java.io.Serializable;

/** Writes a message for a diffed commit. Implementations are deterministic: the same input gives the same draft. */
public interface Generator extends Serializable {
    Draft generate(DiffedCommit diff);
}
