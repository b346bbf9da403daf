package io.commitflow.job;

import io.commitflow.event.EventParser;
import io.commitflow.event.Tenants;
import io.commitflow.event.Validation;
import org.apache.flink.connector.kafka.sink.TopicSelector;
import org.apache.flink.util.function.SerializableFunction;

/**
 * The topic a sink writes a record to: the one topic, or the record's tenant's own when the name holds
 * {@value Tenants#PLACEHOLDER}. A record that names no valid tenant (a dead letter of a shared events topic whose
 * record was not JSON) goes to the {@value EventParser#DEFAULT_TENANT} tenant's topic.
 */
final class TenantTopic<T> implements TopicSelector<T> {
    private static final long serialVersionUID = 1L;
    private final String template;
    private final SerializableFunction<T, String> tenant;

    TenantTopic(String template, SerializableFunction<T, String> tenant) {
        this.template = template;
        this.tenant = tenant;
    }

    @Override
    public String apply(T record) {
        return of(template, tenant.apply(record));
    }

    /** The topic of a tenant's record under {@code template}. */
    static String of(String template, String tenant) {
        if (!Tenants.perTenant(template)) {
            return template;
        }
        return Tenants.topicOf(template, Validation.isTenant(tenant) ? tenant : EventParser.DEFAULT_TENANT);
    }
}
