package io.commitflow.cli;

import io.commitflow.job.KafkaSettings;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the job takes drafts and answers them, for {@code suggest} and the hook {@code install-hook} sets up: each
 * given, else the repository's git config ({@code commitflow.requestsTopic}, {@code repliesTopic}, {@code dlqTopic}),
 * else the job's defaults. A name with {@code {tenant}} is one topic per tenant, filled in with the client's tenant.
 */
final class DraftTopicOptions {
    private static final String GIT_CONFIG = "git config commitflow.";

    @Option(names = "--requests-topic", paramLabel = "TOPIC",
            description = "The job's requests topic, where drafts go; {tenant} in the name stands for the tenant where "
                    + "each has topics of its own (default: " + GIT_CONFIG + "requestsTopic, else "
                    + KafkaSettings.REQUESTS_TOPIC + "; the events topic works too, behind its traffic).")
    String requests;

    @Option(names = "--replies-topic", paramLabel = "TOPIC", description = "The job's replies topic (default: "
            + GIT_CONFIG + "repliesTopic, else " + KafkaSettings.REPLIES_TOPIC + ").")
    String replies;

    @Option(names = "--dlq-topic", paramLabel = "TOPIC", description = "The job's dead-letter topic, where a refused "
            + "draft is explained (default: " + GIT_CONFIG + "dlqTopic, else " + KafkaSettings.DLQ_TOPIC + ").")
    String deadLetters;

    /**
     * The tenant's topics: each option given, else {@code gitConfig}'s value (its keys in lower case, as git prints
     * them), else the job's default.
     *
     * @throws UserError when a name is not a topic, or the requests topic is one per tenant and another is not
     */
    DraftClient.Topics resolve(String tenant, Map<String, String> gitConfig) {
        return DraftClient.Topics.of(tenant,
                or(requests, gitConfig.get("commitflow.requeststopic"), KafkaSettings.REQUESTS_TOPIC),
                or(replies, gitConfig.get("commitflow.repliestopic"), KafkaSettings.REPLIES_TOPIC),
                or(deadLetters, gitConfig.get("commitflow.dlqtopic"), KafkaSettings.DLQ_TOPIC));
    }

    /** The options under their git config keys, null where not given. */
    Map<String, String> gitConfig() {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("commitflow.requestsTopic", requests);
        out.put("commitflow.repliesTopic", replies);
        out.put("commitflow.dlqTopic", deadLetters);
        return out;
    }

    private static String or(String given, String configured, String fallback) {
        return given != null ? given : configured != null && !configured.isBlank() ? configured : fallback;
    }
}
