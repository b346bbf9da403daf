package io.commitflow.generate;

/** A generated message before it becomes a {@link io.commitflow.event.Suggestion}. */
public record Draft(String subject, String body, String type, String scope) {}
