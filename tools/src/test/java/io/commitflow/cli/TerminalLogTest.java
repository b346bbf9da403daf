package io.commitflow.cli;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.NullConfiguration;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

class TerminalLogTest {

    /** An appender that keeps each message it is given. */
    private static final class Capture extends AbstractAppender {
        final List<String> messages = new CopyOnWriteArrayList<>();

        Capture(String name) {
            super(name, null, null, true, Property.EMPTY_ARRAY);
        }

        @Override
        public void append(LogEvent event) {
            messages.add(event.getMessage().getFormattedMessage());
        }
    }

    private static LoggerContext contextWith(Capture... appenders) {
        LoggerContext context = new LoggerContext("terminal-log-test");
        Configuration conf = new NullConfiguration();
        context.start(conf);
        // a started configuration without appenders gets log4j's default console: not part of this test
        for (String name : List.copyOf(conf.getRootLogger().getAppenders().keySet())) {
            conf.getRootLogger().removeAppender(name);
        }
        for (Capture a : appenders) {
            a.start();
            conf.addAppender(a);
            conf.getRootLogger().addAppender(a, Level.ALL, null);
        }
        conf.getRootLogger().setLevel(Level.ALL);
        context.updateLoggers();
        return context;
    }

    @Test
    void quietTerminalShowsNothingMoreWhileTheLogFileKeepsEverything() {
        Capture console = new Capture(TerminalLog.CONSOLE);
        Capture file = new Capture("file");
        LoggerContext context = contextWith(console, file);
        try {
            var coordinator = context.getLogger("org.apache.flink.runtime.source.coordinator.SourceCoordinatorContext");
            coordinator.error("before the teardown");

            assertThat(TerminalLog.quiet(context)).isTrue();
            coordinator.error("Triggering job failover");
            coordinator.fatal("even this");

            assertThat(console.messages).containsExactly("before the teardown");
            assertThat(file.messages).containsExactly("before the teardown", "Triggering job failover", "even this");
        } finally {
            context.stop();
        }
    }

    @Test
    void withoutATerminalAppenderNothingChanges() {
        Capture file = new Capture("file");
        LoggerContext context = contextWith(file);
        try {
            assertThat(TerminalLog.quiet(context)).isFalse();
            context.getLogger("x").error("kept");
            assertThat(file.messages).containsExactly("kept");
        } finally {
            context.stop();
        }
    }
}
