package io.commitflow.cli;

import picocli.CommandLine.Option;

import java.time.Duration;

/**
 * {@code --checkpoint-interval} of the runs that watch the job's output as it comes ({@code demo}, {@code loadtest}):
 * the exactly-once output becomes visible at each checkpoint, so they checkpoint more often than a cluster's
 * {@code config.yaml} does.
 */
final class CheckpointOption {
    @Option(names = "--checkpoint-interval", defaultValue = "1s", paramLabel = "DURATION",
            converter = io.commitflow.job.DurationConverter.class,
            description = "Checkpoint interval; the exactly-once output appears at each checkpoint (default: ${DEFAULT-VALUE}).")
    Duration interval;
}
