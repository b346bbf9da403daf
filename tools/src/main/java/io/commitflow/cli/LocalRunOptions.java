package io.commitflow.cli;

import picocli.CommandLine.Option;

import java.time.Duration;

/** The options of a run on a local Flink: the ports of its web UI and Prometheus endpoint, and its parallelism. */
public class LocalRunOptions {
    /** One local TaskManager's slots: beyond this the network buffers alone pass a gigabyte. */
    static final int MAX_PARALLELISM = 64;

    @Option(names = "--web-port", defaultValue = "8081", paramLabel = "PORT", description = "Flink web UI port (default: ${DEFAULT-VALUE}).")
    int webPort;

    @Option(names = "--metrics-port", defaultValue = "9249", paramLabel = "PORT",
            description = "Prometheus endpoint port (default: ${DEFAULT-VALUE}).")
    int metricsPort;

    @Option(names = "--parallelism", paramLabel = "N", description = "Job parallelism (default: half of this machine's "
            + "cores, at least 1: the Kafka broker and the load driver run beside the job and need the rest; on 2 cores "
            + "parallelism 1 holds more than 2, see docs/performance.md).")
    Integer parallelism;

    @Option(names = "--start-timeout", defaultValue = "2m", converter = io.commitflow.job.DurationConverter.class,
            paramLabel = "DURATION", description = "How long the job may take until all its tasks run; past it the run "
                    + "ends with the cause (tasks waiting for slots, or the exception that fails the job) and exit code 2 "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration startTimeout;

    /** The parallelism asked for, or half the cores. */
    int parallelism() {
        return parallelism != null ? parallelism : Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }

    /** @throws UserError when the parallelism is not positive or a port is taken */
    void check() {
        if (parallelism() < 1 || parallelism() > MAX_PARALLELISM) {
            throw new UserError("--parallelism must be from 1 to " + MAX_PARALLELISM + ", got " + parallelism());
        }
        if (startTimeout == null || startTimeout.isNegative() || startTimeout.isZero()) {
            throw new UserError("--start-timeout must be positive, got " + startTimeout);
        }
        for (int[] port : new int[][] {{webPort, 0}, {metricsPort, 1}}) {
            if (port[0] < 1 || port[0] > 65535) {
                throw new UserError((port[1] == 0 ? "--web-port" : "--metrics-port") + " must be a port from 1 to 65535, got "
                        + port[0]);
            }
        }
        if (webPort == metricsPort) {
            throw new UserError("--web-port and --metrics-port must differ, both are " + webPort);
        }
        LocalFlink.requireFreePort(webPort, "the Flink web UI", "--web-port");
        LocalFlink.requireFreePort(metricsPort, "the Prometheus endpoint", "--metrics-port");
    }

    /** These options, with the checkpoint interval of a run that watches its output as it comes. */
    LocalStack.Flink flink(Duration checkpointInterval) {
        return new LocalStack.Flink(webPort, metricsPort, parallelism(), checkpointInterval, startTimeout);
    }
}
