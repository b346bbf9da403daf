package io.commitflow.git;

import java.io.IOException;

/**
 * A commit's diff took longer than its budget's {@link DiffBudget#maxTime()}. An {@link IOException}, as the diff's
 * other failures are, so that a caller without a time limit (eval, the benches) never sees it; {@link DiffCommits}
 * turns it into the event's dead letter.
 */
public final class DiffTimeoutException extends IOException {
    public DiffTimeoutException(String message) {
        super(message);
    }
}
