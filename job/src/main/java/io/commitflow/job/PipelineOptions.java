package io.commitflow.job;

import io.commitflow.git.DiffBudget;
import io.commitflow.gpu.EngineMode;
import io.commitflow.gpu.Tier;
import io.commitflow.llm.LlmSettings;
import io.commitflow.push.RetryPolicy;
import io.commitflow.sla.SlaSettings;
import io.commitflow.suggest.SuggestSettings;
import org.apache.flink.configuration.ConfigOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParameterException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The pipeline's flags: mirrors, dedup, input and diff limits, the suggest stage and the SLA windows; one per {@code
 * commitflow.pipeline.*}, {@code commitflow.suggest.*} and {@code commitflow.sla.*} option of {@link JobConfig}
 * ({@link JobFlags}).
 */
@Command // a mixin: its flags come from JobFlags.install
public class PipelineOptions extends JobFlags {
    @Override
    boolean owns(ConfigOption<?> option) {
        return !option.key().startsWith("commitflow.kafka.");
    }

    /**
     * The settings of a local run that brings its own mirrors (the demo's and the load test's repositories, given
     * later with {@link PipelineSettings#withMirrorRoot}): everything else as the job's options say.
     *
     * @throws ParameterException when {@code --mirror-root} was given
     */
    public PipelineSettings forLocalRun() {
        if (get(JobConfig.PIPELINE_MIRROR_ROOT) != null) {
            throw usage("--mirror-root is the job's; "
                    + spec.commandLine().getCommandName() + " reads the repository it replays (--repo)");
        }
        return toSettings();
    }

    public PipelineSettings toSettings() {
        String root = get(JobConfig.PIPELINE_MIRROR_ROOT);
        if (root != null) {
            Path mirrorRoot = Path.of(root);
            if (!Files.isDirectory(mirrorRoot)) {
                throw usage("--mirror-root " + mirrorRoot + " is not a directory");
            }
            root = mirrorRoot.toAbsolutePath().normalize().toString();
        }
        Map<String, Tier> tiers = TenantValues.parse(spec, "--tenant-tier", "TIER", get(JobConfig.SUGGEST_TENANT_TIER),
                Tier::parse);
        Map<String, LlmSettings> llmByTenant = TenantValues.parse(spec, "--llm", "KIND:MODEL@URL",
                get(JobConfig.SUGGEST_LLM), v -> LlmSettings.parse(v.trim()));
        Map<String, String> instructions = TenantValues.parse(spec, "--llm-instructions", "FILE",
                get(JobConfig.SUGGEST_LLM_INSTRUCTIONS), v -> readInstructions(Path.of(v.trim())));
        for (var e : instructions.entrySet()) {
            LlmSettings llm = llmByTenant.get(e.getKey());
            if (llm == null) {
                throw usage("--llm-instructions " + e.getKey() + "=…: tenant " + e.getKey() + " has no --llm; the "
                        + "built-in generator takes no instructions");
            }
            try {
                llmByTenant.put(e.getKey(), llm.withInstructions(e.getValue()));
            } catch (IllegalArgumentException ex) {
                throw usage("--llm-instructions " + e.getKey() + ": " + ex.getMessage());
            }
        }
        Map<String, Long> targets = TenantValues.parse(spec, "--sla-tenant-target", "DURATION",
                get(JobConfig.SLA_TENANT_TARGET), v -> DurationConverter.parse(v).toMillis());
        try {
            // each settings record checks its own values
            SuggestSettings suggest = new SuggestSettings(EngineMode.parse(get(JobConfig.SUGGEST_ENGINE)),
                    get(JobConfig.SUGGEST_DEVICE_BUDGET), get(JobConfig.SUGGEST_BATCH_MAX),
                    get(JobConfig.SUGGEST_BATCH_WAIT), get(JobConfig.SUGGEST_WORKERS),
                    get(JobConfig.SUGGEST_ASYNC_TIMEOUT), get(JobConfig.SUGGEST_ASYNC_CAPACITY),
                    get(JobConfig.SUGGEST_ENGINE_RETRIES), tiers, Tier.SILVER, llmByTenant,
                    get(JobConfig.SUGGEST_MAX_HISTORY_PER_REPO), get(JobConfig.SUGGEST_CACHE_TTL),
                    get(JobConfig.SUGGEST_FLEET), get(JobConfig.SUGGEST_FLEET_HISTORY),
                    get(JobConfig.SUGGEST_MIN_SUBJECT_CHARS), get(JobConfig.SUGGEST_REUSE_FLOOR));
            RetryPolicy retry = new RetryPolicy(RetryPolicy.DEFAULT.initial(), RetryPolicy.DEFAULT.maxDelay(),
                    get(JobConfig.PIPELINE_MIRROR_MAX_WAIT));
            SlaSettings sla = new SlaSettings(get(JobConfig.SLA_WINDOW), get(JobConfig.SLA_SLIDE),
                    get(JobConfig.SLA_OUT_OF_ORDERNESS), get(JobConfig.SLA_IDLENESS),
                    get(JobConfig.SLA_SPIKE_THRESHOLD).toMillis(), get(JobConfig.SLA_TARGET).toMillis(), targets,
                    SlaSettings.SimilarityWeights.parse(get(JobConfig.SLA_WEIGHTS)));
            DiffBudget budget = new DiffBudget(get(JobConfig.PIPELINE_MAX_FILES), get(JobConfig.PIPELINE_MAX_LINES),
                    get(JobConfig.PIPELINE_MAX_PATCH_BYTES), get(JobConfig.PIPELINE_MAX_BLOB_BYTES),
                    get(JobConfig.PIPELINE_MAX_DIFF_TIME));
            return new PipelineSettings(root, get(JobConfig.PIPELINE_DEDUP_TTL), get(JobConfig.PIPELINE_MAX_EVENT_BYTES),
                    budget, retry, suggest, sla, get(JobConfig.PIPELINE_MAX_PUSH_COMMITS));
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /** A tenant's instructions file, whole; the file's problem as a message. */
    private static String readInstructions(Path file) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException("cannot read " + file);
        }
        try {
            return java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                    .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file))).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException(file + " is not UTF-8 text");
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
        }
    }
}
