package io.commitflow.cli;

import io.commitflow.replay.RateProfile;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class LoadReportTest {
    private static final long ZERO = 1_000_000L;

    @Test
    void namesTheStepsWhoseEventsNobodyAnswered() {
        // steps of 2 s each: warm-up [0, 2), 1 [2, 4), 2 [4, 6); one event sent in each, answers for the first two
        RateProfile profile = RateProfile.parse("steps:1,1/2s").withWarmup(2);
        long[] sent = {ZERO + 500, ZERO + 2500, ZERO + 4500};
        List<LoadReport.Outcome> outcomes = List.of(outcome(sent[0], false), outcome(sent[1], true));
        LoadReport r = new LoadReport(profile, true, ZERO, null, sent, outcomes, Map.of(), new TreeMap<>(), Map.of());

        assertThat(r.unanswered()).as("a dead letter is an answer too").containsExactly("2");
    }

    @Test
    void aRunWithAnAnswerInEveryStepHasNoneUnanswered() {
        RateProfile profile = RateProfile.parse("steps:1,1/2s");
        long[] sent = {ZERO + 500, ZERO + 2500};
        LoadReport r = new LoadReport(profile, false, ZERO, null, sent, List.of(outcome(sent[0], false),
                outcome(sent[1], false)), Map.of(), new TreeMap<>(), Map.of());

        assertThat(r.unanswered()).isEmpty();
    }

    @Test
    void aBacklogWithoutAnyAnswerIsUnanswered() {
        RateProfile profile = RateProfile.parse("steps:1/2s");
        long[] sent = {ZERO - 100, ZERO + 500};
        LoadReport r = new LoadReport(profile, false, ZERO, new LoadReport.Backlog(1, ZERO, ZERO + 1000), sent,
                List.of(outcome(sent[1], false)), Map.of(), new TreeMap<>(), Map.of());

        assertThat(r.unanswered()).containsExactly("backlog");
    }

    private static LoadReport.Outcome outcome(long eventMs, boolean error) {
        return new LoadReport.Outcome(eventMs, eventMs + 100, eventMs + 150, "t", error);
    }
}
