package io.commitflow.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Typed access to a JSON object's fields, with the field's full path ({@code refUpdate.newRev}) in every error. */
final class JsonFields {
    private final ObjectNode node;
    private final String prefix;

    JsonFields(ObjectNode node, String prefix) {
        this.node = node;
        this.prefix = prefix;
    }

    JsonNode node(String name) {
        return node.get(name);
    }

    boolean has(String name) {
        JsonNode v = node.get(name);
        return v != null && !v.isNull();
    }

    /** The nested object {@code name}. */
    JsonFields object(String name) throws InvalidEventException {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            throw new InvalidEventException(Reason.MISSING_FIELD, "missing required field \"" + prefix + name + "\"");
        }
        if (!v.isObject()) {
            throw new InvalidEventException(Reason.WRONG_TYPE,
                    "field \"" + prefix + name + "\" must be an object, got " + v.getNodeType().name().toLowerCase());
        }
        return new JsonFields((ObjectNode) v, prefix + name + ".");
    }

    /** The nested object {@code name}, or {@code null} when it is absent or not an object. */
    JsonFields objectOrNull(String name) {
        JsonNode v = node.get(name);
        return v != null && v.isObject() ? new JsonFields((ObjectNode) v, prefix + name + ".") : null;
    }

    String requiredText(String name) throws InvalidEventException {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            throw new InvalidEventException(Reason.MISSING_FIELD, "missing required field \"" + prefix + name + "\"");
        }
        if (!v.isTextual()) {
            throw new InvalidEventException(Reason.WRONG_TYPE,
                    "field \"" + prefix + name + "\" must be a string, got " + v.getNodeType().name().toLowerCase());
        }
        return v.textValue();
    }

    String optionalText(String name, String fallback) throws InvalidEventException {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isTextual()) {
            throw new InvalidEventException(Reason.WRONG_TYPE,
                    "field \"" + prefix + name + "\" must be a string, got " + v.getNodeType().name().toLowerCase());
        }
        return v.textValue();
    }

    /** The first of {@code names} that holds text, or {@code fallback}; never throws. */
    String firstText(String fallback, String... names) {
        for (String n : names) {
            JsonNode v = node.get(n);
            if (v != null && v.isTextual() && !v.textValue().isEmpty()) {
                return v.textValue();
            }
        }
        return fallback;
    }

    /** The field's text for a dead letter's context, or empty when absent or not text. */
    String textOrEmpty(String name) {
        JsonNode v = node.get(name);
        return v != null && v.isTextual() ? Validation.quote(v.textValue()).replaceAll("^\"|\"$", "") : "";
    }
}
