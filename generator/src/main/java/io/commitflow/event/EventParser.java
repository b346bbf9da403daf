package io.commitflow.event;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the value of a Kafka record into a {@link CommitEvent} or {@link PushEvent}, or says why it cannot.
 * Never throws on bad input: every failure is a {@link Result.Rejected} with a {@link Reason}.
 *
 * <p>Native JSON (docs/events.md has every field):
 * {@code {"type":"commit","tenant":"acme","repo":"tools/git","sha":"…","parents":["…"],"ts":1700000000000}}
 * and {@code {"type":"push","repo":"tools/git","ref":"refs/heads/main","before":"…","after":"…"}}.
 * Unknown fields are ignored, so producers can add fields without breaking the job. Git servers' own push
 * notifications are read too: Gerrit {@code ref-updated}, Gitea and GitLab push payloads ({@link ServerPayloads}).
 */
public final class EventParser implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Default bound on a record's size: larger values are dead letters, never parsed. */
    public static final int DEFAULT_MAX_EVENT_BYTES = 4 * 1024 * 1024;
    /** Latest accepted event time (year 9999), so that a typo in ms/µs is caught. */
    private static final long MAX_TS = 253402300799999L;
    private static final int MAX_PARENTS = 1024;
    public static final String DEFAULT_TENANT = "default";

    private final int maxEventBytes;

    public EventParser(int maxEventBytes) {
        if (maxEventBytes <= 0) {
            throw new IllegalArgumentException("maxEventBytes must be positive, got " + maxEventBytes);
        }
        this.maxEventBytes = maxEventBytes;
    }

    /** What parsing gave. */
    public sealed interface Result {
        record Commit(CommitEvent event) implements Result {}

        record Push(PushEvent event) implements Result {}

        record Rejected(DeadLetter deadLetter) implements Result {}
    }

    /** Parses a record whose writer names its tenant (a topic shared by every tenant). */
    public Result parse(RawRecord record) {
        return parse(record, null);
    }

    /**
     * Parses a record read from a tenant's own topic ({@link Tenants}).
     *
     * @param sourceTenant the tenant whose topic the record came from: the event's tenant, and a record that claims
     *                     another is a {@link Reason#WRONG_TENANT} dead letter; null: the record's claim is trusted
     */
    public Result parse(RawRecord record, String sourceTenant) {
        Origin origin = record.origin();
        byte[] value = record.value();
        if (value == null || value.length == 0) {
            return reject(Reason.EMPTY, "the record has no value", "", origin, sourceTenant);
        }
        if (value.length > maxEventBytes) {
            return reject(Reason.TOO_LARGE,
                    "the record has " + value.length + " bytes, more than the maximum of " + maxEventBytes,
                    new String(value, 0, Math.min(value.length, 4096), StandardCharsets.UTF_8), origin, sourceTenant);
        }
        String raw = new String(value, StandardCharsets.UTF_8);
        JsonNode root;
        try {
            root = Json.mapper().readTree(value);
        } catch (JacksonException | IllegalArgumentException e) {
            return reject(Reason.NOT_JSON, "not valid JSON: " + firstLine(e.getMessage()), raw, origin, sourceTenant);
        } catch (java.io.IOException e) {
            return reject(Reason.NOT_JSON, "cannot read the value: " + firstLine(e.getMessage()), raw, origin, sourceTenant);
        }
        if (root == null || !root.isObject()) {
            return reject(Reason.NOT_OBJECT, "the value must be a JSON object, got "
                    + (root == null ? "nothing" : root.getNodeType().name().toLowerCase()), raw, origin, sourceTenant);
        }
        JsonFields f = new JsonFields((ObjectNode) root, "");
        try {
            if (sourceTenant != null) {
                return fromTenant(sourceTenant, f.optionalText("tenant", null), parse(f, origin));
            }
            return parse(f, origin);
        } catch (InvalidEventException e) {
            return new Result.Rejected(new DeadLetter(e.reason().name(), e.getMessage(), "parse", raw,
                    origin, sourceTenant != null ? sourceTenant : f.textOrEmpty("tenant"), f.textOrEmpty("repo"),
                    f.textOrEmpty("sha"), traceIdOrDerived(f, origin), System.currentTimeMillis()));
        }
    }

    /** The event as its source's tenant's: a claim of another tenant is refused, a missing one filled in. */
    private static Result fromTenant(String sourceTenant, String claimed, Result parsed) throws InvalidEventException {
        if (claimed != null && !claimed.equals(sourceTenant)) {
            throw new InvalidEventException(Reason.WRONG_TENANT, "the record claims tenant " + Validation.quote(claimed)
                    + " but came from tenant " + Validation.quote(sourceTenant) + "'s topic");
        }
        if (parsed instanceof Result.Commit c) {
            return new Result.Commit(c.event().withTenant(sourceTenant));
        }
        if (parsed instanceof Result.Push p) {
            return new Result.Push(p.event().withTenant(sourceTenant));
        }
        return parsed;
    }

    private Result parse(JsonFields f, Origin origin) throws InvalidEventException {
        if (!f.has("type")) {
            String traceId = traceIdOrThrow(f, origin);
            if (f.has("object_kind")) {
                return new Result.Push(ServerPayloads.gitlab(f, origin, traceId));
            }
            if (ServerPayloads.looksLikeGitea(f)) {
                return new Result.Push(ServerPayloads.gitea(f, origin, traceId));
            }
        }
        String type = f.requiredText("type");
        return switch (type) {
            case "commit" -> new Result.Commit(commit(f, origin));
            case "push" -> new Result.Push(push(f, origin));
            case "ref-updated" -> new Result.Push(ServerPayloads.gerrit(f, origin, traceIdOrThrow(f, origin)));
            default -> throw new InvalidEventException(Reason.UNKNOWN_TYPE, "type must be \"commit\", \"push\" "
                    + "or Gerrit's \"ref-updated\", got " + Validation.quote(type));
        };
    }

    private CommitEvent commit(JsonFields f, Origin origin) throws InvalidEventException {
        String tenant = Validation.tenant(f.optionalText("tenant", DEFAULT_TENANT));
        String repo = Validation.repo(f.requiredText("repo"));
        String sha = Validation.sha("sha", f.requiredText("sha"));
        List<String> parents = new ArrayList<>();
        JsonNode ps = f.node("parents");
        if (ps != null && !ps.isNull()) {
            if (!ps.isArray()) {
                throw new InvalidEventException(Reason.WRONG_TYPE, "parents must be an array of commit ids");
            }
            if (ps.size() > MAX_PARENTS) {
                throw new InvalidEventException(Reason.INVALID_FIELD, "parents has more than " + MAX_PARENTS + " entries");
            }
            for (JsonNode p : ps) {
                if (!p.isTextual()) {
                    throw new InvalidEventException(Reason.WRONG_TYPE, "parents must hold strings");
                }
                parents.add(Validation.sha("parents[]", p.textValue()));
            }
        }
        String message = f.optionalText("message", null);
        String patch = f.optionalText("patch", null);
        boolean draft = draft(f);
        if (draft && patch == null) {
            throw new InvalidEventException(Reason.MISSING_FIELD, "a draft must carry its staged diff in \"patch\"");
        }
        if (draft && message != null) {
            throw new InvalidEventException(Reason.INVALID_FIELD,
                    "a draft has no message yet: it asks for one (leave \"message\" out)");
        }
        return new CommitEvent(tenant, repo, sha, List.copyOf(parents), f.optionalText("author", ""),
                timestamp(f, origin), message, patch, traceIdOrThrow(f, origin), origin, draft);
    }

    private PushEvent push(JsonFields f, Origin origin) throws InvalidEventException {
        String tenant = Validation.tenant(f.optionalText("tenant", DEFAULT_TENANT));
        String repo = Validation.repo(f.requiredText("repo"));
        String ref = Validation.ref(f.requiredText("ref"));
        String before = Validation.sha("before", f.requiredText("before"));
        String after = Validation.sha("after", f.requiredText("after"));
        if (before.length() != after.length()) {
            throw new InvalidEventException(Reason.INVALID_FIELD, "before and after must use the same hash (40 or 64 digits)");
        }
        return new PushEvent(tenant, repo, ref, before, after, f.optionalText("pusher", ""), timestamp(f, origin),
                traceIdOrThrow(f, origin), origin);
    }

    /** {@code ts}: epoch milliseconds, or an ISO-8601 instant; the Kafka timestamp when absent. */
    private static long timestamp(JsonFields f, Origin origin) throws InvalidEventException {
        JsonNode ts = f.node("ts");
        if (ts == null || ts.isNull()) {
            return origin.kafkaTs();
        }
        long ms;
        if (ts.isIntegralNumber() && ts.canConvertToLong()) {
            ms = ts.longValue();
        } else if (ts.isTextual()) {
            try {
                ms = OffsetDateTime.parse(ts.textValue()).toInstant().toEpochMilli();
            } catch (DateTimeParseException e) {
                try {
                    ms = Instant.parse(ts.textValue()).toEpochMilli();
                } catch (DateTimeParseException e2) {
                    throw new InvalidEventException(Reason.INVALID_FIELD,
                            "ts must be epoch milliseconds or an ISO-8601 time, got " + Validation.quote(ts.textValue()));
                }
            }
        } else {
            throw new InvalidEventException(Reason.WRONG_TYPE, "ts must be an integer (epoch milliseconds) or an ISO-8601 string");
        }
        if (ms < 0 || ms > MAX_TS) {
            throw new InvalidEventException(Reason.INVALID_FIELD, "ts out of range: " + ms);
        }
        return ms;
    }

    /** {@code draft}: absent, {@code false} or {@code true}. */
    private static boolean draft(JsonFields f) throws InvalidEventException {
        JsonNode d = f.node("draft");
        if (d == null || d.isNull()) {
            return false;
        }
        if (!d.isBoolean()) {
            throw new InvalidEventException(Reason.WRONG_TYPE, "draft must be true or false");
        }
        return d.booleanValue();
    }

    /** The trace of the record's {@code traceparent} header, else the event's {@code traceId}, else one derived. */
    private static String traceIdOrThrow(JsonFields f, Origin origin) throws InvalidEventException {
        String id = f.optionalText("traceId", null);
        String header = origin.headerTraceId();
        if (header != null) {
            if (id != null) {
                Validation.traceId(id); // still checked: an event is valid or not whatever its headers
            }
            return header;
        }
        return id == null ? origin.derivedTraceId() : Validation.traceId(id);
    }

    private static String traceIdOrDerived(JsonFields f, Origin origin) {
        if (origin.headerTraceId() != null) {
            return origin.headerTraceId();
        }
        String id = f.textOrEmpty("traceId");
        try {
            return id.isEmpty() ? origin.derivedTraceId() : Validation.traceId(id);
        } catch (InvalidEventException e) {
            return origin.derivedTraceId();
        }
    }

    /** A record refused before parsing, for a reason outside it (its topic), with its first 4 KiB. */
    public static Result refuse(RawRecord record, Reason reason, String detail) {
        byte[] v = record.value() == null ? new byte[0] : record.value();
        return reject(reason, detail, new String(v, 0, Math.min(v.length, 4096), StandardCharsets.UTF_8),
                record.origin(), null);
    }

    private static Result reject(Reason reason, String detail, String raw, Origin origin, String sourceTenant) {
        String trace = origin.headerTraceId() != null ? origin.headerTraceId() : origin.derivedTraceId();
        return new Result.Rejected(new DeadLetter(reason.name(), detail, "parse", raw, origin,
                sourceTenant == null ? "" : sourceTenant, "", "", trace, System.currentTimeMillis()));
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unknown error";
        }
        int nl = message.indexOf('\n');
        String line = nl < 0 ? message : message.substring(0, nl);
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }
}
