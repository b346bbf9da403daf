package io.commitflow.cli;

/** A problem the user can fix (a taken port, a path that is no repository); printed without a stack trace. */
final class UserError extends RuntimeException {
    UserError(String message) {
        super(message);
    }
}
