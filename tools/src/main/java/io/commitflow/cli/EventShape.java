package io.commitflow.cli;

import io.commitflow.replay.Events;
import picocli.CommandLine.Option;

/**
 * {@code --mode} and {@code --commits-per-push}, declared once for the commands that replay a history as events
 * ({@code replay}, {@code loadtest}): one commit event per commit, or push events as a Git server sends them.
 */
final class EventShape {
    @Option(names = "--mode", defaultValue = "commit", paramLabel = "commit|push",
            description = "commit: a commit event per commit; push: push events of --commits-per-push commits, as a "
                    + "Git server sends them (the job reads the commits from its mirror) (default: ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--commits-per-push", defaultValue = "3", paramLabel = "N",
            description = "Commits per push event in push mode (default: ${DEFAULT-VALUE}).")
    int perPush;

    /** The mode asked for. @throws UserError for an unknown mode, or fewer than one commit a push */
    Events.Mode mode() {
        if (perPush < 1) {
            throw new UserError("--commits-per-push must be at least 1");
        }
        try {
            return Events.Mode.parse(mode);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
    }
}
