package io.commitflow.trace;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.Origin;
import io.commitflow.event.PushEvent;
import io.commitflow.event.Suggestion;
import io.commitflow.git.DiffedCommit;
import io.commitflow.llm.LlmWriter;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.SpanKind;

/**
 * The spans of one event's way through the job, and the keys that name them ({@link io.commitflow.event.TraceContext#spanId}):
 * <pre>
 * the producer's span (the event's traceparent), when it had one
 * └ process commitflow.events           parse + validate      key parse/ORIGIN, or pre/ORIGIN for a commit
 *   └ expand push                       a push only           key pre/ORIGIN
 *     └ dedup + diff                    one per commit        key diff/REPO/SHA   (a draft: diff draft)
 *       └ suggest                       one per commit        key gen/REPO/SHA
 *         ├ index                       learning its message  key index/REPO/SHA
 *         ├ retrieve                    its engine batch      key batch/REPO/SHA
 *         ├ chat MODEL                  the LLM call, if any  key llm/REPO/SHA
 *         └ send commitflow.suggestions the sink              key suggest/REPO/SHA = the suggestion's traceparent
 * </pre>
 * A dead letter's {@code send} span hangs under the stage that rejected it. Attribute names follow OpenTelemetry's
 * semantic conventions (messaging, VCS, HTTP, GenAI) where they have one, {@code commitflow.*} otherwise.
 */
public final class Stages {
    public static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    public static final AttributeKey<String> MESSAGING_OPERATION = AttributeKey.stringKey("messaging.operation.type");
    public static final AttributeKey<String> MESSAGING_DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    public static final AttributeKey<String> MESSAGING_PARTITION = AttributeKey.stringKey("messaging.destination.partition.id");
    public static final AttributeKey<Long> MESSAGING_OFFSET = AttributeKey.longKey("messaging.kafka.offset");
    public static final AttributeKey<String> MESSAGING_KEY = AttributeKey.stringKey("messaging.kafka.message.key");
    public static final AttributeKey<String> REPOSITORY = AttributeKey.stringKey("vcs.repository.name");
    public static final AttributeKey<String> REVISION = AttributeKey.stringKey("vcs.ref.head.revision");
    public static final AttributeKey<String> REF = AttributeKey.stringKey("vcs.ref.head.name");
    public static final AttributeKey<String> TENANT = AttributeKey.stringKey("commitflow.tenant");
    public static final AttributeKey<String> EVENT = AttributeKey.stringKey("commitflow.event");
    public static final AttributeKey<Long> QUEUED_MS = AttributeKey.longKey("commitflow.queued_ms");
    public static final AttributeKey<String> REASON = AttributeKey.stringKey("commitflow.reason");
    public static final AttributeKey<Long> FILES = AttributeKey.longKey("commitflow.diff.files");
    public static final AttributeKey<Long> LINES_ADDED = AttributeKey.longKey("commitflow.diff.lines_added");
    public static final AttributeKey<Long> LINES_DELETED = AttributeKey.longKey("commitflow.diff.lines_deleted");
    public static final AttributeKey<Long> PATCH_BYTES = AttributeKey.longKey("commitflow.diff.patch_bytes");
    public static final AttributeKey<String> DIFF_SOURCE = AttributeKey.stringKey("commitflow.diff.source");
    public static final AttributeKey<String> TRUNCATION = AttributeKey.stringKey("commitflow.diff.truncation");
    public static final AttributeKey<Boolean> DUPLICATE = AttributeKey.booleanKey("commitflow.duplicate");
    public static final AttributeKey<Long> ATTEMPTS = AttributeKey.longKey("commitflow.attempts");
    public static final AttributeKey<Long> MIRROR_WAIT_MS = AttributeKey.longKey("commitflow.mirror_wait_ms");
    public static final AttributeKey<String> BACKEND = AttributeKey.stringKey("commitflow.backend");
    public static final AttributeKey<String> CACHE = AttributeKey.stringKey("commitflow.cache");
    public static final AttributeKey<Double> SIMILARITY = AttributeKey.doubleKey("commitflow.similarity");
    public static final AttributeKey<Long> EXEMPLARS = AttributeKey.longKey("commitflow.exemplars");
    public static final AttributeKey<Boolean> DRAFT = AttributeKey.booleanKey("commitflow.draft");
    public static final AttributeKey<Boolean> TIMED_OUT = AttributeKey.booleanKey("commitflow.timed_out");
    public static final AttributeKey<String> NOTE = AttributeKey.stringKey("commitflow.note");
    public static final AttributeKey<Long> BATCH_SIZE = AttributeKey.longKey("commitflow.batch.size");
    public static final AttributeKey<String> ENGINE = AttributeKey.stringKey("commitflow.engine");
    public static final AttributeKey<Long> ROWS = AttributeKey.longKey("commitflow.index.rows");
    public static final AttributeKey<Boolean> ON_ENGINE = AttributeKey.booleanKey("commitflow.index.on_engine");
    public static final AttributeKey<String> GEN_AI_OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    public static final AttributeKey<String> GEN_AI_PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    public static final AttributeKey<String> GEN_AI_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    public static final AttributeKey<Long> GEN_AI_INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    public static final AttributeKey<Long> CACHED_TOKENS = AttributeKey.longKey("commitflow.llm.cached_tokens");
    public static final AttributeKey<Double> KV_REUSE = AttributeKey.doubleKey("commitflow.llm.kv_reuse_ratio");
    public static final AttributeKey<String> HTTP_METHOD = AttributeKey.stringKey("http.request.method");
    public static final AttributeKey<String> URL = AttributeKey.stringKey("url.full");
    public static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");

