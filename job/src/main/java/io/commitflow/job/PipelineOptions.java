package io.commitflow.job;

import io.commitflow.diff.DedupAndDiff;
import io.commitflow.event.EventParser;
import io.commitflow.git.DiffBudget;
import io.commitflow.gpu.EngineMode;
import io.commitflow.gpu.Tier;
import io.commitflow.push.RetryPolicy;
import io.commitflow.suggest.SuggestSettings;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The pipeline's options: mirrors, dedup, input and diff limits. */
public class PipelineOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--mirror-root", paramLabel = "DIR",
            descriptionKey = "commitflow.pipeline.mirror-root")
    Path mirrorRoot;

    @Option(names = "--dedup-ttl", converter = DurationConverter.class, paramLabel = "DURATION",
            descriptionKey = "commitflow.pipeline.dedup-ttl")
    Duration dedupTtl;

    @Option(names = "--max-event-bytes", paramLabel = "BYTES",
            descriptionKey = "commitflow.pipeline.max-event-bytes")
    int maxEventBytes;

    @Option(names = "--max-files", paramLabel = "N", descriptionKey = "commitflow.pipeline.max-files")
    int maxFiles;

    @Option(names = "--max-lines", paramLabel = "N", descriptionKey = "commitflow.pipeline.max-lines")
    int maxLines;

    @Option(names = "--max-patch-bytes", paramLabel = "BYTES", descriptionKey = "commitflow.pipeline.max-patch-bytes")
    int maxPatchBytes;

    @Option(names = "--max-blob-bytes", paramLabel = "BYTES",
            descriptionKey = "commitflow.pipeline.max-blob-bytes")
    int maxBlobBytes;

    @Option(names = {"--mirror-max-wait", "--push-retry-max-wait"}, converter = DurationConverter.class,
            paramLabel = "DURATION", descriptionKey = "commitflow.pipeline.mirror-max-wait")
    Duration mirrorMaxWait;

    @Option(names = "--cache-ttl", converter = DurationConverter.class, paramLabel = "DURATION",
            descriptionKey = "commitflow.suggest.cache-ttl")
    Duration cacheTtl;

    @Option(names = "--max-history-per-repo", paramLabel = "N",
            descriptionKey = "commitflow.suggest.max-history-per-repo")
    int maxHistoryPerRepo;

    @Option(names = "--fleet", negatable = true, fallbackValue = "true",
            descriptionKey = "commitflow.suggest.fleet")
    boolean fleet;

    @Option(names = "--fleet-history", paramLabel = "N",
            descriptionKey = "commitflow.suggest.fleet-history")
    int fleetHistory;

    @Option(names = "--engine", paramLabel = "auto|cpu|cuda",
            descriptionKey = "commitflow.suggest.engine")
    String engine;

    @Option(names = "--device-budget", paramLabel = "MIB",
            descriptionKey = "commitflow.suggest.device-budget")
    long deviceBudgetMiB;

    @Option(names = "--batch-max", paramLabel = "N",
            descriptionKey = "commitflow.suggest.batch-max")
    int batchMax;

    @Option(names = "--batch-wait", converter = DurationConverter.class, paramLabel = "DURATION",
            descriptionKey = "commitflow.suggest.batch-wait")
    Duration batchWait;

    @Option(names = "--suggest-workers", paramLabel = "N",
            descriptionKey = "commitflow.suggest.workers")
    int suggestWorkers;

    @Option(names = "--async-timeout", converter = DurationConverter.class, paramLabel = "DURATION",
            descriptionKey = "commitflow.suggest.async-timeout")
    Duration asyncTimeout;

    @Option(names = "--async-capacity", paramLabel = "N",
            descriptionKey = "commitflow.suggest.async-capacity")
    int asyncCapacity;

    @Option(names = "--engine-retries", paramLabel = "N",
            descriptionKey = "commitflow.suggest.engine-retries")
    int engineRetries;

    @Option(names = "--tenant-tier", split = ",", paramLabel = "TENANT=TIER",
            descriptionKey = "commitflow.suggest.tenant-tier")
    List<String> tenantTiers = List.of();

    @Option(names = "--llm", split = ",", paramLabel = "TENANT=KIND:MODEL@URL",
            descriptionKey = "commitflow.suggest.llm")
    List<String> llm = List.of();

    @picocli.CommandLine.Mixin
    SlaOptions sla = new SlaOptions();

    /**
     * The settings of a local run that brings its own mirrors (the demo's and the load test's repositories, given
     * later with {@link PipelineSettings#withMirrorRoot}): everything else as the job's options say.
     *
     * @throws ParameterException when {@code --mirror-root} was given
     */
    public PipelineSettings forLocalRun() {
        if (mirrorRoot != null) {
            throw new ParameterException(spec.commandLine(), "--mirror-root is the job's; "
                    + spec.commandLine().getCommandName() + " reads the repository it replays (--repo)");
        }
        return toSettings();
    }

    public PipelineSettings toSettings() {
        String root = null;
        if (mirrorRoot != null) {
            if (!Files.isDirectory(mirrorRoot)) {
                throw new ParameterException(spec.commandLine(), "--mirror-root " + mirrorRoot + " is not a directory");
            }
            root = mirrorRoot.toAbsolutePath().normalize().toString();
        }
        Map<String, Tier> tiers = TenantValues.parse(spec, "--tenant-tier", "TIER", tenantTiers, Tier::parse);
        Map<String, io.commitflow.llm.LlmSettings> llmByTenant = TenantValues.parse(spec, "--llm", "KIND:MODEL@URL", llm,
                v -> io.commitflow.llm.LlmSettings.parse(v.trim()));
        try {
            // each settings record checks its own values
            SuggestSettings suggest = new SuggestSettings(EngineMode.parse(engine), deviceBudgetMiB, batchMax, batchWait,
                    suggestWorkers, asyncTimeout, asyncCapacity, engineRetries, tiers, Tier.SILVER, llmByTenant,
                    maxHistoryPerRepo, cacheTtl, fleet, fleetHistory);
            RetryPolicy retry = new RetryPolicy(RetryPolicy.DEFAULT.initial(), RetryPolicy.DEFAULT.maxDelay(), mirrorMaxWait);
            return new PipelineSettings(root, dedupTtl, maxEventBytes,
                    new DiffBudget(maxFiles, maxLines, maxPatchBytes, maxBlobBytes), retry, suggest, sla.toSettings());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
