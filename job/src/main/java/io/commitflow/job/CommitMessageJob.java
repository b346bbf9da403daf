package io.commitflow.job;

import io.commitflow.diff.DedupAndDiff;
import io.commitflow.diff.DiffDrafts;
import io.commitflow.event.CommitEvent;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.RawRecord;
import io.commitflow.event.Suggestion;
import io.commitflow.git.DiffedCommit;
import io.commitflow.ingest.DeadLetters;
import io.commitflow.ingest.ExpandPushes;
import io.commitflow.ingest.ParseEvents;
import io.commitflow.sla.SlaRecord;
import io.commitflow.slawindows.SlaPipeline;
import io.commitflow.suggest.SuggestStage;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * commitflow's job: Kafka events → parse and validate → expand pushes → dedup (repo, sha) → diff → suggest (keyed by
 * repository: result cache by patch-id, micro-batched retrieval on the GPU or CPU engine, the built-in generator or a
 * tenant's LLM, online learning) → suggestions topic; every reject → dead-letter topic; both → SLA windows per
 * tenant and backend → SLA topic and Prometheus gauges.
 *
 * <p>Submit the shaded jar to a cluster: {@code flink run job/target/commitflow-job.jar --bootstrap kafka:9092
 * --mirror-root /srv/mirrors}. Tests call {@link #build} with their own source and sinks; the command line's local
 * runs ({@code job}, {@code demo}, {@code loadtest}) with Kafka's.
 */
public final class CommitMessageJob {
    public static final String NAME = "commitflow";

    private CommitMessageJob() {}

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        // the cluster's config.yaml and -D set the job's settings too (JobConfig's keys); the arguments override them
        JobParameters params = JobOptions.parseForCluster(env.getConfiguration(), args);
        KafkaIO.checkDelivery(params.kafka(), env.getConfiguration());
        build(env, KafkaIO.sourceBuilder(params.kafka()).build(), KafkaIO.suggestionSink(params.kafka()),
                KafkaIO.deadLetterSink(params.kafka()), KafkaIO.slaSink(params.kafka()), Interactive.of(params.kafka()),
                params.pipeline());
        env.execute(NAME);
    }

    /**
     * The interactive path: drafts from a topic of their own, their suggestions to a sink of their own.
     *
     * @param requests the drafts' source ({@code commitflow suggest} sends there); null: drafts come with the events
     * @param replies  where the suggestions for drafts go, written at once for someone waiting at {@code git commit}
     */
    public record Interactive(Source<RawRecord, ?, ?> requests, Sink<Suggestion> replies) {
        public static Interactive of(KafkaSettings k) {
            return new Interactive(KafkaIO.requestsSource(k), KafkaIO.replySink(k));
        }
    }

    /** Wires the pipeline without an interactive path: drafts' suggestions go to {@code suggestions} too. */
    public static void build(StreamExecutionEnvironment env, Source<RawRecord, ?, ?> source,
                             Sink<Suggestion> suggestions, Sink<DeadLetter> deadLetters, Sink<SlaRecord> sla,
                             PipelineSettings s) {
        build(env, source, suggestions, deadLetters, sla, null, s);
    }

    /**
     * Wires the pipeline between the sources and the sinks. Every stateful operator has a uid.
     *
     * @param interactive the drafts' own source and sink; null: drafts come with the events and their suggestions go
     *                    to {@code suggestions} with the rest
     */
    public static void build(StreamExecutionEnvironment env, Source<RawRecord, ?, ?> source,
                             Sink<Suggestion> suggestions, Sink<DeadLetter> deadLetters, Sink<SlaRecord> sla,
                             Interactive interactive, PipelineSettings s) {
        DataStream<RawRecord> raw = env.fromSource(source, WatermarkStrategy.noWatermarks(), "kafka: events")
                .uid("source-events");

        SingleOutputStreamOperator<CommitEvent> parsed = raw
                .process(new ParseEvents(s.maxEventBytes())).uid("parse").name("parse + validate");

        SingleOutputStreamOperator<CommitEvent> expanded = parsed.getSideOutput(ParseEvents.PUSHES)
                .keyBy(ExpandPushes.key(s.keys()))
                .process(new ExpandPushes(s.mirrorRoot(), s.mirrorWait(), s.maxPushCommits(), s.keys())).uid("expand-pushes").name("expand pushes");

        // one keyed operator, so that a commit is remembered only once it is diffed; the uid is the former dedup
        // operator's, whose state it keeps
        SingleOutputStreamOperator<DiffedCommit> diffed = parsed.union(expanded)
                .keyBy(DedupAndDiff.key(s.keys()))
                .process(new DedupAndDiff(s.mirrorRoot(), s.budget(), s.dedupTtl(), s.mirrorWait(), s.keys()))
                .uid("dedup").name("dedup + diff (JGit)");

        // drafts from the requests topic take a path of their own up to the suggest stage: its input serves both
        DataStream<DiffedCommit> toSuggest = diffed;
        DataStream<DeadLetter> draftRejects = null;
        if (interactive != null && interactive.requests() != null) {
            SingleOutputStreamOperator<CommitEvent> requests = env
                    .fromSource(interactive.requests(), WatermarkStrategy.noWatermarks(), "kafka: requests")
                    .uid("source-requests")
                    .process(new ParseEvents(s.maxEventBytes())).uid("parse-requests").name("parse requests");
            SingleOutputStreamOperator<DiffedCommit> drafted = requests
                    .process(new DiffDrafts(s.budget())).uid("diff-drafts").name("diff drafts (inline patch)");
            toSuggest = diffed.union(drafted);
            draftRejects = requests.getSideOutput(DeadLetters.TAG)
                    .union(drafted.getSideOutput(DeadLetters.TAG),
                            requests.getSideOutput(ParseEvents.PUSHES).process(new DiffDrafts.RefusePushes())
                                    .uid("refuse-request-pushes").name("refuse pushes on the requests topic"));
        }

        // suggestions carry the moment they were made as their timestamp (the SLA windows and the sink use it)
        SingleOutputStreamOperator<Suggestion> out = SuggestStage.attach(toSuggest, s.suggest(), s.keys());
        DataStream<Suggestion> drafts = out.getSideOutput(SuggestStage.DRAFTS);
        if (interactive != null) {
            out.sinkTo(suggestions).uid("sink-suggestions").name("kafka: suggestions");
            drafts.sinkTo(interactive.replies()).uid("sink-replies").name("kafka: replies to drafts");
        } else {
            out.union(drafts).sinkTo(suggestions).uid("sink-suggestions").name("kafka: suggestions");
        }

        DataStream<DeadLetter> rejected = parsed.getSideOutput(DeadLetters.TAG)
                .union(expanded.getSideOutput(DeadLetters.TAG), diffed.getSideOutput(DeadLetters.TAG),
                        out.getSideOutput(DeadLetters.TAG));
        if (draftRejects != null) {
            rejected = rejected.union(draftRejects);
        }
        rejected.sinkTo(deadLetters).uid("sink-dlq").name("kafka: dead letters");

        SlaPipeline.attach(out.union(drafts), rejected, s.sla())
                .sinkTo(sla).uid("sink-sla").name("kafka: SLA windows");
    }
}
