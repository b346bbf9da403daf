package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.event.PushEvent;
import io.commitflow.event.WireFormat;
import io.commitflow.push.RetryPolicy;
import io.commitflow.sla.SlaSettings;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import io.commitflow.testing.OtlpReceiver.Received;
import io.commitflow.testing.OtlpReceiver;
import io.opentelemetry.proto.trace.v1.Span.SpanKind;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Traces end to end, against an OTLP receiver that decodes what the job's OpenTelemetry SDK exports (configured the
 * OpenTelemetry way: {@code otel.exporter.otlp.endpoint} and friends as system properties of the process running
 * the operators): a commit whose event carries a {@code traceparent} comes out as one tree of spans under the
 * producer's span — consume, dedup + diff, suggest, its engine batch, the sink — and its suggestion's
 * {@code traceparent} names the sink's span; a push's commits hang under its expansion; a rejected record's dead
 * letter names the sink span under the rejecting stage; and every slow trace a spike record names was exported.
 */
class TracingITCase {
    private static final int PARALLELISM = 2;
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT = "00f067aa0ba902b7";
    private static final String STATE = "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7";
    private static final String PUSH_TRACE = "5cf92f3577b34da6a3ce929d0e0e4737";
    private static final String BAD_TRACE = "6df92f3577b34da6a3ce929d0e0e4738";
    private static final String UNSAMPLED_TRACE = "7ef92f3577b34da6a3ce929d0e0e4739";

    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(PARALLELISM);

    static OtlpReceiver receiver;

    @TempDir
    Path mirrors;
    @TempDir
    Path checkpoints;

    @BeforeAll
    static void receiverAndConfiguration() throws Exception {
        receiver = new OtlpReceiver();
        System.setProperty("otel.exporter.otlp.endpoint", receiver.endpoint());
        System.setProperty("otel.bsp.schedule.delay", "100");
        System.setProperty("otel.service.name", "commitflow-it");
        System.setProperty("otel.resource.attributes", "deployment.environment.name=test");
    }

    @AfterAll
    static void clear() {
        for (String p : List.of("otel.exporter.otlp.endpoint", "otel.bsp.schedule.delay", "otel.service.name",
                "otel.resource.attributes")) {
            System.clearProperty(p);
        }
        receiver.close();
    }

