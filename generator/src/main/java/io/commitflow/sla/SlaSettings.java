package io.commitflow.sla;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The SLA windows' configuration.
 *
 * @param size            window length (default 60 s); a multiple of {@code slide}
 * @param slide           how often a window ends (default 10 s)
 * @param outOfOrderness  how far event time may run backwards before a sample is late (default 5 s)
 * @param idleness        a source split without samples this long stops holding the watermark back (default 30 s)
 * @param spikeThresholdMs Δ = P999 − P99 above this emits a spike record (default 50 ms)
 * @param defaultTargetMs a tenant's latency target unless named in {@code targets} (default 800 ms: the reference
 *                        report's P95 ≤ 800 ms)
 * @param targets         per-tenant latency targets, ms
 * @param weights         similarity → weight in the attainment, {@link SimilarityWeights}
 */
public record SlaSettings(Duration size, Duration slide, Duration outOfOrderness, Duration idleness,
                          long spikeThresholdMs, long defaultTargetMs, Map<String, Long> targets,
                          SimilarityWeights weights) implements Serializable {

    public static final SlaSettings DEFAULT = new SlaSettings(Duration.ofSeconds(60), Duration.ofSeconds(10),
            Duration.ofSeconds(5), Duration.ofSeconds(30), 50, 800, Map.of(), SimilarityWeights.DEFAULT);

    public SlaSettings {
        if (slide.toMillis() < 1 || size.toMillis() < slide.toMillis() || size.toMillis() % slide.toMillis() != 0) {
            throw new IllegalArgumentException("the SLA window (" + size + ") must be a positive multiple of its slide ("
                    + slide + ")");
        }
        if (outOfOrderness.isNegative() || idleness.isNegative() || spikeThresholdMs < 0 || defaultTargetMs < 0) {
            throw new IllegalArgumentException("SLA out-of-orderness, idleness, spike threshold and targets must not be negative");
        }
        targets.forEach((t, ms) -> {
            if (ms < 0) {
                throw new IllegalArgumentException("the latency target of tenant " + t + " is negative: " + ms);
            }
        });
        targets = Map.copyOf(targets);
    }

    public long targetMs(String tenant) {
        return targets.getOrDefault(tenant, defaultTargetMs);
    }

    public int panesPerWindow() {
        return (int) (size.toMillis() / slide.toMillis());
    }

    public SlaSettings withWindow(Duration newSize, Duration newSlide, Duration newOutOfOrderness) {
        return new SlaSettings(newSize, newSlide, newOutOfOrderness, idleness, spikeThresholdMs, defaultTargetMs, targets,
                weights);
    }

    /**
     * The weight of a suggestion in the attainment by its similarity: the first bucket whose lower bound the
     * similarity reaches. Default: 1.0 for s ≥ 0.8, 0.7 for 0.6 ≤ s < 0.8, 0.2 below.
     *
     * @param bounds  lower bounds, descending, the last one 0 (or lower)
     * @param weights the weight of each bucket
     */
    public record SimilarityWeights(List<Double> bounds, List<Double> weights) implements Serializable {
        public static final SimilarityWeights DEFAULT = new SimilarityWeights(List.of(0.8, 0.6, 0.0), List.of(1.0, 0.7, 0.2));

        public SimilarityWeights {
            if (bounds.isEmpty() || bounds.size() != weights.size()) {
                throw new IllegalArgumentException("similarity weights need one weight per bound: " + bounds + " " + weights);
            }
            for (int i = 1; i < bounds.size(); i++) {
                if (bounds.get(i) >= bounds.get(i - 1)) {
                    throw new IllegalArgumentException("similarity bounds must descend: " + bounds);
                }
            }
            if (bounds.get(bounds.size() - 1) > 0) {
                throw new IllegalArgumentException("the last similarity bound must be 0 or lower, so every similarity has a weight: " + bounds);
            }
            for (double w : weights) {
                if (!(w > 0)) {
                    throw new IllegalArgumentException("similarity weights must be positive: " + weights);
                }
            }
            bounds = List.copyOf(bounds);
            weights = List.copyOf(weights);
        }

        public double of(double similarity) {
            for (int i = 0; i < bounds.size(); i++) {
                if (similarity >= bounds.get(i)) {
                    return weights.get(i);
                }
            }
            return weights.get(weights.size() - 1);
        }

        /** {@code 0.8=1.0,0.6=0.7,0=0.2}. */
        public static SimilarityWeights parse(String spec) {
            List<Double> b = new java.util.ArrayList<>();
            List<Double> w = new java.util.ArrayList<>();
            for (String part : spec.split(",")) {
                String[] kv = part.split("=");
                if (kv.length != 2) {
                    throw new IllegalArgumentException("similarity weights are BOUND=WEIGHT,…, not '" + spec + "'");
                }
                try {
                    b.add(Double.parseDouble(kv[0].trim()));
                    w.add(Double.parseDouble(kv[1].trim()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("similarity weights are BOUND=WEIGHT,…, not '" + spec + "'", e);
                }
            }
            return new SimilarityWeights(b, w);
        }
    }
}
