package io.commitflow.generate;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.Suggestion;
import io.commitflow.git.DiffedCommit;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;

import java.util.List;

/**
 * Writes a suggestion for each diffed commit with the built-in {@link TemplateGenerator}. Stateless.
 * Latency is measured from the event's Kafka timestamp to the moment the suggestion is made.
 *
 * <p>Metrics: {@code suggestions} (count).
 */
public class GenerateSuggestions extends RichMapFunction<DiffedCommit, Suggestion> {
    private static final long serialVersionUID = 1L;
    public static final String BACKEND = "template";

    private final TemplateGenerator generator = new TemplateGenerator();
    private transient Counter suggestions;

    @Override
    public void open(OpenContext openContext) {
        suggestions = getRuntimeContext().getMetricGroup().counter("suggestions");
    }

    @Override
    public Suggestion map(DiffedCommit diff) {
        Draft d = generator.generate(diff);
        CommitEvent c = diff.commit();
        suggestions.inc();
        long now = System.currentTimeMillis();
        return new Suggestion(c.repo(), c.sha(), d.subject(), d.body(), d.type(), d.scope(), BACKEND, 0.0, List.of(),
                "miss", Math.max(0, now - c.origin().kafkaTs()), c.traceId(), c.tenant(), diff.truncation(), c.ts(),
                c.origin().kafkaTs());
    }
}