    @Test
    void aCommitsTraceFromItsEventsHeaderToItsSuggestionsHeader() throws Exception {
        List<RevCommit> history = GitHistory.create(mirrors, "app.git", 150);
        List<RevCommit> feature = GitHistory.featureBranch(mirrors, "app.git", history.get(history.size() - 1), 2,
                "traced", "Document traced feature");
        KafkaSettings k = KafkaSettings.defaults(KAFKA.bootstrap());
        for (String t : List.of(k.eventsTopic(), k.suggestionsTopic())) {
            KAFKA.createTopic(t, 2);
        }
        KAFKA.createTopic(k.deadLetterTopic(), 1);
        KAFKA.createTopic(k.slaTopic(), 1);
        byte[] key = "app".getBytes(StandardCharsets.UTF_8);
        RevCommit traced = history.get(120);
        RevCommit unsampled = history.get(121);
        List<byte[]> rest = new ArrayList<>();
        for (RevCommit c : history) {
            if (c != traced && c != unsampled) {
                rest.add(GitHistory.commitEvent("app", c));
            }
        }
        KAFKA.produce(k.eventsTopic(), key, rest);
        // stamped a minute early: its latency stands far above the rest, so its window's P999 − P99 is a spike
        // however fast or slow the machine (with a 0 ms threshold alone, equal latencies make none)
        KAFKA.produceTraced(k.eventsTopic(), key, GitHistory.commitEvent("app", traced),
                "00-" + TRACE + "-" + PARENT + "-01", STATE, System.currentTimeMillis() - 60_000);
        KAFKA.produceTraced(k.eventsTopic(), key, GitHistory.commitEvent("app", unsampled),
                "00-" + UNSAMPLED_TRACE + "-" + PARENT + "-00");
        KAFKA.produceTraced(k.eventsTopic(), key, WireFormat.push("acme", "app", "refs/heads/feature",
                PushEvent.ZERO_SHA1, feature.get(1).name(), "alice", 1L), "00-" + PUSH_TRACE + "-" + PARENT + "-01");
        KAFKA.produceTraced(k.eventsTopic(), key, "{\"type\":\"merge\"}".getBytes(StandardCharsets.UTF_8),
                "00-" + BAD_TRACE + "-" + PARENT + "-01");

        runBounded(k);
        awaitSpans(s -> s.traceId().equals(TRACE) && s.name().startsWith("send "), 1);
        assertThat(receiver.refused()).isEmpty();

        // the commit: one tree under the producer's span, every stage, ending in the sink's span its header names
        List<Received> trace = receiver.trace(TRACE);
        assertThat(trace).extracting(Received::name).contains("process " + k.eventsTopic(), "dedup + diff",
                "suggest", "index", "retrieve", "send " + k.suggestionsTopic());
        Received consumed = only(trace, "process " + k.eventsTopic());
        assertThat(consumed.parentSpanId()).isEqualTo(PARENT);
        assertThat(consumed.kind()).isEqualTo(SpanKind.SPAN_KIND_CONSUMER);
        assertThat(consumed.attributes()).containsEntry("messaging.system", "kafka")
                .containsEntry("messaging.destination.name", k.eventsTopic())
                .containsEntry("vcs.ref.head.revision", traced.name());
        assertThat(consumed.resource()).containsEntry("service.name", "commitflow-it")
                .containsEntry("deployment.environment.name", "test");
        Received diffed = only(trace, "dedup + diff");
        Received suggested = only(trace, "suggest");
        Received batch = only(trace, "retrieve");
        Received sent = only(trace, "send " + k.suggestionsTopic());
        assertThat(diffed.parentSpanId()).isEqualTo(consumed.spanId());
        assertThat(diffed.attributes()).containsKey("commitflow.diff.files");
        assertThat(suggested.parentSpanId()).isEqualTo(diffed.spanId());
        assertThat(suggested.attributes()).containsEntry("commitflow.backend", "retrieval");
        assertThat(batch.parentSpanId()).isEqualTo(suggested.spanId());
        Received indexed = only(trace, "index");
        assertThat(indexed.parentSpanId()).as("learning its real message").isEqualTo(suggested.spanId());
        assertThat(Long.parseLong(indexed.attributes().get("commitflow.index.rows"))).isPositive();
        assertThat(Long.parseLong(batch.attributes().get("commitflow.batch.size"))).isPositive();
        assertThat(sent.parentSpanId()).isEqualTo(suggested.spanId());
        assertThat(sent.kind()).isEqualTo(SpanKind.SPAN_KIND_PRODUCER);
        assertThat(trace).allSatisfy(s -> {
            assertThat(s.endNs()).isGreaterThanOrEqualTo(s.startNs());
            assertThat(s.traceState()).as("the producer's tracestate, on every span").isEqualTo(STATE);
        });
        assertThat(treeUnder(trace, PARENT)).as(receiver.dump()).isTrue();

        ConsumerRecord<byte[], byte[]> suggestion = record(KAFKA.readCommitted(k.suggestionsTopic()), traced.name());
        String header = new String(suggestion.headers().lastHeader("traceparent").value(), StandardCharsets.US_ASCII);
        assertThat(header).isEqualTo("00-" + TRACE + "-" + sent.spanId() + "-01");
        assertThat(Json.mapper().readTree(suggestion.value()).path("traceparent").asText()).isEqualTo(header);
        assertThat(new String(suggestion.headers().lastHeader("tracestate").value(), StandardCharsets.US_ASCII))
                .as("passed on untouched").isEqualTo(STATE);

        // a producer that did not sample: nothing exported, and the suggestion says not sampled either
        assertThat(receiver.trace(UNSAMPLED_TRACE)).isEmpty();
        ConsumerRecord<byte[], byte[]> quiet = record(KAFKA.readCommitted(k.suggestionsTopic()), unsampled.name());
        assertThat(new String(quiet.headers().lastHeader("traceparent").value(), StandardCharsets.US_ASCII))
                .startsWith("00-" + UNSAMPLED_TRACE + "-").endsWith("-00");

        // a push: its commits' diffs hang under its expansion, all in the push's trace
        awaitSpans(s -> s.traceId().equals(PUSH_TRACE) && s.name().startsWith("send "), feature.size());
        List<Received> push = receiver.trace(PUSH_TRACE);
        Received expanded = only(push, "expand push");
        assertThat(expanded.parentSpanId()).isEqualTo(only(push, "process " + k.eventsTopic()).spanId());
        assertThat(expanded.attributes()).containsEntry("commitflow.commits", "2");
        assertThat(push.stream().filter(s -> s.name().equals("dedup + diff")))
                .hasSize(2).allSatisfy(s -> assertThat(s.parentSpanId()).isEqualTo(expanded.spanId()));
        assertThat(treeUnder(push, PARENT)).as(receiver.dump()).isTrue();

        // a rejected record: the consumer's span says why, the dead letter's header names the sink's span under it
        awaitSpans(s -> s.traceId().equals(BAD_TRACE) && s.name().startsWith("send "), 1);
        List<Received> bad = receiver.trace(BAD_TRACE);
        Received parse = only(bad, "process " + k.eventsTopic());
        assertThat(parse.error()).isTrue();
        Received dlq = only(bad, "send " + k.deadLetterTopic());
        assertThat(dlq.parentSpanId()).isEqualTo(parse.spanId());
        ConsumerRecord<byte[], byte[]> dead = KAFKA.readCommitted(k.deadLetterTopic()).get(0);
        assertThat(new String(dead.headers().lastHeader("traceparent").value(), StandardCharsets.US_ASCII))
                .isEqualTo("00-" + BAD_TRACE + "-" + dlq.spanId() + "-01");

        // every slow trace a spike names was exported
        List<JsonNode> spikes = new ArrayList<>();
        for (var r : KAFKA.readCommitted(k.slaTopic())) {
            JsonNode n = Json.mapper().readTree(r.value());
            if (n.path("kind").asText().equals("spike")) {
                spikes.add(n);
            }
        }
        assertThat(spikes).as("the early-stamped commit's window spikes")
                .anySatisfy(sp -> assertThat(sp.path("slowTraceIds").toString()).contains(TRACE));
        Set<String> exported = receiver.spans().stream().map(Received::traceId).collect(Collectors.toSet());
        exported.add(UNSAMPLED_TRACE); // named when slow, rightly not exported
        for (JsonNode spike : spikes) {
            assertThat(spike.path("slowTraceIds")).isNotEmpty().allSatisfy(id -> assertThat(exported)
                    .as("slow trace %s of %s", id.asText(), spike).contains(id.asText()));
        }
    }

