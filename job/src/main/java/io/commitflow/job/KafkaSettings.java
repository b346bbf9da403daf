package io.commitflow.job;

import io.commitflow.event.Tenants;
import org.apache.flink.connector.base.DeliveryGuarantee;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Where the job reads and writes.
 *
 * @param properties       extra Kafka client properties for source and sinks (security settings, …)
 * @param fromEarliest     where a consumer group with no committed offsets starts: earliest, else latest
 * @param transactionTimeout the sinks' {@code transaction.timeout.ms}: longer than a checkpoint, shorter than
 *                         the broker's {@code transaction.max.timeout.ms} (15 min by default)
 * @param repliesTopic     where the suggestions for drafts go ({@code commitflow suggest} waits there), written at
 *                         once (at-least-once) whatever {@code delivery} says
 * @param requestsTopic    where {@code commitflow suggest} sends drafts: read by a source of their own, so that a
 *                         draft does not queue behind the events topic's learning traffic
 */
public record KafkaSettings(
        String bootstrap,
        String eventsTopic,
        String suggestionsTopic,
        String deadLetterTopic,
        String slaTopic,
        String groupId,
        boolean fromEarliest,
        DeliveryGuarantee delivery,
        String transactionalIdPrefix,
        Duration transactionTimeout,
        Map<String, String> properties,
        String repliesTopic,
        String requestsTopic) implements Serializable {

    /**
     * Checks the topic names: each one Kafka accepts, with at most one {@value Tenants#PLACEHOLDER}; and tenancy all
     * or nothing where clients read and write: when the events or requests topic is one per tenant, so are both of
     * them and the replies and dead-letter topics (a tenant's client reads those), else a tenant could name another
     * in a shared topic, or read another's answers. The suggestions and SLA topics may be either.
     */
    public KafkaSettings {
        Map<String, String> named = new java.util.LinkedHashMap<>();
        named.put("--events-topic", eventsTopic);
        named.put("--requests-topic", requestsTopic);
        named.put("--replies-topic", repliesTopic);
        named.put("--dlq-topic", deadLetterTopic);
        named.put("--suggestions-topic", suggestionsTopic);
        named.put("--sla-topic", slaTopic);
        named.forEach((flag, topic) -> {
            if (topic != null) {
                Tenants.checkTopic(flag, topic);
            }
        });
        boolean isolated = eventsTopic != null && Tenants.perTenant(eventsTopic)
                || requestsTopic != null && Tenants.perTenant(requestsTopic);
        if (isolated) {
            for (String flag : List.of("--events-topic", "--requests-topic", "--replies-topic", "--dlq-topic")) {
                String topic = named.get(flag);
                if (topic != null && !Tenants.perTenant(topic)) {
                    throw new IllegalArgumentException(flag + " " + topic + " is one topic for every tenant, but the "
                            + "events or requests topic is one per tenant: name it with " + Tenants.PLACEHOLDER
                            + " too (say " + topic + "." + Tenants.PLACEHOLDER + "), or tenants could write as, or "
                            + "read, one another");
                }
            }
        }
    }

    /** Whether each tenant has topics of its own, whose ACLs decide who writes and reads as whom. */
    public boolean perTenant() {
        return Tenants.perTenant(eventsTopic);
    }

    public static final String EVENTS_TOPIC = "commitflow.events";
    public static final String SUGGESTIONS_TOPIC = "commitflow.suggestions";
    public static final String DLQ_TOPIC = "commitflow.dlq";
    public static final String SLA_TOPIC = "commitflow.sla";
    public static final String REPLIES_TOPIC = "commitflow.replies";
    public static final String REQUESTS_TOPIC = "commitflow.requests";

    /** Settings whose drafts come on {@value #REQUESTS_TOPIC} and are answered on {@value #REPLIES_TOPIC}. */
    public KafkaSettings(String bootstrap, String eventsTopic, String suggestionsTopic, String deadLetterTopic,
                         String slaTopic, String groupId, boolean fromEarliest, DeliveryGuarantee delivery,
                         String transactionalIdPrefix, Duration transactionTimeout, Map<String, String> properties) {
        this(bootstrap, eventsTopic, suggestionsTopic, deadLetterTopic, slaTopic, groupId, fromEarliest, delivery,
                transactionalIdPrefix, transactionTimeout, properties, REPLIES_TOPIC, REQUESTS_TOPIC);
    }

    /** Property names whose values are secrets: never printed (Flink's own masking uses the same words). */
    private static final java.util.regex.Pattern SECRET =
            java.util.regex.Pattern.compile("(?i).*(password|secret|jaas|token|key|credential).*");

    /** Masks secret-looking properties: a record's toString would otherwise print {@code sasl.jaas.config}. */
    public static Map<String, String> masked(Map<String, String> properties) {
        Map<String, String> out = new java.util.TreeMap<>();
        properties.forEach((k, v) -> out.put(k, SECRET.matcher(k).matches() ? "******" : v));
        return out;
    }

    @Override
    public String toString() {
        return "KafkaSettings[bootstrap=" + bootstrap + ", eventsTopic=" + eventsTopic + ", suggestionsTopic="
                + suggestionsTopic + ", deadLetterTopic=" + deadLetterTopic  + ", slaTopic=" + slaTopic + ", requestsTopic=" + requestsTopic + ", repliesTopic=" + repliesTopic + ", groupId="
                + groupId + ", fromEarliest=" + fromEarliest + ", delivery=" + delivery + ", transactionalIdPrefix="
                + transactionalIdPrefix + ", transactionTimeout=" + transactionTimeout + ", properties="
                + masked(properties) + "]";
    }

    public static KafkaSettings defaults(String bootstrap) {
        return new KafkaSettings(bootstrap, EVENTS_TOPIC, SUGGESTIONS_TOPIC, DLQ_TOPIC, SLA_TOPIC, "commitflow", true,
                DeliveryGuarantee.EXACTLY_ONCE, "commitflow", Duration.ofMinutes(15), Map.of());
    }
}
