package io.commitflow.cli;

import picocli.CommandLine.Option;

/**
 * The job's events topic, for the commands that write to it or read it beside the job ({@code replay},
 * {@code push-event}, {@code mirror}): its description is the job's own ({@code commitflow.kafka.events-topic}), and
 * so is its default, config.yaml's value where the checkout's launcher reads one. {@code --topic} is the name replay
 * and push-event had for it. The gateway declares its own: there a {@code {tenant}} in the name is filled in per
 * request.
 */
final class EventsTopicOption {
    /** The job's own default where no default provider is set (the CLI distribution's commands read no config.yaml). */
    @Option(names = {"--events-topic", "--topic"}, paramLabel = "TOPIC", descriptionKey = "commitflow.kafka.events-topic")
    String name = io.commitflow.job.KafkaSettings.EVENTS_TOPIC;

    /**
     * The topic given, or the default.
     *
     * @throws UserError for a name with {@code {tenant}}: one topic per tenant is the job's and the gateway's to fill
     *                   in, and this command writes or reads one topic
     */
    String name() {
        if (name == null || name.isBlank()) {
            throw new UserError("--events-topic must name a topic");
        }
        if (name.contains("{tenant}")) {
            throw new UserError("--events-topic " + name + " names one topic per tenant: give this command the tenant's "
                    + "own topic (" + name.replace("{tenant}", "acme") + " for the tenant acme)");
        }
        return name;
    }
}