    /** Every span's parent is another span of the trace, or the producer's span; and the ids are unique. */
    private static boolean treeUnder(List<Received> trace, String root) {
        Set<String> ids = trace.stream().map(Received::spanId).collect(Collectors.toSet());
        return ids.size() == trace.size()
                && trace.stream().allMatch(s -> s.parentSpanId().equals(root) || ids.contains(s.parentSpanId()));
    }

    private static Received only(List<Received> trace, String name) {
        List<Received> named = trace.stream().filter(s -> s.name().equals(name)).toList();
        assertThat(named).as("spans named %s in\n%s", name, receiver.dump()).hasSize(1);
        return named.get(0);
    }

    private static ConsumerRecord<byte[], byte[]> record(List<ConsumerRecord<byte[], byte[]>> records, String sha)
            throws Exception {
        for (var r : records) {
            if (Json.mapper().readTree(r.value()).path("sha").asText().equals(sha)) {
                return r;
            }
        }
        throw new AssertionError("no suggestion for " + sha);
    }

    /** The job has ended and its SDK flushed at shutdown; the receiver may still be reading the last export. */
    private static void awaitSpans(Predicate<Received> which, int n) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (receiver.spans().stream().filter(which).count() < n && System.nanoTime() < until) {
            Thread.sleep(50);
        }
    }

    private void runBounded(KafkaSettings k) throws Exception {
        Configuration conf = MiniClusters.job(Duration.ofMillis(500), checkpoints);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(PARALLELISM);
        PipelineSettings d = PipelineSettings.defaults(mirrors.toString());
        SlaSettings sla = d.sla();
        PipelineSettings s = new PipelineSettings(d.mirrorRoot(), d.dedupTtl(), d.maxEventBytes(), d.budget(),
                new RetryPolicy(Duration.ofMillis(100), Duration.ofMillis(100), Duration.ZERO), d.suggest(),
                new SlaSettings(sla.size(), sla.slide(), sla.outOfOrderness(), sla.idleness(), 0,
                        sla.defaultTargetMs(), sla.targets(), sla.weights()));
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).setBounded(OffsetsInitializer.latest()).build(),
                KafkaIO.suggestionSink(k), KafkaIO.deadLetterSink(k), KafkaIO.slaSink(k), s);
        env.execute("commitflow-tracing-itcase");
    }
}
