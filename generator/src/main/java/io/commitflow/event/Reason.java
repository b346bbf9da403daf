package io.commitflow.event;

/** Why a record went to the dead-letter topic. The names are part of the DLQ's format: only add. */
public enum Reason {
    /** The record had no value (a tombstone) or an empty one. */
    EMPTY,
    /** The value is larger than the configured maximum event size. */
    TOO_LARGE,
    /** The value is not valid JSON (or not UTF-8, or nested too deeply). */
    NOT_JSON,
    /** The JSON is valid but not an object. */
    NOT_OBJECT,
    /** The {@code type} field names no event type that commitflow knows. */
    UNKNOWN_TYPE,
    /** A required field is absent or null. */
    MISSING_FIELD,
    /** A field has the wrong JSON type (a number where a string belongs, …). */
    WRONG_TYPE,
    /** A field has the right type but an invalid value (a malformed sha, a negative time, …). */
    INVALID_FIELD,
    /** The repository name is not a safe relative name (absolute, {@code ..}, control characters, …). */
    BAD_REPO_NAME,
    /** No mirror of the repository exists under the mirror root. */
    NO_MIRROR,
    /** The commit (or a push's new tip) is not in the mirror. */
    UNKNOWN_COMMIT,
    /** The event has no inline patch and no mirror root is configured. */
    NO_DIFF_SOURCE,
    /** The inline patch could not be parsed. */
    BAD_PATCH,
    /** Reading the mirror failed. */
    GIT_ERROR,
    /**
     * Writing the suggestion failed: a fault in commitflow's generator, not in the event. The commit goes here, with
     * the error, so that it is accounted for and the job goes on (a restart would only fail on it again).
     */
    GENERATION_FAILED,
    /** A push brought more commits than the job expands from one push ({@code --max-push-commits}). */
    TOO_MANY_COMMITS,
    /** Diffing the commit took longer than its budget ({@code --max-diff-time}). */
    DIFF_TIMEOUT,
    /**
     * The record claims a tenant other than the one its topic belongs to ({@code {tenant}} in the topic's name): the
     * topic, which Kafka's ACLs guard, decides the tenant, and a claim against it is refused.
     */
    WRONG_TENANT
}
