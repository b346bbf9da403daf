package io.commitflow.job;

import io.commitflow.diff.DedupAndDiff;
import io.commitflow.event.EventParser;
import io.commitflow.git.DiffBudget;
import io.commitflow.push.PushExpander;
import io.commitflow.push.RetryPolicy;
import io.commitflow.sla.SlaSettings;
import io.commitflow.suggest.SuggestSettings;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.description.Formatter;
import org.apache.flink.configuration.description.TextElement;
import org.apache.flink.connector.base.DeliveryGuarantee;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Every setting of the job, once: its key, type, default and description, as Flink {@link ConfigOption}s. The job
 * reads them from the cluster's {@code config.yaml} and {@code -D key=value}, and the command line's flags override
 * them: one flag per option, made from it by {@link JobFlags} and named in {@code flags.properties}.
 * {@link JobConfigDefaults} gives picocli each flag's default and its help text from here.
 */
public final class JobConfig {
    private JobConfig() {}

    private static final KafkaSettings KAFKA = KafkaSettings.defaults("");

    public static final ConfigOption<String> KAFKA_BOOTSTRAP = ConfigOptions.key("commitflow.kafka.bootstrap")
            .stringType().noDefaultValue()
            .withDescription("Kafka bootstrap servers.");

    public static final ConfigOption<String> KAFKA_EVENTS_TOPIC = ConfigOptions.key("commitflow.kafka.events-topic")
            .stringType().defaultValue(KAFKA.eventsTopic())
            .withDescription("Topic with push and commit events.");

    public static final ConfigOption<String> KAFKA_SUGGESTIONS_TOPIC =
            ConfigOptions.key("commitflow.kafka.suggestions-topic")
            .stringType().defaultValue(KAFKA.suggestionsTopic())
            .withDescription("Topic the suggestions go to.");

    public static final ConfigOption<String> KAFKA_DLQ_TOPIC = ConfigOptions.key("commitflow.kafka.dlq-topic")
            .stringType().defaultValue(KAFKA.deadLetterTopic())
            .withDescription("Dead-letter topic for rejected records, with reasons.");

    public static final ConfigOption<String> KAFKA_SLA_TOPIC = ConfigOptions.key("commitflow.kafka.sla-topic")
            .stringType().defaultValue(KAFKA.slaTopic())
            .withDescription("Topic the SLA windows, spikes and late samples go to, JSON with a kind field.");

    public static final ConfigOption<String> KAFKA_REQUESTS_TOPIC = ConfigOptions.key("commitflow.kafka.requests-topic")
            .stringType().defaultValue(KAFKA.requestsTopic())
            .withDescription("Topic 'commitflow suggest' sends drafts to, read by a source of its own so that a draft "
                    + "does not wait behind the events topic's traffic; a group without offsets starts at its "
                    + "end (no one waits for an old draft).");

    public static final ConfigOption<String> KAFKA_REPLIES_TOPIC = ConfigOptions.key("commitflow.kafka.replies-topic")
            .stringType().defaultValue(KAFKA.repliesTopic())
            .withDescription("Topic the suggestions for drafts go to (what 'commitflow suggest' and the "
                    + "prepare-commit-msg hook wait for), written at once, at-least-once.");

    public static final ConfigOption<String> KAFKA_GROUP_ID = ConfigOptions.key("commitflow.kafka.group-id")
            .stringType().defaultValue(KAFKA.groupId())
            .withDescription("Kafka consumer group of the source.");

    public static final ConfigOption<String> KAFKA_START_FROM = ConfigOptions.key("commitflow.kafka.start-from")
            .stringType().defaultValue(KAFKA.fromEarliest() ? "earliest" : "latest")
            .withDescription("Where a group without committed offsets starts.");

