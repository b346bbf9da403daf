package io.commitflow.slawindows;

import io.commitflow.event.DeadLetter;
import io.commitflow.event.Json;
import io.commitflow.event.Suggestion;
import io.commitflow.sla.Pane;
import io.commitflow.sla.SlaRecord;
import io.commitflow.sla.SlaSample;
import io.commitflow.sla.SlaSettings;
import io.commitflow.sla.SlaWindow;
import io.commitflow.sla.Spike;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The SLA branch of the job: suggestions and dead letters → samples whose event time is the moment the job made
 * them (bounded out-of-orderness, a watermark per input) → each under its backend and under {@code all} → panes of
 * one slide (tumbling windows; late samples to a side output) → sliding windows ({@link SlaWindows}) → JSON records
 * for {@code commitflow.sla}: {@code kind} {@code window}, {@code spike} or {@code late}.
 *
 * <p>Why the time the outcome was made, not the event's Kafka timestamp: by the event's time, an outcome slower than
 * the out-of-orderness bound came after its pane had closed and left the quantiles — exactly the tail that matters
 * at saturation — and a producer whose clock ran ahead moved the watermark so that every later sample was late. A
 * window now holds the outcomes made in it, with their full latency, as a Prometheus histogram would. Each subtask
 * stamps in the order it sends, so a sample is late only when the clocks of two machines disagree by more than the
 * bound; such a sample is still written out as {@code late}, never dropped.
 */
public final class SlaPipeline {
    public static final OutputTag<SlaSample> LATE = new OutputTag<>("sla-late") {};

    private SlaPipeline() {}

    public static DataStream<SlaRecord> attach(DataStream<Suggestion> suggestions, DataStream<DeadLetter> deadLetters,
                                            SlaSettings settings) {
        // each input keeps its own watermark (the union waits for the slower, an idle one drops out)
        WatermarkStrategy<SlaSample> eventTime = WatermarkStrategy
                .<SlaSample>forBoundedOutOfOrderness(settings.outOfOrderness())
                .withTimestampAssigner((s, ts) -> s.ts())
                .withIdleness(settings.idleness());
        DataStream<SlaSample> samples = suggestions.map(new FromSuggestion()).name("sla: suggestion samples")
                .assignTimestampsAndWatermarks(eventTime).uid("sla-watermarks").name("sla: event time (suggestions)")
                .union(deadLetters.map(new FromDeadLetter()).name("sla: error samples")
                        .assignTimestampsAndWatermarks(eventTime).uid("sla-watermarks-dlq").name("sla: event time (errors)"))
                .flatMap(new UnderAll()).name("sla: per backend and all");
        SingleOutputStreamOperator<Pane> panes = samples.keyBy(new Key())
                .window(TumblingEventTimeWindows.of(settings.slide()))
                .sideOutputLateData(LATE)
                .process(new BuildPane(settings)).uid("sla-panes").name("sla: panes (HdrHistogram)");
        SingleOutputStreamOperator<SlaWindow> windows = panes.keyBy(new PaneKey())
                .process(new SlaWindows(settings)).uid("sla-windows").name("sla: sliding windows, spikes");
        return windows.map(new WindowJson()).name("sla: windows as JSON")
                .union(windows.getSideOutput(SlaWindows.SPIKES).map(new SpikeJson()).name("sla: spikes as JSON"),
                        panes.getSideOutput(LATE).flatMap(new Late()).name("sla: late samples"));
    }

    static final class FromSuggestion implements MapFunction<Suggestion, SlaSample> {
        @Override
        public SlaSample map(Suggestion s) {
            return SlaSample.of(s);
        }
    }

    static final class FromDeadLetter implements MapFunction<DeadLetter, SlaSample> {
        @Override
        public SlaSample map(DeadLetter d) {
            return SlaSample.of(d);
        }
    }

    static final class UnderAll implements FlatMapFunction<SlaSample, SlaSample> {
        @Override
        public void flatMap(SlaSample s, Collector<SlaSample> out) {
            out.collect(s);
            out.collect(s.asAll());
        }
    }

    static final class Key implements KeySelector<SlaSample, String> {
        @Override
        public String getKey(SlaSample s) {
            return s.key();
        }
    }

    static final class PaneKey implements KeySelector<Pane, String> {
        @Override
        public String getKey(Pane p) {
            return SlaSample.key(p.tenant(), p.backend());
        }
    }

    static final class WindowJson implements MapFunction<SlaWindow, SlaRecord> {
        @Override
        public SlaRecord map(SlaWindow w) {
            return new SlaRecord(w.tenant(), Json.string(w));
        }
    }

    static final class SpikeJson implements MapFunction<Spike, SlaRecord> {
        @Override
        public SlaRecord map(Spike s) {
            return new SlaRecord(s.tenant(), Json.string(s), s.slowTraceIds().isEmpty() ? null : s.slowTraceIds().get(0));
        }
    }

    /**
     * A late sample, counted ({@code slaLateSamples}) and written out once (its copy under {@code all} is late too):
     * never dropped silently.
     */
    static final class Late extends RichFlatMapFunction<SlaSample, SlaRecord> {
        private transient Counter late;

        @Override
        public void open(OpenContext ctx) {
            late = getRuntimeContext().getMetricGroup().counter("slaLateSamples");
        }

        @Override
        public void flatMap(SlaSample s, Collector<SlaRecord> out) {
            if (!s.backend().equals(SlaSample.ALL)) {
                late.inc();
                out.collect(new SlaRecord(s.tenant(), Json.string(new LateSample("late", s.tenant(), s.backend(), s.ts(),
                        s.latencyMs(), s.error(), s.traceId()))));
            }
        }
    }

    /** A sample that came after its pane was closed. */
    public record LateSample(String kind, String tenant, String backend, long ts, long latencyMs, String error,
                             String traceId) {}
}
