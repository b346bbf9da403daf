package io.commitflow.slawindows;

import io.commitflow.sla.Pane;
import io.commitflow.sla.SlaSample;
import io.commitflow.sla.SlaSettings;
import io.commitflow.sla.SlaStats;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/** Summarises a key's samples of one slide into a {@link Pane} (tumbling event-time windows of the slide). */
public class BuildPane extends ProcessWindowFunction<SlaSample, Pane, String, TimeWindow> {
    private static final long serialVersionUID = 1L;
    private final SlaSettings settings;

    public BuildPane(SlaSettings settings) {
        this.settings = settings;
    }

    @Override
    public void process(String key, Context ctx, Iterable<SlaSample> samples, Collector<Pane> out) {
        SlaSample first = samples.iterator().next();
        out.collect(SlaStats.pane(first.tenant(), first.backend(), ctx.window().getStart(), ctx.window().getEnd(),
                samples, settings));
    }
}
