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
            descriptionKey = "commitflow.sla.window")
    Duration window;

    @Option(names = "--sla-slide", converter = DurationConverter.class, paramLabel = "DURATION",
            descriptionKey = "commitflow.sla.slide")
    Duration slide;

    @Option(names = "--sla-out-of-orderness", converter = DurationConverter.class,
            paramLabel = "DURATION", descriptionKey = "commitflow.sla.out-of-orderness")
    Duration outOfOrderness;

    @Option(names = "--sla-idleness", converter = DurationConverter.class, paramLabel = "DURATION",
            descriptionKey = "commitflow.sla.idleness")
    Duration idleness;

    @Option(names = "--sla-spike-threshold", converter = DurationConverter.class,
            paramLabel = "DURATION", descriptionKey = "commitflow.sla.spike-threshold")
    Duration spikeThreshold;

    @Option(names = "--sla-target", converter = DurationConverter.class, paramLabel = "DURATION",
            descriptionKey = "commitflow.sla.target")
    Duration target;

    @Option(names = "--sla-tenant-target", split = ",", paramLabel = "TENANT=DURATION",
            descriptionKey = "commitflow.sla.tenant-target")
    List<String> tenantTargets = List.of();

    @Option(names = "--sla-weights", paramLabel = "BOUND=WEIGHT,…",
            descriptionKey = "commitflow.sla.weights")
    String weights;

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
