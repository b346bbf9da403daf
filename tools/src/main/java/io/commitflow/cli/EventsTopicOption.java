package io.commitflow.cli;

import picocli.CommandLine.Option;

/**
 * The job's events topic, for the commands that write to it or read it beside the job ({@code replay},
 * {@code push-event}, {@code mirror}): its description and default are the job's own
 * ({@code commitflow.kafka.events-topic}, and config.yaml's value where it sets one). {@code --topic} is its older name.
 */
final class EventsTopicOption {
    @Option(names = {"--events-topic", "--topic"}, paramLabel = "TOPIC", descriptionKey = "commitflow.kafka.events-topic")
    String name;

    /** The topic given, else the job's default (a command line built without the job's defaults has none). */
    String name() {
        return name != null ? name : io.commitflow.job.JobConfig.KAFKA_EVENTS_TOPIC.defaultValue();
    }
}
