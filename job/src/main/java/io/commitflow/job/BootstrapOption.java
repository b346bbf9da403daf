package io.commitflow.job;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code --bootstrap}, declared once for every command that talks to Kafka: the job's flags and the command line's
 * own commands mix it in. Its description is {@link JobConfig#KAFKA_BOOTSTRAP}'s. Whether a command needs it, and
 * what it falls back to, is the command's to say.
 */
public final class BootstrapOption {
    @Option(names = "--bootstrap", paramLabel = "HOST:PORT[,…]", descriptionKey = "commitflow.kafka.bootstrap")
    String servers;

    /**
     * The servers given, for a command that cannot run without them.
     *
     * @throws ParameterException as picocli throws it for a missing required option, reported the same way
     */
    public String required(CommandSpec spec) {
        if (servers() == null) {
            throw new ParameterException(spec.commandLine(), "Missing required option: '--bootstrap=HOST:PORT[,…]'");
        }
        return servers;
    }

    /** The servers given, or null. */
    public String servers() {
        return servers == null || servers.isBlank() ? null : servers;
    }
}
