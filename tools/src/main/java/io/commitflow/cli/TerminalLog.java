package io.commitflow.cli;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.filter.AbstractFilterable;
import org.apache.logging.log4j.core.filter.DenyAllFilter;

/**
 * The log lines a local run shows on the terminal ({@code flink-conf/log4j-cli.properties}: errors on the terminal
 * through the appender named {@value #CONSOLE}, everything in the log file).
 *
 * <p>Cancelling the local job races with Flink's own background work: the Kafka source's partition discovery,
 * fired every {@link io.commitflow.job.KafkaIO#REQUESTS_DISCOVERY_MS} ms, can find its admin client closing and
 * log an ERROR with a stack trace ("Triggering job failover") for a job that is already going away. Nothing is lost
 * and the run has already said "done", so once the stack starts tearing down the terminal shows no more log lines;
 * the log file still gets every one of them.
 */
final class TerminalLog {
    /** The name of the terminal's appender in {@code log4j-cli.properties}. */
    static final String CONSOLE = "console";

    private TerminalLog() {}

    /**
     * Stops the terminal's appender from showing anything more, in this JVM's logging; does nothing where log4j is
     * not the logging backend or no appender is named {@value #CONSOLE} (the tests' own configuration).
     */
    static void quiet() {
        try {
            if (LogManager.getContext(false) instanceof LoggerContext context) {
                quiet(context);
            }
        } catch (LinkageError e) {
            // log4j-core is not on the class path: nothing of ours prints log lines to the terminal
        }
    }

    /** Denies every further event at the appender named {@value #CONSOLE} of {@code context}, if it has one. */
    static boolean quiet(LoggerContext context) {
        Appender console = context.getConfiguration().getAppender(CONSOLE);
        if (console instanceof AbstractFilterable filterable) {
            filterable.addFilter(DenyAllFilter.newBuilder().build());
            return true;
        }
        return false;
    }
}
