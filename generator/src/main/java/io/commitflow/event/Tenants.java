package io.commitflow.event;

import java.io.Serializable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a tenant's records live. A topic name may hold the placeholder {@value #PLACEHOLDER}: then the topic is one
 * per tenant ({@code commitflow.events.{tenant}} is {@code commitflow.events.acme} for tenant {@code acme}), the job
 * reads every topic the name matches, and the tenant of a record read there is the topic's, whatever the record
 * claims. Kafka's ACLs on the topics then decide who may write, and read, as whom. A topic name without the
 * placeholder is one topic for every tenant, whose writers are trusted to name their tenant.
 * Each tenant's repository names are then its own ({@link RepoKeys#PER_TENANT}).
 */
public final class Tenants {
    public static final String PLACEHOLDER = "{tenant}";
    /** What a tenant's name may be: the placeholder's part of a topic name too. */
    public static final String NAME = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}";

    private Tenants() {}

    /** Whether {@code topic} is one topic per tenant. */
    public static boolean perTenant(String topic) {
        return topic.contains(PLACEHOLDER);
    }

    /** The tenant's own topic of a per-tenant name; the name itself when it is shared. */
    public static String topicOf(String topic, String tenant) {
        return topic.replace(PLACEHOLDER, tenant);
    }

    /**
     * Checks a topic name a user gave: at most one placeholder, and the rest of the name one that Kafka accepts.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static String checkTopic(String what, String topic) {
        int at = topic.indexOf(PLACEHOLDER);
        if (at >= 0 && topic.indexOf(PLACEHOLDER, at + 1) >= 0) {
            throw new IllegalArgumentException(what + " " + topic + " names " + PLACEHOLDER + " more than once");
        }
        String fixed = topic.replace(PLACEHOLDER, "t");
        if (fixed.isEmpty() || fixed.length() > 249 || !fixed.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException(what + " " + topic + " is not a Kafka topic name: letters, digits, "
                    + "'.', '_' and '-', at most 249" + (at >= 0 ? ", and one " + PLACEHOLDER : ""));
        }
        return topic;
    }

    /** Reads the tenant from the names of a per-tenant topic's topics. */
    public static final class Source implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String template;
        private transient Pattern pattern;

        /** @param template a topic name holding {@value #PLACEHOLDER} */
        public Source(String template) {
            if (!perTenant(template)) {
                throw new IllegalArgumentException(template + " is one topic, not one per tenant");
            }
            this.template = template;
        }

        /** The pattern of every tenant's topic: Kafka's source subscribes to it. */
        public Pattern pattern() {
            if (pattern == null) {
                int at = template.indexOf(PLACEHOLDER);
                pattern = Pattern.compile(Pattern.quote(template.substring(0, at)) + "(" + NAME + ")"
                        + Pattern.quote(template.substring(at + PLACEHOLDER.length())));
            }
            return pattern;
        }

        /** The tenant whose topic this is, or null when the topic is not one of them. */
        public String tenantOf(String topic) {
            Matcher m = pattern().matcher(topic);
            return m.matches() ? m.group(1) : null;
        }
    }
}
