package io.commitflow.job;

import io.commitflow.sla.SlaSettings;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The SLA windows' options: windows, event time, spikes, per-tenant targets and similarity weights. */
public class SlaOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--sla-window", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "SLA window length; a multiple of --sla-slide (default: ${DEFAULT-VALUE}).")
    Duration window = SlaSettings.DEFAULT.size();

    @Option(names = "--sla-slide", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "How often an SLA window ends (default: ${DEFAULT-VALUE}).")
    Duration slide = SlaSettings.DEFAULT.slide();

    @Option(names = "--sla-out-of-orderness", converter = DurationConverter.class,
            paramLabel = "DURATION", description = "How far behind the newest an outcome may arrive before it is late "
                    + "(counted and written to the SLA topic, not windowed) (default: ${DEFAULT-VALUE}).")
    Duration outOfOrderness = SlaSettings.DEFAULT.outOfOrderness();

    @Option(names = "--sla-idleness", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "A stream without outcomes this long stops holding event time back (default: ${DEFAULT-VALUE}).")
    Duration idleness = SlaSettings.DEFAULT.idleness();

    @Option(names = "--sla-spike-threshold", converter = DurationConverter.class,
            paramLabel = "DURATION", description = "P999 − P99 above this writes a spike record (default: ${DEFAULT-VALUE}).")
    Duration spikeThreshold = Duration.ofMillis(SlaSettings.DEFAULT.spikeThresholdMs());

    @Option(names = "--sla-target", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "Latency a suggestion must meet, for tenants not named in --sla-tenant-target "
                    + "(default: ${DEFAULT-VALUE}, the reference report's P95 target).")
    Duration target = Duration.ofMillis(SlaSettings.DEFAULT.defaultTargetMs());

    @Option(names = "--sla-tenant-target", split = ",", paramLabel = "TENANT=DURATION",
            description = "A tenant's own latency target (repeat or separate with commas). Example: "
                    + "--sla-tenant-target acme=300ms,ci-bots=5s")
    List<String> tenantTargets = List.of();

    @Option(names = "--sla-weights", paramLabel = "BOUND=WEIGHT,…",
            description = "Weight of a suggestion in the attainment by its retrieval similarity: the first bound it "
                    + "reaches, descending, the last 0 (default: ${DEFAULT-VALUE}).")
    String weights = OptionDefaults.weights(SlaSettings.DEFAULT.weights());

    public SlaSettings toSettings() {
        Map<String, Long> targets = TenantValues.parse(spec, "--sla-tenant-target", "DURATION", tenantTargets,
                v -> DurationConverter.parse(v).toMillis());
        try {
            return new SlaSettings(window, slide, outOfOrderness, idleness, spikeThreshold.toMillis(), target.toMillis(),
                    targets, SlaSettings.SimilarityWeights.parse(weights));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