    private Stages() {}

    public static String parse(Origin o) {
        return "parse/" + o;
    }

    /** The span a commit's diff hangs under: its event's parse span, or for a push, the push's expansion. */
    public static String beforeDiff(Origin o) {
        return "pre/" + o;
    }

    public static String diff(CommitEvent c) {
        return "diff/" + c.repo() + '/' + c.sha();
    }

    public static String suggest(CommitEvent c) {
        return "gen/" + c.repo() + '/' + c.sha();
    }

    public static String batch(CommitEvent c) {
        return "batch/" + c.repo() + '/' + c.sha();
    }

    public static String llm(CommitEvent c) {
        return "llm/" + c.repo() + '/' + c.sha();
    }

    /** The sink's span of a suggestion; its id is the one the suggestion's {@code traceparent} names. */
    public static String published(String repo, String sha) {
        return "suggest/" + repo + '/' + sha;
    }

    /** The sink's span of a dead letter; its id is the one the dead letter's {@code traceparent} names. */
    public static String deadLetter(DeadLetter d) {
        return "dlq/" + d.stage() + '/' + d.origin();
    }

    /** The span of the stage that rejected {@code d}. */
    static String rejectedBy(DeadLetter d) {
        return switch (d.stage()) {
            case "parse" -> parse(d.origin());
            case "expand" -> beforeDiff(d.origin());
            case "diff" -> "diff/" + d.repo() + '/' + d.sha();
            default -> "gen/" + d.repo() + '/' + d.sha();
        };
    }

    /** Attributes every span of a commit carries. */
    public static AttributesBuilder of(CommitEvent c) {
        return Attributes.builder().put(TENANT, c.tenant()).put(REPOSITORY, c.repo()).put(REVISION, c.sha());
    }

    /** Attributes every span of a push carries. */
    public static AttributesBuilder of(PushEvent p) {
        return Attributes.builder().put(TENANT, p.tenant()).put(REPOSITORY, p.repo()).put(REF, p.ref())
                .put(REVISION, p.after());
    }

    /** The consumer's span of an event read from Kafka, from the moment the job began with it. */
    public static void consumed(Tracing t, Tracing.Trace trace, Origin o, boolean isCommit, String event,
                                AttributesBuilder attrs, long startNs, String error) {
        attrs.put(MESSAGING_SYSTEM, "kafka").put(MESSAGING_OPERATION, "process")
                .put(MESSAGING_DESTINATION, o.topic()).put(MESSAGING_PARTITION, String.valueOf(o.partition()))
                .put(MESSAGING_OFFSET, o.offset()).put(EVENT, event)
                .put(QUEUED_MS, Math.max(0, startNs / 1_000_000 - o.kafkaTs()));
        t.span(trace, "process " + o.topic(), SpanKind.CONSUMER, null, isCommit ? beforeDiff(o) : parse(o), startNs,
                Tracing.nowNs(), error, attrs.build());
    }

    /**
     * The span of a commit's dedup and diff (or a draft's diff), when its trace is sampled.
     *
     * @param d     the diff, or null when there is none (a duplicate, a rejection)
     * @param error why the commit was rejected, or null
     */
    public static void diffed(Tracing t, String name, CommitEvent c, DiffedCommit d, long startNs, String error,
                              AttributesBuilder attrs) {
        Tracing.Trace trace = t.enabled() ? t.trace(c.traceId(), c.origin().traceparent(), c.origin().tracestate()) : null;
        if (trace == null) {
            return;
        }
        if (d != null) {
            attrs.put(FILES, (long) d.totalFiles()).put(LINES_ADDED, (long) d.linesAdded())
                    .put(LINES_DELETED, (long) d.linesDeleted()).put(PATCH_BYTES, (long) d.patch().length())
                    .put(DIFF_SOURCE, d.source());
            if (d.truncated()) {
                attrs.put(TRUNCATION, d.truncation());
            }
        }
        t.span(trace, name, SpanKind.INTERNAL, beforeDiff(c.origin()), diff(c), startNs, Tracing.nowNs(), error,
                attrs.build());
    }