    public static final ConfigOption<String> KAFKA_DELIVERY = ConfigOptions.key("commitflow.kafka.delivery")
            .stringType()
            .defaultValue(KAFKA.delivery() == DeliveryGuarantee.EXACTLY_ONCE ? "exactly-once" : "at-least-once")
            .withDescription("Delivery guarantee of the output topics: exactly-once (a suggestion becomes visible "
                    + "when the checkpoint that commits it completes; its readers must use "
                    + "isolation.level=read_committed) or at-least-once (visible at once; a consumer upserts by repo "
                    + "and sha to drop the duplicates a failover can bring).");

    public static final ConfigOption<String> KAFKA_TRANSACTIONAL_ID_PREFIX =
            ConfigOptions.key("commitflow.kafka.transactional-id-prefix")
            .stringType().noDefaultValue()
            .withDescription("Prefix of the sinks' Kafka transactional ids (default: the consumer group, --group-id). "
                    + "Two deployments with one prefix fence each other's transactions; each deployment has a group "
                    + "of its own anyway (one group's offsets cannot serve two jobs), so the default keeps them apart.");

    public static final ConfigOption<Duration> KAFKA_TRANSACTION_TIMEOUT =
            ConfigOptions.key("commitflow.kafka.transaction-timeout")
            .durationType().defaultValue(KAFKA.transactionTimeout())
            .withDescription("Kafka transaction timeout of the sinks: above the checkpoint interval, at most the "
                    + "broker's transaction.max.timeout.ms (15m by default).");

    public static final ConfigOption<Map<String, String>> KAFKA_PROPERTIES =
            ConfigOptions.key("commitflow.kafka.properties")
            .mapType().defaultValue(Map.of())
            .withDescription("Extra Kafka client property, e.g. security.protocol=SASL_SSL (for the job: its source "
                    + "and sinks). Repeatable. A secret (sasl.jaas.config, *password*) is refused here unless its value "
                    + "names it, ${env:VAR} or ${file:PATH:KEY}: use --kafka-secret-file or --kafka-secret-env.");

    public static final ConfigOption<Map<String, String>> KAFKA_PROPERTIES_FROM_ENV =
            ConfigOptions.key("commitflow.kafka.properties-from-env")
            .mapType().defaultValue(Map.of())
            .withDescription("A Kafka client property whose value is read from an environment variable, so that "
                    + "secrets stay out of command lines and manifests, e.g. "
                    + "sasl.jaas.config=KAFKA_SASL_JAAS_CONFIG. Repeatable.");

    public static final ConfigOption<String> PIPELINE_MIRROR_ROOT = ConfigOptions.key("commitflow.pipeline.mirror-root")
            .stringType().noDefaultValue()
            .withDescription("Folder holding the bare mirrors the diffs are read from. Without it only events with an "
                    + "inline patch can be described.");

    public static final ConfigOption<Duration> PIPELINE_DEDUP_TTL = ConfigOptions.key("commitflow.pipeline.dedup-ttl")
            .durationType().defaultValue(DedupAndDiff.DEFAULT_TTL)
            .withDescription("How long a diffed commit is remembered, so that a redelivery is dropped; a commit that "
                    + "ended in a dead letter is not remembered, and its redelivery is tried again.");

    public static final ConfigOption<Integer> PIPELINE_MAX_EVENT_BYTES =
            ConfigOptions.key("commitflow.pipeline.max-event-bytes")
            .intType().defaultValue(EventParser.DEFAULT_MAX_EVENT_BYTES)
            .withDescription("Larger records go to the DLQ unparsed.");

    public static final ConfigOption<Integer> PIPELINE_MAX_FILES = ConfigOptions.key("commitflow.pipeline.max-files")
            .intType().defaultValue(DiffBudget.DEFAULT.maxFiles())
            .withDescription("Files described per commit.");

    public static final ConfigOption<Integer> PIPELINE_MAX_LINES = ConfigOptions.key("commitflow.pipeline.max-lines")
            .intType().defaultValue(DiffBudget.DEFAULT.maxLines())
            .withDescription("Patch lines kept per commit.");

