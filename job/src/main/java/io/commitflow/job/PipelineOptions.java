package io.commitflow.job;

import io.commitflow.diff.DedupAndDiff;
import io.commitflow.event.EventParser;
import io.commitflow.gpu.EngineMode;
import io.commitflow.gpu.Tier;
import io.commitflow.suggest.SuggestSettings;
import io.commitflow.git.DiffBudget;
import io.commitflow.push.RetryPolicy;
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
            description = "Folder holding the bare mirrors the diffs are read from. Without it only events with an "
                    + "inline patch can be described.")
    Path mirrorRoot;

    @Option(names = "--dedup-ttl", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "How long a diffed commit is remembered, so that a redelivery is dropped; a commit that "
                    + "ended in a dead letter is not remembered, and its redelivery is tried again (default: ${DEFAULT-VALUE}).")
    Duration dedupTtl = DedupAndDiff.DEFAULT_TTL;

    @Option(names = "--max-event-bytes", paramLabel = "BYTES",
            description = "Larger records go to the DLQ unparsed (default: ${DEFAULT-VALUE}).")
    int maxEventBytes = EventParser.DEFAULT_MAX_EVENT_BYTES;

    @Option(names = "--max-files", paramLabel = "N", description = "Files described per commit (default: ${DEFAULT-VALUE}).")
    int maxFiles = DiffBudget.DEFAULT.maxFiles();

    @Option(names = "--max-lines", paramLabel = "N", description = "Patch lines kept per commit (default: ${DEFAULT-VALUE}).")
    int maxLines = DiffBudget.DEFAULT.maxLines();

    @Option(names = "--max-patch-bytes", paramLabel = "BYTES", description = "Patch bytes kept per commit (default: ${DEFAULT-VALUE}).")
    int maxPatchBytes = DiffBudget.DEFAULT.maxBytes();

    @Option(names = "--max-blob-bytes", paramLabel = "BYTES",
            description = "Larger files are summarised like binaries, never loaded (default: ${DEFAULT-VALUE}).")
    int maxBlobBytes = DiffBudget.DEFAULT.maxBlobBytes();

    @Option(names = {"--mirror-max-wait", "--push-retry-max-wait"}, converter = DurationConverter.class,
            paramLabel = "DURATION", description = "How long a push or a commit event waits for its commits to reach "
                    + "the mirror before it goes to the DLQ as UNKNOWN_COMMIT (retries from 500ms, doubling up to 30s); "
                    + "--push-retry-max-wait is its former name (default: ${DEFAULT-VALUE}).")
    Duration mirrorMaxWait = RetryPolicy.DEFAULT.maxWait();

    @Option(names = "--cache-ttl", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "How long the result cache keeps a suggestion for a patch-id (default: ${DEFAULT-VALUE}).")
    Duration cacheTtl = SuggestSettings.DEFAULT.cacheTtl();

    @Option(names = "--max-history-per-repo", paramLabel = "N",
            description = "Earlier commits per repository the generator keeps to learn from; the oldest go first "
                    + "(default: ${DEFAULT-VALUE}; about 8 KiB of task memory each).")
    int maxHistoryPerRepo = SuggestSettings.DEFAULT.maxRows();

    @Option(names = "--fleet", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "A repository with fewer than " + io.commitflow.generate.RetrievalGenerator.YOUNG
                    + " commits learned also draws exemplars from its tenant's other repositories (their commits on "
                    + "files of the same name: build files, CI workflows, documents; or with a much alike diff); "
                    + "--no-fleet keeps every repository to its own history, as where a tenant's repositories must "
                    + "not see each other's subjects (default: on).")
    boolean fleet = SuggestSettings.DEFAULT.fleet();

    @Option(names = "--fleet-history", paramLabel = "N",
            description = "The newest commits of each tenant its fleet memory keeps for young repositories "
                    + "(default: ${DEFAULT-VALUE}; a few KiB of task memory each, per tenant).")
    int fleetHistory = SuggestSettings.DEFAULT.fleetRows();

    @Option(names = "--engine", paramLabel = "auto|cpu|cuda",
            description = "Retrieval engine: auto takes CUDA where a GPU and its driver load, else the CPU; cuda fails "
                    + "when there is none (default: ${DEFAULT-VALUE}).")
    String engine = SuggestSettings.DEFAULT.engine().label();

    @Option(names = "--device-budget", paramLabel = "MIB",
            description = "Device memory one task's CUDA engine may use, in MiB (default: ${DEFAULT-VALUE}).")
    long deviceBudgetMiB = SuggestSettings.DEFAULT.deviceBudgetMiB();

    @Option(names = "--batch-max", paramLabel = "N",
            description = "Most requests in one engine call (default: ${DEFAULT-VALUE}).")
    int batchMax = SuggestSettings.DEFAULT.maxBatch();

    @Option(names = "--batch-wait", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "How long a request waits for its batch to fill (default: ${DEFAULT-VALUE}).")
    Duration batchWait = SuggestSettings.DEFAULT.maxWait();

    @Option(names = "--suggest-workers", paramLabel = "N",
            description = "Threads per task answering batches (default: ${DEFAULT-VALUE}).")
    int suggestWorkers = SuggestSettings.DEFAULT.workers();

    @Option(names = "--async-timeout", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "After this a request is answered by the exact CPU scan instead (default: ${DEFAULT-VALUE}).")
    Duration asyncTimeout = SuggestSettings.DEFAULT.timeout();

    @Option(names = "--async-capacity", paramLabel = "N",
            description = "Requests in flight per task; beyond it the job back-pressures (default: ${DEFAULT-VALUE}).")
    int asyncCapacity = SuggestSettings.DEFAULT.capacity();

    @Option(names = "--engine-retries", paramLabel = "N",
            description = "Retries of a failed engine call before the CPU scan answers (default: ${DEFAULT-VALUE}).")
    int engineRetries = SuggestSettings.DEFAULT.retries();

    @Option(names = "--tenant-tier", split = ",", paramLabel = "TENANT=TIER",
            description = "A tenant's priority tier: gold, silver or bronze (repeat or separate with commas; "
                    + "tenants not named are silver). Example: --tenant-tier acme=gold,ci-bots=bronze")
    List<String> tenantTiers = List.of();

    @Option(names = "--llm", split = ",", paramLabel = "TENANT=KIND:MODEL@URL",
            description = "The LLM endpoint that writes a tenant's messages (repeat or separate with commas); KIND is "
                    + "openai (any OpenAI-compatible server) or anthropic; the key comes from OPENAI_API_KEY or "
                    + "ANTHROPIC_API_KEY on the TaskManagers. Other tenants get the built-in generator, which is also "
                    + "every LLM tenant's fallback. Example: --llm acme=openai:qwen2.5-coder@http://vllm:8000")
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
