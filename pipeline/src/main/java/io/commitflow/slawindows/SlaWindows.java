package io.commitflow.slawindows;

import io.commitflow.sla.Pane;
import io.commitflow.sla.SlaSettings;
import io.commitflow.sla.SlaStats;
import io.commitflow.sla.SlaWindow;
import io.commitflow.sla.Spike;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Sliding SLA windows from panes: every slide, for each key with samples in the last {@code size}, the panes of
 * the window are merged (their histograms add exactly) into a {@link SlaWindow}; a window whose Δ = P999 − P99
 * passes the threshold also yields a {@link Spike} on {@link #SPIKES}. Event time: a window ending at {@code T}
 * is emitted when the watermark passes {@code T − 1}, like Flink's own sliding windows — which would keep each
 * sample in {@code size / slide} windows; here it is summarised once, in its pane.
 *
 * <p>State per key: the panes of the current window (at most {@code size / slide}), in RocksDB.
 *
 * <p>Metrics, per tenant and backend (labels {@code tenant}, {@code backend}), of the latest window:
 * {@code slaLatencyP50Millis}, {@code slaLatencyP95Millis}, {@code slaLatencyP99Millis}, {@code slaLatencyP999Millis},
 * {@code slaDeltaMillis} (P999 − P99), {@code slaThroughputPerSecond}, {@code slaErrorRatio},
 * {@code slaAttainmentRatio}, {@code slaWindowSuggestions}; live quality of the suggestions whose event carried the real
 * message: {@code slaQualityBnormPercent} (mean B-Norm, 0–100), {@code slaUnfaithfulRatio},
 * {@code slaQualityScoredSuggestions} (both quality gauges read NaN when the window scored none); counters
 * {@code slaWindows}, {@code slaSpikes}.
 */
public class SlaWindows extends KeyedProcessFunction<String, Pane, SlaWindow> {
    private static final long serialVersionUID = 1L;
    public static final OutputTag<Spike> SPIKES = new OutputTag<>("sla-spikes") {};

    private final SlaSettings settings;
    private transient MapState<Long, Pane> panes;
    private transient Map<String, SlaWindow> latest;
    private transient Counter windows;
    private transient Counter spikes;

    public SlaWindows(SlaSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        panes = getRuntimeContext().getMapState(new MapStateDescriptor<>("sla-panes", Types.LONG,
                TypeInformation.of(Pane.class)));
        latest = new HashMap<>();
        windows = getRuntimeContext().getMetricGroup().counter("slaWindows");
        spikes = getRuntimeContext().getMetricGroup().counter("slaSpikes");
    }

    @Override
    public void processElement(Pane pane, Context ctx, Collector<SlaWindow> out) throws Exception {
        panes.put(pane.end(), pane);
        long slide = settings.slide().toMillis();
        for (int i = 0; i < settings.panesPerWindow(); i++) {
            ctx.timerService().registerEventTimeTimer(pane.end() + i * slide - 1);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<SlaWindow> out) throws Exception {
        long end = timestamp + 1;
        long start = end - settings.size().toMillis();
        List<Pane> in = new ArrayList<>();
        List<Long> expired = new ArrayList<>();
        for (Map.Entry<Long, Pane> e : panes.entries()) {
            long paneEnd = e.getKey();
            if (paneEnd > start && paneEnd <= end) {
                in.add(e.getValue());
            }
            if (paneEnd <= start + settings.slide().toMillis()) {
                expired.add(paneEnd); // in no later window
            }
        }
        for (long gone : expired) {
            panes.remove(gone);
        }
        if (in.isEmpty()) {
            return;
        }
        Pane any = in.get(0);
        SlaStats.Merged m = SlaStats.merge(in);
        SlaWindow w = SlaStats.window(any.tenant(), any.backend(), start, end, m, settings.targetMs(any.tenant()));
        out.collect(w);
        windows.inc();
        Spike spike = SlaStats.spike(w, m, settings.spikeThresholdMs());
        if (spike != null) {
            ctx.output(SPIKES, spike);
            spikes.inc();
        }
        publish(ctx.getCurrentKey(), w);
    }

    /** The key's gauges read its latest window. */
    private void publish(String key, SlaWindow w) {
        if (latest.put(key, w) == null) {
            MetricGroup g = getRuntimeContext().getMetricGroup().addGroup("tenant", w.tenant()).addGroup("backend", w.backend());
            g.gauge("slaLatencyP50Millis", () -> latest.get(key).p50Ms());
            g.gauge("slaLatencyP95Millis", () -> latest.get(key).p95Ms());
            g.gauge("slaLatencyP99Millis", () -> latest.get(key).p99Ms());
            g.gauge("slaLatencyP999Millis", () -> latest.get(key).p999Ms());
            g.gauge("slaDeltaMillis", () -> latest.get(key).deltaMs());
            g.gauge("slaThroughputPerSecond", () -> latest.get(key).tps());
            g.gauge("slaErrorRatio", () -> latest.get(key).errorRate());
            g.gauge("slaAttainmentRatio", () -> latest.get(key).attainment());
            g.gauge("slaWindowSuggestions", () -> latest.get(key).count());
            g.gauge("slaQualityBnormPercent", () -> orNaN(latest.get(key).bnorm()));
            g.gauge("slaUnfaithfulRatio", () -> orNaN(latest.get(key).unfaithfulRatio()));
            g.gauge("slaQualityScoredSuggestions", () -> latest.get(key).scored());
        }
    }

    private static double orNaN(Double d) {
        return d == null ? Double.NaN : d;
    }
}