    /**
     * The index span of a commit whose real message the suggest stage learned: its row added to the repository's
     * memory (and the engine's index) and saved in keyed state; a child of the commit's suggest span.
     */
    public static void indexed(Tracing t, CommitEvent c, long startNs, int rows, boolean onEngine) {
        Tracing.Trace trace = t.trace(c.traceId(), c.origin().traceparent(), c.origin().tracestate());
        if (trace != null) {
            t.span(trace, "index", SpanKind.INTERNAL, suggest(c), "index/" + c.repo() + '/' + c.sha(), startNs,
                    Tracing.nowNs(), null, Attributes.of(ROWS, (long) rows, ON_ENGINE, onEngine));
        }
    }

    /**
     * The engine batch a request rode in.
     *
     * @param size     the batch's size; 0 when it was answered otherwise (the scan after a timeout)
     * @param timedOut answered by the exact scan in the task thread after the async timeout
     */
    public record Engine(String name, long startNs, long endNs, int size, boolean timedOut) {}

    /**
     * The suggest stage's span of a commit with its children: the engine batch and the LLM call.
     *
     * @param startNs when the commit came to the stage (epoch ns)
     * @param engine  its batch, or null for a result-cache hit
     * @param llm     the LLM call, or null when none was made
     */
    public static void suggested(Tracing t, Tracing.Trace trace, CommitEvent c, Suggestion s, long startNs,
                                 Engine engine, LlmWriter.Call llm) {
        long endNs = Tracing.nowNs();
        String self = suggest(c);
        AttributesBuilder attrs = of(c).put(BACKEND, s.backend()).put(CACHE, s.cache())
                .put(SIMILARITY, s.similarity()).put(EXEMPLARS, (long) s.exemplars().size())
                .put(DRAFT, c.draft());
        if (engine != null) {
            attrs.put(TIMED_OUT, engine.timedOut());
        }
        if (!s.note().isEmpty()) {
            attrs.put(NOTE, s.note());
        }
        if (startNs == 0) {
            startNs = endNs;
        }
        t.span(trace, "suggest", SpanKind.INTERNAL, diff(c), self, startNs, endNs, null, attrs.build());
        if (engine != null && engine.size() > 0) {
            t.span(trace, "retrieve", SpanKind.INTERNAL, self, batch(c), engine.startNs(), engine.endNs(), null,
                    Attributes.of(BATCH_SIZE, (long) engine.size(), ENGINE, engine.name()));
        }
        if (llm != null) {
            AttributesBuilder a = Attributes.builder().put(GEN_AI_OPERATION, "chat")
                    .put(GEN_AI_PROVIDER, llm.provider()).put(GEN_AI_MODEL, llm.model())
                    .put(GEN_AI_INPUT_TOKENS, (long) llm.promptTokens())
                    .put(CACHED_TOKENS, (long) llm.cachedTokens()).put(KV_REUSE, llm.kvReuse())
                    .put(HTTP_METHOD, "POST").put(URL, llm.url());
            String host = host(llm.url());
            if (host != null) {
                a.put(SERVER_ADDRESS, host);
            }
            t.span(trace, "chat " + llm.model(), SpanKind.CLIENT, self, llm(c), llm.startMs() * 1_000_000,
                    llm.endMs() * 1_000_000, llm.error(), a.build());
        }
    }

    /**
     * The sink's span of a suggestion, from the moment it was made to its hand-over to the Kafka producer; its id is
     * the one its {@code traceparent} names.
     */
    public static void sentSuggestion(Tracing t, Suggestion s, String topic) {
        String header = s.traceparent();
        if (header == null || !header.endsWith("-01")) {
            return;
        }
        String id = header.substring(3, 35);
        Tracing.Trace trace = new Tracing.Trace(id, Tracing.remoteParent(id, header, s.tracestate()));
        Attributes attrs = Attributes.builder().put(MESSAGING_SYSTEM, "kafka").put(MESSAGING_OPERATION, "send")
                .put(MESSAGING_DESTINATION, topic).put(MESSAGING_KEY, s.repo()).put(TENANT, s.tenant())
                .put(REPOSITORY, s.repo()).put(REVISION, s.sha()).build();
        t.span(trace, "send " + topic, SpanKind.PRODUCER, "gen/" + s.repo() + '/' + s.sha(),
                published(s.repo(), s.sha()), s.madeMs() * 1_000_000, Tracing.nowNs(), null, attrs);
    }

    private static String host(String url) {
        try {
            return java.net.URI.create(url).getHost();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The sink's span of a dead letter, from its rejection to its hand-over to the Kafka producer. */
    public static void sentDeadLetter(Tracing t, Tracing.Trace trace, DeadLetter d, String topic) {
        Attributes attrs = Attributes.builder().put(MESSAGING_SYSTEM, "kafka").put(MESSAGING_OPERATION, "send")
                .put(MESSAGING_DESTINATION, topic).put(TENANT, d.tenant()).put(REPOSITORY, d.repo())
                .put(REASON, d.reason()).build();
        t.span(trace, "send " + topic, SpanKind.PRODUCER, rejectedBy(d), deadLetter(d), d.madeMs() * 1_000_000,
                Tracing.nowNs(), null, attrs);
    }
}
