package io.commitflow.sla;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The SLA arithmetic against exact computations on the same data. */
public class SlaStatsTest {
    public static final double[] PERCENTILES = {50, 95, 99, 99.9};

    /**
     * The exact value at HdrHistogram's rank for a percentile: the ceil(p · n / 100)-th smallest, p taken one ulp
     * lower (as HdrHistogram does, so that 99.9% of 1000 is the 999th value, not the 1000th by round-off).
     */
    public static long exact(long[] sorted, double p) {
        long rank = Math.max(1, (long) Math.ceil((Math.nextDown(p) * sorted.length) / 100.0));
        return sorted[(int) rank - 1];
    }

    /** Within the histogram's stated precision: 3 significant digits, so 0.1% of the value (at least 1 ms). */
    public static void assertWithinPrecision(long got, long exact) {
        assertThat((double) got).isCloseTo(exact, within(Math.max(1.0, exact / 1000.0)));
    }

    static long[] latencies(Random r, int n) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = (long) Math.exp(4 + 1.2 * r.nextGaussian()); // log-normal around 55 ms, tail to seconds
        }
        return v;
    }

    @Test
    void quantilesAreWithinTheHistogramsPrecisionOfTheExactOnes() {
        Random r = new Random(11);
        for (int n : new int[] {1, 2, 7, 100, 999, 1000, 12345}) {
            long[] v = latencies(r, n);
            Histogram h = SlaStats.histogram();
            Arrays.stream(v).forEach(h::recordValue);
            long[] sorted = v.clone();
            Arrays.sort(sorted);
            for (double p : PERCENTILES) {
                assertWithinPrecision(SlaStats.quantile(h, p), exact(sorted, p));
            }
        }
    }

    @Test
    void panesMergedIntoAWindowEqualOneHistogramOverAllValues() {
        Random r = new Random(12);
        List<Pane> panes = new ArrayList<>();
        Histogram all = SlaStats.histogram();
        List<SlaSample> everything = new ArrayList<>();
        for (int p = 0; p < 6; p++) {
            List<SlaSample> samples = new ArrayList<>();
            for (long l : latencies(r, 500 + 100 * p)) {
                samples.add(new SlaSample("acme", "retrieval", p * 10_000L, l, r.nextDouble(), "", "t" + l));
                all.recordValue(l);
            }
            everything.addAll(samples);
            panes.add(SlaStats.pane("acme", "retrieval", p * 10_000L, (p + 1) * 10_000L, samples, SlaSettings.DEFAULT));
        }

        SlaStats.Merged merged = SlaStats.merge(panes);
        Pane one = SlaStats.pane("acme", "retrieval", 0, 60_000, everything, SlaSettings.DEFAULT);

        assertThat(merged.histogram()).isEqualTo(all);
        assertThat(merged.histogram()).isEqualTo(SlaStats.decode(one.histogram()));
        for (double p : PERCENTILES) {
            assertThat(SlaStats.quantile(merged.histogram(), p)).isEqualTo(SlaStats.quantile(all, p));
        }
        assertThat(merged.count()).isEqualTo(one.count());
        assertThat(merged.weight()).isCloseTo(one.weight(), within(1e-9));
        assertThat(merged.metWeight()).isCloseTo(one.metWeight(), within(1e-9));
        assertThat(merged.slowest()).isEqualTo(one.slowest());
    }

    @Test
    void similarityWeightsHaveTheirEdgesWhereTheIssueSays() {
        var w = SlaSettings.SimilarityWeights.DEFAULT;
        assertThat(w.of(1.0)).isEqualTo(1.0);
        assertThat(w.of(0.8)).isEqualTo(1.0);
        assertThat(w.of(Math.nextDown(0.8))).isEqualTo(0.7);
        assertThat(w.of(0.6)).isEqualTo(0.7);
        assertThat(w.of(Math.nextDown(0.6))).isEqualTo(0.2);
        assertThat(w.of(0.0)).isEqualTo(0.2);
        assertThat(w.of(-0.3)).as("cosines can be negative").isEqualTo(0.2);
        assertThat(SlaSettings.SimilarityWeights.parse("0.9=1, 0=0.5").of(0.89)).isEqualTo(0.5);
        assertThatThrownBy(() -> SlaSettings.SimilarityWeights.parse("0.5=1,0.7=0.5,0=0.1")).hasMessageContaining("descend");
        assertThatThrownBy(() -> SlaSettings.SimilarityWeights.parse("0.5=1")).hasMessageContaining("last similarity bound");
        assertThatThrownBy(() -> SlaSettings.SimilarityWeights.parse("0.5")).hasMessageContaining("BOUND=WEIGHT");
    }

    @Test
    void attainmentWeighsEachOutcomeBySimilarityAndCountsErrorsAsMissed() {
        SlaSettings s = new SlaSettings(java.time.Duration.ofSeconds(60), java.time.Duration.ofSeconds(10),
                java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(30), 50, 800, Map.of("fast", 100L),
                SlaSettings.SimilarityWeights.DEFAULT);
        List<SlaSample> samples = List.of(
                new SlaSample("acme", "retrieval", 0, 800, 0.9, "", "a"),   // met at the target exactly, w 1.0
                new SlaSample("acme", "retrieval", 0, 801, 0.7, "", "b"),   // missed by 1 ms, w 0.7
                new SlaSample("acme", "retrieval", 0, 10, 0.1, "", "c"),    // met, w 0.2
                new SlaSample("acme", "dlq", 0, 0, 0, "NO_MIRROR", "d"));   // an error: missed, w 0.2
        Pane p = SlaStats.pane("acme", "retrieval", 0, 10_000, samples, s);
        SlaWindow w = SlaStats.window("acme", "retrieval", 0, 60_000, SlaStats.merge(List.of(p)), s.targetMs("acme"));

        assertThat(w.attainment()).isCloseTo((1.0 + 0.2) / (1.0 + 0.7 + 0.2 + 0.2), within(1e-12));
        assertThat(w.count()).isEqualTo(3);
        assertThat(w.errors()).isEqualTo(1);
        assertThat(w.errorRate()).isEqualTo(0.25);
        assertThat(w.tps()).isEqualTo(3 / 60.0);
        assertThat(w.targetMs()).isEqualTo(800);
        assertThat(s.targetMs("fast")).isEqualTo(100);
        assertThat(SlaStats.pane("fast", "retrieval", 0, 10_000, samples.subList(2, 3), s).metWeight()).isEqualTo(0.2);
    }

    @Test
    void liveQualityAveragesOnlyTheScoredSuggestionsAcrossPanes() {
        SlaSettings s = new SlaSettings(java.time.Duration.ofSeconds(60), java.time.Duration.ofSeconds(10),
                java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(30), 50, 800, Map.of(),
                SlaSettings.SimilarityWeights.DEFAULT);
        Pane first = SlaStats.pane("acme", "all", 0, 10_000, List.of(
                new SlaSample("acme", "all", 0, 10, 0.9, "", "a", 80.0, false),
                new SlaSample("acme", "all", 0, 10, 0.9, "", "b", 20.0, true),
                new SlaSample("acme", "all", 0, 10, 0.9, "", "c")),                    // no message: not scored
                s);
        Pane second = SlaStats.pane("acme", "all", 10_000, 20_000, List.of(
                new SlaSample("acme", "all", 0, 10, 0.9, "", "d", 0.0, false),
                new SlaSample("acme", "all", 0, 0, 0, "NO_MIRROR", "e", 99.0, false)),  // an error never counts
                s);
        assertThat(first.scored()).isEqualTo(2);
        assertThat(first.unfaithful()).isEqualTo(1);
        SlaWindow w = SlaStats.window("acme", "all", 0, 60_000, SlaStats.merge(List.of(first, second)), 800);

        assertThat(w.scored()).isEqualTo(3);
        assertThat(w.bnorm()).isEqualTo(33.33);                                   // (80 + 20 + 0) / 3
        assertThat(w.unfaithfulRatio()).isCloseTo(1 / 3.0, within(1e-12));
        assertThat(w.count()).isEqualTo(4);

        SlaWindow none = SlaStats.window("acme", "all", 0, 60_000, SlaStats.merge(List.of(
                SlaStats.pane("acme", "all", 0, 10_000, List.of(new SlaSample("acme", "all", 0, 10, 0.9, "", "f")), s))), 800);
        assertThat(none.scored()).isZero();
        assertThat(none.bnorm()).as("no score rather than a score of 0").isNull();
        assertThat(none.unfaithfulRatio()).isNull();
        assertThat(io.commitflow.event.Json.string(none)).contains("\"bnorm\":null");
    }

    @Test
    void aSpikeNeedsADeltaAboveTheThresholdAndNamesErrorsAndTheSlowest() {
        List<SlaSample> samples = new ArrayList<>();
        for (int i = 0; i < 990; i++) {
            samples.add(new SlaSample("acme", "all", 0, 100, 0.9, "", "ok" + i));
        }
        for (int i = 0; i < 10; i++) {
            samples.add(new SlaSample("acme", "all", 0, 100 + 60 + i * 20L, 0.9, "", "slow" + i));
        }
        samples.add(new SlaSample("acme", "all", 0, 0, 0, "NO_MIRROR", "e1"));
        samples.add(new SlaSample("acme", "all", 0, 0, 0, "NO_MIRROR", "e2"));
        samples.add(new SlaSample("acme", "all", 0, 0, 0, "BAD_PATCH", "e3"));
        SlaStats.Merged m = SlaStats.merge(List.of(SlaStats.pane("acme", "all", 0, 10_000, samples, SlaSettings.DEFAULT)));
        SlaWindow w = SlaStats.window("acme", "all", 0, 60_000, m, 800);

        assertThat(w.p99Ms()).isEqualTo(100);
        assertThat(w.deltaMs()).isEqualTo(w.p999Ms() - 100).isGreaterThan(50);
        assertThat(SlaStats.spike(w, m, w.deltaMs())).as("Δ equal to the threshold is no spike").isNull();
        Spike spike = SlaStats.spike(w, m, w.deltaMs() - 1);
        assertThat(spike.topErrors()).containsExactly("NO_MIRROR=2", "BAD_PATCH=1");
        assertThat(spike.slowTraceIds()).containsExactly("slow9", "slow8", "slow7", "slow6", "slow5");
    }

    @Test
    void settingsRefuseWindowsThatAreNotAMultipleOfTheSlide() {
        assertThatThrownBy(() -> SlaSettings.DEFAULT.withWindow(java.time.Duration.ofSeconds(25),
                java.time.Duration.ofSeconds(10), java.time.Duration.ZERO)).hasMessageContaining("multiple of its slide");
    }
}
