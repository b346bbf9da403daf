package io.commitflow.sla;

/**
 * A record for {@code commitflow.sla}: its JSON ({@code kind} {@code window}, {@code spike} or {@code late}) and the
 * tenant it is about (the Kafka key, so that one tenant's records stay in order).
 */
public record SlaRecord(String tenant, String json) {}