    public static final ConfigOption<Integer> PIPELINE_MAX_PATCH_BYTES =
            ConfigOptions.key("commitflow.pipeline.max-patch-bytes")
            .intType().defaultValue(DiffBudget.DEFAULT.maxBytes())
            .withDescription("Patch bytes kept per commit.");

    public static final ConfigOption<Integer> PIPELINE_MAX_BLOB_BYTES =
            ConfigOptions.key("commitflow.pipeline.max-blob-bytes")
            .intType().defaultValue(DiffBudget.DEFAULT.maxBlobBytes())
            .withDescription("Larger files are summarised like binaries, never loaded.");

    public static final ConfigOption<Duration> PIPELINE_MAX_DIFF_TIME =
            ConfigOptions.key("commitflow.pipeline.max-diff-time")
            .durationType().defaultValue(DiffBudget.DEFAULT.maxTime())
            .withDescription("How long one commit's diff may take (rename detection and files together); a longer "
                    + "one is stopped and goes to the DLQ as DIFF_TIMEOUT. 0s: no limit.");

    public static final ConfigOption<Integer> PIPELINE_MAX_PUSH_COMMITS =
            ConfigOptions.key("commitflow.pipeline.max-push-commits")
            .intType().defaultValue(PushExpander.DEFAULT_MAX_COMMITS)
            .withDescription("The most commits one push may bring; a push that brings more (a history imported in "
                    + "one push) goes to the DLQ whole, as TOO_MANY_COMMITS, before any of its commits is described.");

    public static final ConfigOption<Duration> PIPELINE_MIRROR_MAX_WAIT =
            ConfigOptions.key("commitflow.pipeline.mirror-max-wait")
            .durationType().defaultValue(RetryPolicy.DEFAULT.maxWait())
            .withDescription("How long a push or a commit event waits for its commits to reach the mirror before it "
                    + "goes to the DLQ as UNKNOWN_COMMIT (retries from 500ms, doubling up to 30s); "
                    + "--push-retry-max-wait is its former name.");

    public static final ConfigOption<Duration> SUGGEST_CACHE_TTL = ConfigOptions.key("commitflow.suggest.cache-ttl")
            .durationType().defaultValue(SuggestSettings.DEFAULT.cacheTtl())
            .withDescription("How long the result cache keeps a suggestion for a patch-id.");

    public static final ConfigOption<Integer> SUGGEST_MAX_HISTORY_PER_REPO =
            ConfigOptions.key("commitflow.suggest.max-history-per-repo")
            .intType().defaultValue(SuggestSettings.DEFAULT.maxRows())
            .withDescription("Earlier commits per repository the generator keeps to learn from; the oldest go first "
                    + "(default: ${DEFAULT-VALUE}; about 8 KiB of task memory each).");

    public static final ConfigOption<Boolean> SUGGEST_FLEET = ConfigOptions.key("commitflow.suggest.fleet")
            .booleanType().defaultValue(SuggestSettings.DEFAULT.fleet())
            .withDescription("A repository with fewer than " + io.commitflow.generate.RetrievalGenerator.YOUNG
                    + " commits learned also draws exemplars from its tenant's other repositories (their commits on "
                    + "files of the same name: build files, CI workflows, documents; or with a much alike diff); "
                    + "--no-fleet keeps every repository to its own history, as where a tenant's repositories must "
                    + "not see each other's subjects.");

    public static final ConfigOption<Integer> SUGGEST_FLEET_HISTORY =
            ConfigOptions.key("commitflow.suggest.fleet-history")
            .intType().defaultValue(SuggestSettings.DEFAULT.fleetRows())
            .withDescription("The newest commits of each tenant its fleet memory keeps for young repositories "
                    + "(default: ${DEFAULT-VALUE}; a few KiB of task memory each, per tenant).");

