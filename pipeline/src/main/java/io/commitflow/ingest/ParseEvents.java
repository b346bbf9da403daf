package io.commitflow.ingest;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.EventParser;
import io.commitflow.event.Origin;
import io.commitflow.event.PushEvent;
import io.commitflow.event.RawRecord;
import io.commitflow.event.Reason;
import io.commitflow.spans.StageTrace;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Parses and validates raw Kafka records; a record read from a tenant's own topic is that tenant's
 * ({@link EventParser#parse(RawRecord, String)}). Commits go to the main output, pushes to {@link #PUSHES},
 * everything else to {@link DeadLetters#TAG} with its reason and origin. Stateless.
 *
 * <p>Metrics (counts): {@code eventsIn}, {@code commitsIn}, {@code pushesIn}, {@code deadLetters}.
 */
public class ParseEvents extends ProcessFunction<RawRecord, CommitEvent> {
    private static final long serialVersionUID = 1L;

    public static final OutputTag<PushEvent> PUSHES = new OutputTag<>("pushes", TypeInformation.of(PushEvent.class));

    private final EventParser parser;
    private transient Counter eventsIn;
    private transient Counter commitsIn;
    private transient Counter pushesIn;
    private transient Counter deadLetters;
    private transient StageTrace tracing;

    public ParseEvents(int maxEventBytes) {
        this.parser = new EventParser(maxEventBytes);
    }

    @Override
    public void open(OpenContext openContext) {
        var metrics = getRuntimeContext().getMetricGroup();
        eventsIn = metrics.counter("eventsIn");
        commitsIn = metrics.counter("commitsIn");
        pushesIn = metrics.counter("pushesIn");
        deadLetters = metrics.counter("deadLetters");
        tracing = StageTrace.acquire();
    }

    @Override
    public void close() {
        if (tracing != null) {
            tracing.close();
            tracing = null;
        }
    }

    @Override
    public void processElement(RawRecord record, Context ctx, Collector<CommitEvent> out) {
        eventsIn.inc();
        long startNs = tracing.enabled() ? tracing.nowNs() : 0;
        String tenant = record.sourceTenant();
        EventParser.Result result = tenant == null ? parser.parse(record)
                : !tenant.isEmpty() ? parser.parse(record, tenant)
                : EventParser.refuse(record, Reason.WRONG_TENANT, "the record came from topic "
                        + record.origin().topic() + ", which is no tenant's own topic");
        if (tracing.enabled()) {
            trace(record.origin(), result, startNs);
        }
        if (result instanceof EventParser.Result.Commit c) {
            commitsIn.inc();
            out.collect(c.event());
        } else if (result instanceof EventParser.Result.Push p) {
            pushesIn.inc();
            ctx.output(PUSHES, p.event());
        } else {
            deadLetters.inc();
            ctx.output(DeadLetters.TAG, ((EventParser.Result.Rejected) result).deadLetter());
        }
    }

    private void trace(Origin o, EventParser.Result result, long startNs) {
        if (result instanceof EventParser.Result.Commit c) {
            tracing.consumed(o, c.event(), startNs);
        } else if (result instanceof EventParser.Result.Push p) {
            tracing.consumed(o, p.event(), startNs);
        } else {
            tracing.rejected(o, ((EventParser.Result.Rejected) result).deadLetter(), startNs);
        }
    }
}
