package io.commitflow.replay;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class RateProfileTest {
    @Test
    void constantOffersNPerSecondForT() {
        RateProfile p = RateProfile.parse("constant:500/60s");
        assertThat(p.seconds()).isEqualTo(60);
        assertThat(p.events()).isEqualTo(30_000);
        assertThat(p.steps()).hasSize(1);
        assertThat(p.dueSeconds(0)).isZero();
        assertThat(p.dueSeconds(500)).isCloseTo(1.0, within(1e-9));
        assertThat(p.dueSeconds(30_001)).isNaN();
        assertThat(p.rateAt(59.9)).isEqualTo(500);
        assertThat(p.stepAt(60)).isEqualTo(-1);
    }

    @Test
    void rampRisesLinearlyAndIsCutIntoFiveSteps() {
        RateProfile p = RateProfile.parse("ramp:100..300/10s");
        assertThat(p.events()).isCloseTo(2000, within(1e-9));
        assertThat(p.steps()).hasSize(5);
        assertThat(p.steps().get(0).offeredPerSecond()).isCloseTo(120, within(1e-9));
        assertThat(p.rateAt(5)).isCloseTo(200, within(1e-9));
        // events by t in a ramp: 100 t + 10 t² → 1000 events at t = (−100 + √(100² + 4·10·1000)) / 20
        assertThat(p.dueSeconds(1000)).isCloseTo((-100 + Math.sqrt(100 * 100 + 40_000)) / 20, within(1e-6));
        for (long n = 1; n < 2000; n += 97) {
            assertThat(p.dueSeconds(n)).isGreaterThan(p.dueSeconds(n - 1));
        }
    }

    @Test
    void stepsHoldEachRateForT() {
        RateProfile p = RateProfile.parse("steps:100,200,400/30s");
        assertThat(p.seconds()).isEqualTo(90);
        assertThat(p.events()).isEqualTo(21_000);
        assertThat(p.dueSeconds(3000)).isCloseTo(30, within(1e-9));
        assertThat(p.dueSeconds(3200)).isCloseTo(31, within(1e-9));
        assertThat(p.stepAt(45)).isEqualTo(1);
        assertThat(RateProfile.parse("steps:10,20/500ms").seconds()).isEqualTo(1.0);
        assertThat(RateProfile.parse("constant:5/2m").seconds()).isEqualTo(120);
    }

    @Test
    void aPlainRateRunsUntilTheEventsRunOut() {
        RateProfile p = RateProfile.parse("250");
        assertThat(p.seconds()).isInfinite();
        assertThat(p.dueSeconds(500)).isCloseTo(2, within(1e-9));
        assertThat(RateProfile.parse("0").dueSeconds(1000)).isZero();
    }

    @Test
    void refusesWhatIsNoProfile() {
        for (String bad : new String[] {"constant:500", "ramp:1..2", "steps:/10s", "constant:-1/10s", "constant:5/10x",
                "constant:5/0s", "fast", ""}) {
            assertThatThrownBy(() -> RateProfile.parse(bad)).as(bad).hasMessageContaining("is not a rate profile");
        }
    }

    @org.junit.jupiter.api.Test
    void aWarmUpIsAStepOfItsOwnAtTheFirstRateBeforeTheProfile() {
        RateProfile p = RateProfile.parse("steps:10,20/5s").withWarmup(3);

        assertThat(p.steps()).containsExactly(new RateProfile.Step(0, 3, 10, 10), new RateProfile.Step(3, 8, 10, 10),
                new RateProfile.Step(8, 13, 20, 20));
        assertThat(p.events()).isEqualTo(30 + 50 + 100);
        assertThat(p.dueSeconds(30)).isEqualTo(3.0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RateProfile.parse("50").withWarmup(3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("steps");
    }
}