    public static final ConfigOption<Integer> SUGGEST_MIN_SUBJECT_CHARS =
            ConfigOptions.key("commitflow.suggest.min-subject-chars")
            .intType().defaultValue(SuggestSettings.DEFAULT.minSubjectChars())
            .withDescription("The fewest characters of a built-in suggestion's subject, padded with the place it "
                    + "changed below that: 0, as the repository writes them (20, or 6 where 3% or more of its own "
                    + "subjects are shorter than 20: 'Release 1.0.30', 'Fix typo'; 6 for a subject that names its "
                    + "main file where no place fits: 'Update ChangeLog'; a cherry-pick's real subject from the result "
                    + "cache as its author wrote it, from 6), or 6-72 for every repository and subject, the cache's "
                    + "too (20 where a load tester checks 20-72 characters).");

    public static final ConfigOption<Double> SUGGEST_REUSE_FLOOR =
            ConfigOptions.key("commitflow.suggest.reuse-floor")
            .doubleType().defaultValue(SuggestSettings.DEFAULT.reuseFloor())
            .withDescription("How alike a neighbour's diff must be (its retrieval score, 0-1) for the built-in "
                    + "generator to suggest that commit's subject; below it, the diff's own description in the "
                    + "repository's form. 0 suggests any neighbour's subject that passes the checks: closer to the "
                    + "real subjects by B-Norm, and far more often the subject of another change (docs/quality.md).");

    public static final ConfigOption<String> SUGGEST_ENGINE = ConfigOptions.key("commitflow.suggest.engine")
            .stringType().defaultValue(SuggestSettings.DEFAULT.engine().label())
            .withDescription("Retrieval engine: auto takes CUDA where a GPU and its driver load, else the CPU; cuda "
                    + "fails when there is none.");

    public static final ConfigOption<Long> SUGGEST_DEVICE_BUDGET = ConfigOptions.key("commitflow.suggest.device-budget")
            .longType().defaultValue(SuggestSettings.DEFAULT.deviceBudgetMiB())
            .withDescription("Device memory one task's CUDA engine may use, in MiB.");

    public static final ConfigOption<Integer> SUGGEST_BATCH_MAX = ConfigOptions.key("commitflow.suggest.batch-max")
            .intType().defaultValue(SuggestSettings.DEFAULT.maxBatch())
            .withDescription("Most requests in one engine call.");

    public static final ConfigOption<Duration> SUGGEST_BATCH_WAIT = ConfigOptions.key("commitflow.suggest.batch-wait")
            .durationType().defaultValue(SuggestSettings.DEFAULT.maxWait())
            .withDescription("How long a request waits for its batch to fill.");

    public static final ConfigOption<Integer> SUGGEST_WORKERS = ConfigOptions.key("commitflow.suggest.workers")
            .intType().defaultValue(SuggestSettings.DEFAULT.workers())
            .withDescription("Threads per task answering batches.");

    public static final ConfigOption<Duration> SUGGEST_ASYNC_TIMEOUT =
            ConfigOptions.key("commitflow.suggest.async-timeout")
            .durationType().defaultValue(SuggestSettings.DEFAULT.timeout())
            .withDescription("After this a request is answered by the exact CPU scan instead.");

    public static final ConfigOption<Integer> SUGGEST_ASYNC_CAPACITY =
            ConfigOptions.key("commitflow.suggest.async-capacity")
            .intType().defaultValue(SuggestSettings.DEFAULT.capacity())
            .withDescription("Requests in flight per task; beyond it the job back-pressures.");

    public static final ConfigOption<Integer> SUGGEST_ENGINE_RETRIES =
            ConfigOptions.key("commitflow.suggest.engine-retries")
            .intType().defaultValue(SuggestSettings.DEFAULT.retries())
            .withDescription("Retries of a failed engine call before the CPU scan answers.");

    public static final ConfigOption<List<String>> SUGGEST_TENANT_TIER =
            ConfigOptions.key("commitflow.suggest.tenant-tier")
            .stringType().asList().defaultValues()
            .withDescription("A tenant's priority tier: gold, silver or bronze (repeat or separate with commas; "
                    + "tenants not named are silver). Example: --tenant-tier acme=gold,ci-bots=bronze.");

