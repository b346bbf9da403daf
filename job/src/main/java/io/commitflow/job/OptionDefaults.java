package io.commitflow.job;

import io.commitflow.sla.SlaSettings;
import io.commitflow.suggest.SuggestSettings;
import org.apache.flink.connector.base.DeliveryGuarantee;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The defaults of the job's options, read from the settings records' own defaults ({@link KafkaSettings#defaults},
 * {@link PipelineSettings#defaults}, {@link SuggestSettings#DEFAULT}, {@link SlaSettings#DEFAULT}) and written the way
 * the options are typed ({@code 24h}, {@code 5ms}, {@code exactly-once}): each default lives in its record only, and
 * {@code --help} shows it. Picocli applies these to the options a command line leaves out.
 */
public final class OptionDefaults implements CommandLine.IDefaultValueProvider {
    private static final Map<String, String> BY_OPTION = byOption();

    @Override
    public String defaultValue(ArgSpec arg) {
        // only the job's own options: another command's --group-id (commitflow mirror's) keeps its own default
        if (!(arg instanceof OptionSpec o) || !(o.userObject() instanceof java.lang.reflect.Field f)
                || !JOB_OPTIONS.contains(f.getDeclaringClass())) {
            return null;
        }
        return BY_OPTION.get(o.longestName());
    }

    private static final java.util.Set<Class<?>> JOB_OPTIONS =
            java.util.Set.of(KafkaOptions.class, PipelineOptions.class, SlaOptions.class);

    /** Every option that has a default, with it. */
    static Map<String, String> all() {
        return BY_OPTION;
    }

    private static Map<String, String> byOption() {
        Map<String, String> m = new LinkedHashMap<>();
        KafkaSettings k = KafkaSettings.defaults("");
        m.put("--events-topic", k.eventsTopic());
        m.put("--suggestions-topic", k.suggestionsTopic());
        m.put("--dlq-topic", k.deadLetterTopic());
        m.put("--sla-topic", k.slaTopic());
        m.put("--group-id", k.groupId());
        m.put("--start-from", k.fromEarliest() ? "earliest" : "latest");
        m.put("--delivery", k.delivery() == DeliveryGuarantee.EXACTLY_ONCE ? "exactly-once" : "at-least-once");
        m.put("--transactional-id-prefix", k.transactionalIdPrefix());
        m.put("--transaction-timeout", duration(k.transactionTimeout()));

        PipelineSettings p = PipelineSettings.defaults(null);
        m.put("--dedup-ttl", duration(p.dedupTtl()));
        m.put("--max-event-bytes", Integer.toString(p.maxEventBytes()));
        m.put("--max-files", Integer.toString(p.budget().maxFiles()));
        m.put("--max-lines", Integer.toString(p.budget().maxLines()));
        m.put("--max-patch-bytes", Integer.toString(p.budget().maxBytes()));
        m.put("--max-blob-bytes", Integer.toString(p.budget().maxBlobBytes()));
        m.put("--push-retry-max-wait", duration(p.mirrorWait().maxWait())); // the longest of its names

        SuggestSettings s = p.suggest();
        m.put("--cache-ttl", duration(s.cacheTtl()));
        m.put("--max-history-per-repo", Integer.toString(s.maxRows()));
        m.put("--engine", s.engine().label());
        m.put("--device-budget", Long.toString(s.deviceBudgetMiB()));
        m.put("--batch-max", Integer.toString(s.maxBatch()));
        m.put("--batch-wait", duration(s.maxWait()));
        m.put("--suggest-workers", Integer.toString(s.workers()));
        m.put("--async-timeout", duration(s.timeout()));
        m.put("--async-capacity", Integer.toString(s.capacity()));
        m.put("--engine-retries", Integer.toString(s.retries()));

        SlaSettings sla = p.sla();
        m.put("--sla-window", duration(sla.size()));
        m.put("--sla-slide", duration(sla.slide()));
        m.put("--sla-out-of-orderness", duration(sla.outOfOrderness()));
        m.put("--sla-idleness", duration(sla.idleness()));
        m.put("--sla-spike-threshold", duration(Duration.ofMillis(sla.spikeThresholdMs())));
        m.put("--sla-target", duration(Duration.ofMillis(sla.defaultTargetMs())));
        m.put("--sla-weights", weights(sla.weights()));
        return Map.copyOf(m);
    }

    /** In the largest unit that divides it: {@code 24h}, {@code 10m}, {@code 5s}, {@code 5ms}. */
    static String duration(Duration d) {
        long ms = d.toMillis();
        if (ms != 0 && ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms != 0 && ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }

    /** As {@code --sla-weights} takes them: {@code 0.8=1.0,0.6=0.7,0.0=0.2}. */
    static String weights(SlaSettings.SimilarityWeights w) {
        return java.util.stream.IntStream.range(0, w.bounds().size())
                .mapToObj(i -> w.bounds().get(i) + "=" + w.weights().get(i)).collect(Collectors.joining(","));
    }
}
