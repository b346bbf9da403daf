package io.commitflow.event;

/** Thrown while reading an event that cannot be used; carries the {@link Reason} for the dead letter. */
public final class InvalidEventException extends Exception {
    private final Reason reason;

    public InvalidEventException(Reason reason, String detail) {
        super(detail, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