    public static final ConfigOption<List<String>> SUGGEST_LLM = ConfigOptions.key("commitflow.suggest.llm")
            .stringType().asList().defaultValues()
            .withDescription("The LLM endpoint that writes a tenant's messages (repeat or separate with commas); KIND "
                    + "is openai (any OpenAI-compatible server) or anthropic; the key comes from OPENAI_API_KEY "
                    + "or ANTHROPIC_API_KEY on the TaskManagers. Other tenants get the built-in generator, "
                    + "which is also every LLM tenant's fallback. Example: --llm "
                    + "acme=openai:qwen2.5-coder@http://vllm:8000.");

    public static final ConfigOption<List<String>> SUGGEST_LLM_INSTRUCTIONS =
            ConfigOptions.key("commitflow.suggest.llm-instructions")
            .stringType().asList().defaultValues()
            .withDescription("A tenant's own instructions to its LLM (--llm), as a UTF-8 text file of at most 4,000 "
                    + "characters read when the job is submitted; every prompt of the tenant ends with them. Repeat "
                    + "or separate with commas. Example: --llm-instructions acme=/etc/commitflow/acme-style.md.");

    public static final ConfigOption<Duration> SLA_WINDOW = ConfigOptions.key("commitflow.sla.window")
            .durationType().defaultValue(SlaSettings.DEFAULT.size())
            .withDescription("SLA window length; a multiple of --sla-slide.");

    public static final ConfigOption<Duration> SLA_SLIDE = ConfigOptions.key("commitflow.sla.slide")
            .durationType().defaultValue(SlaSettings.DEFAULT.slide())
            .withDescription("How often an SLA window ends.");

    public static final ConfigOption<Duration> SLA_OUT_OF_ORDERNESS =
            ConfigOptions.key("commitflow.sla.out-of-orderness")
            .durationType().defaultValue(SlaSettings.DEFAULT.outOfOrderness())
            .withDescription("How far behind the newest an outcome may arrive before it is late (counted and written "
                    + "to the SLA topic, not windowed).");

    public static final ConfigOption<Duration> SLA_IDLENESS = ConfigOptions.key("commitflow.sla.idleness")
            .durationType().defaultValue(SlaSettings.DEFAULT.idleness())
            .withDescription("A stream without outcomes this long stops holding event time back.");

    public static final ConfigOption<Duration> SLA_SPIKE_THRESHOLD = ConfigOptions.key("commitflow.sla.spike-threshold")
            .durationType().defaultValue(Duration.ofMillis(SlaSettings.DEFAULT.spikeThresholdMs()))
            .withDescription("P999 − P99 above this writes a spike record.");

    public static final ConfigOption<Duration> SLA_TARGET = ConfigOptions.key("commitflow.sla.target")
            .durationType().defaultValue(Duration.ofMillis(SlaSettings.DEFAULT.defaultTargetMs()))
            .withDescription("Latency a suggestion must meet, for tenants not named in --sla-tenant-target (default: "
                    + "${DEFAULT-VALUE}, the reference report's P95 target).");

    public static final ConfigOption<List<String>> SLA_TENANT_TARGET = ConfigOptions.key("commitflow.sla.tenant-target")
            .stringType().asList().defaultValues()
            .withDescription("A tenant's own latency target (repeat or separate with commas). Example: "
                    + "--sla-tenant-target acme=300ms,ci-bots=5s.");

    public static final ConfigOption<String> SLA_WEIGHTS = ConfigOptions.key("commitflow.sla.weights")
            .stringType().defaultValue(weights(SlaSettings.DEFAULT.weights()))
            .withDescription("Weight of a suggestion in the attainment by its retrieval similarity: the first bound it "
                    + "reaches, descending, the last 0.");

    /** Every option, in the order {@code --help} lists their flags. */
    public static final List<ConfigOption<?>> ALL = List.of(KAFKA_BOOTSTRAP,
            KAFKA_EVENTS_TOPIC,
            KAFKA_SUGGESTIONS_TOPIC,
            KAFKA_DLQ_TOPIC,
            KAFKA_SLA_TOPIC,
            KAFKA_REQUESTS_TOPIC,
            KAFKA_REPLIES_TOPIC,
            KAFKA_GROUP_ID,
            KAFKA_START_FROM,
            KAFKA_DELIVERY,
            KAFKA_TRANSACTIONAL_ID_PREFIX,
            KAFKA_TRANSACTION_TIMEOUT,
            KAFKA_PROPERTIES,
            KAFKA_PROPERTIES_FROM_ENV,
            PIPELINE_MIRROR_ROOT,
            PIPELINE_DEDUP_TTL,
            PIPELINE_MAX_EVENT_BYTES,
            PIPELINE_MAX_FILES,
            PIPELINE_MAX_LINES,
            PIPELINE_MAX_PATCH_BYTES,
            PIPELINE_MAX_BLOB_BYTES,
            PIPELINE_MAX_DIFF_TIME,
            PIPELINE_MAX_PUSH_COMMITS,
            PIPELINE_MIRROR_MAX_WAIT,
            SUGGEST_CACHE_TTL,
            SUGGEST_MAX_HISTORY_PER_REPO,
            SUGGEST_FLEET,
            SUGGEST_FLEET_HISTORY,
            SUGGEST_MIN_SUBJECT_CHARS,
            SUGGEST_REUSE_FLOOR,
            SUGGEST_ENGINE,
            SUGGEST_DEVICE_BUDGET,
            SUGGEST_BATCH_MAX,
            SUGGEST_BATCH_WAIT,
            SUGGEST_WORKERS,
            SUGGEST_ASYNC_TIMEOUT,
            SUGGEST_ASYNC_CAPACITY,
            SUGGEST_ENGINE_RETRIES,
            SUGGEST_TENANT_TIER,
            SUGGEST_LLM,
            SUGGEST_LLM_INSTRUCTIONS,
            SLA_WINDOW,
            SLA_SLIDE,
            SLA_OUT_OF_ORDERNESS,
            SLA_IDLENESS,
            SLA_SPIKE_THRESHOLD,
            SLA_TARGET,
            SLA_TENANT_TARGET,
            SLA_WEIGHTS);

    /** The option of {@code key}, or null. */
    public static ConfigOption<?> of(String key) {
        return ALL.stream().filter(o -> o.key().equals(key)).findFirst().orElse(null);
    }

    /** An option's default as its flag takes it ({@code 24h}, {@code exactly-once}), or null when it has none. */
    static String defaultValue(ConfigOption<?> option) {
        if (!option.hasDefaultValue()) {
            return null;
        }
        Object v = option.defaultValue();
        if (v instanceof Duration d) {
            return duration(d);
        }
        if (v instanceof List<?> l) {
            return l.isEmpty() ? null : l.stream().map(String::valueOf).collect(Collectors.joining(","));
        }
        if (v instanceof Map<?, ?> m) {
            return null; // a map flag (-X) is repeated on the command line; its entries are merged in toSettings
        }
        return String.valueOf(v);
    }

    /** An option's description as plain text, for the command line's help. */
    static String text(ConfigOption<?> option) {
        return new PlainText().format(option.description());
    }

    private static final class PlainText extends Formatter {
        @Override
        protected void formatLink(StringBuilder s, String link, String description) {
            s.append(description.isEmpty() ? link : description);
        }

        @Override
        protected void formatLineBreak(StringBuilder s) {
            s.append(' ');
        }

        @Override
        protected void formatText(StringBuilder s, String format, String[] elements,
                                  EnumSet<TextElement.TextStyle> styles) {
            s.append(elements.length == 0 ? format : String.format(format, (Object[]) elements));
        }

        @Override
        protected void formatList(StringBuilder s, String[] entries) {
            s.append(String.join("; ", entries));
        }

        @Override
        protected Formatter newInstance() {
            return new PlainText();
        }
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
