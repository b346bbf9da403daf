package io.commitflow.cli;

import io.commitflow.replay.RateProfile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * What a load test measured: the phases (the backlog when there is one, the warm-up when there is one, then each step
 * of the profile) and their figures. {@link LoadReportJson} and {@link LoadReportHtml} write them as
 * {@code report.json} and {@code report.html}.
 *
 * <p>Times are epoch ms. An outcome belongs to the phase in which its event was offered; a step's TPS counts the
 * suggestions written during the step. Latency runs from the event's Kafka timestamp to the suggestion's (the moment
 * the job made it); visible latency to the moment the load test's read_committed consumer received it, which
 * includes the wait for the checkpoint that commits it. CPU is the job's: this JVM's CPU time less the load driver's
 * threads, over the suggestions written in the phase.
 */
final class LoadReport {
    /** The index of the backlog phase, the time before the profile's first event, among the profile's steps. */
    static final int BACKLOG_STEP = -1;

    /**
     * A suggestion or dead letter read from the output: when its event was offered, when it was written, when the
     * consumer saw it, whose.
     */
    record Outcome(long eventMs, long outputMs, long seenMs, String tenant, boolean error) {
        long latencyMs() {
            return Math.max(0, outputMs - eventMs);
        }

        long visibleMs() {
            return Math.max(0, seenMs - eventMs);
        }
    }

    /** A backlog queued before the job started: N events, when the job was started and when the last was answered. */
    record Backlog(int events, long jobStartMs, long drainedMs) {
        double drainSeconds() {
            return (drainedMs - jobStartMs) / 1000.0;
        }
    }

    /**
     * One phase's figures: the reference report's columns, then ours. NaN where a figure does not apply: the drain and
     * {@code steadyAfterSeconds} (from the job's start until its answer rate first reaches 90% of the catch-up's
     * steady rate) only for the backlog; the P99 of the tenant whose repositories appear in this step only where one
     * does; the ratios only with a reference measured in the same run.
     */
    record Step(String name, double offeredPerS, double tps, double p50Ms, double p95Ms, double p99Ms, double p999Ms,
                double errorRate, double peakRssMb, double cpuMsPerCommit, double visibleP50Ms, double visibleP95Ms,
                double visibleP99Ms, double visibleP999Ms, double drainSeconds, double steadyAfterSeconds,
                double p99VsPrevious, double newTenantP99Ms, double cpuVsDiff, double tpsVsGit) {
        private Step withComparisons(double vsPrevious, double newTenantP99, DiffReference.Rates reference) {
            double diffMs = reference == null ? Double.NaN : 1000 / reference.diffCommitsPerS();
            double git = reference == null ? Double.NaN : reference.gitCommitsPerS();
            return new Step(name, offeredPerS, tps, p50Ms, p95Ms, p99Ms, p999Ms, errorRate, peakRssMb, cpuMsPerCommit,
                    visibleP50Ms, visibleP95Ms, visibleP99Ms, visibleP999Ms, drainSeconds, steadyAfterSeconds, vsPrevious,
                    newTenantP99, cpuMsPerCommit / diffMs, tps / git);
        }
    }

    private final RateProfile profile;
    private final boolean warmup;
    private final long startMs;
    private final Backlog backlog;
    private final long[] sent;
    private final List<Outcome> outcomes;
    private final Map<Integer, Double> peakRssMbByStep;
    private final NavigableMap<Long, Long> jobCpuNanos;
    private final Map<Integer, String> newTenants;
    private final DiffReference.Rates reference;
    /** The drafts sent beside the replay (--drafts), or null. */
    private DraftLoad.Figures drafts;
    /** Per step name: the job's peak backlog on the events topic {records behind, age of the event being read in ms}. */
    private Map<String, double[]> lagByStep = Map.of();
    /** The phases' figures, computed on first use: the JSON, the HTML and the printed table all show them. */
    private List<Step> steps;

    /**
     * @param profile    the profile the replay followed, the warm-up step first when {@code warmup}
     * @param startMs    the profile's time zero: when its first event was sent
     * @param backlog    the backlog, or null
     * @param jobCpuNanos the job's CPU time, sampled: epoch ms → ns
     * @param newTenants the tenant whose repositories first appear in a step, by the step's index in the profile
     */
    LoadReport(RateProfile profile, boolean warmup, long startMs, Backlog backlog, long[] sentAtMs, List<Outcome> outcomes,
               Map<Integer, Double> peakRssMbByStep, NavigableMap<Long, Long> jobCpuNanos, Map<Integer, String> newTenants) {
        this(profile, warmup, startMs, backlog, sentAtMs, outcomes, peakRssMbByStep, jobCpuNanos, newTenants, null);
    }

    private LoadReport(RateProfile profile, boolean warmup, long startMs, Backlog backlog, long[] sentAtMs,
                       List<Outcome> outcomes, Map<Integer, Double> peakRssMbByStep, NavigableMap<Long, Long> jobCpuNanos,
                       Map<Integer, String> newTenants, DiffReference.Rates reference) {
        this.profile = profile;
        this.warmup = warmup;
        this.startMs = startMs;
        this.backlog = backlog;
        this.sent = sentAtMs.clone();
        Arrays.sort(this.sent);
        this.outcomes = List.copyOf(outcomes);
        this.peakRssMbByStep = Map.copyOf(peakRssMbByStep);
        this.jobCpuNanos = new TreeMap<>(jobCpuNanos);
        this.newTenants = Map.copyOf(newTenants);
        this.reference = reference;
    }

    /** This report with the reference rates measured in the same run (null: none), for the ratios. */
    LoadReport withReference(DiffReference.Rates rates) {
        return copy(rates, drafts, lagByStep);
    }

    /** This report with the round trips of the drafts sent beside the replay (null: none were). */
    LoadReport withDrafts(DraftLoad.Figures figures) {
        return copy(reference, figures, lagByStep);
    }

    /**
     * This report with the job's consumer lag sampled from its Prometheus endpoint: per step key (as for the peak
     * memory: {@link #BACKLOG_STEP} or the profile's step index) the peak {records behind, age in ms}.
     */
    LoadReport withLag(Map<Integer, double[]> peakByStep) {
        Map<String, double[]> byName = new java.util.HashMap<>();
        peakByStep.forEach((i, v) -> byName.put(i == BACKLOG_STEP ? "backlog" : stepName(i), v.clone()));
        return copy(reference, drafts, Map.copyOf(byName));
    }

    private LoadReport copy(DiffReference.Rates rates, DraftLoad.Figures draftFigures, Map<String, double[]> lag) {
        LoadReport r = new LoadReport(profile, warmup, startMs, backlog, sent, outcomes, peakRssMbByStep, jobCpuNanos,
                newTenants, rates);
        r.drafts = draftFigures;
        r.lagByStep = lag;
        return r;
    }

    /** The name of the profile's step {@code i}: {@code warm-up} first when there is one, then 1, 2, … */
    private String stepName(int i) {
        return warmup && i == 0 ? "warm-up" : Integer.toString(warmup ? i : i + 1);
    }

    /** The step's peak {records behind, age of the event being read in ms}; NaN where none was sampled. */
    double[] lag(String step) {
        return lagByStep.getOrDefault(step, new double[] {Double.NaN, Double.NaN});
    }

    /** Suggestions and dead letters measured. */
    int outcomes() {
        return outcomes.size();
    }

    /** The profile's steps (the warm-up first), or one step over the whole run for a plain rate: [from, to) seconds. */
    private List<double[]> windows() {
        List<double[]> w = new ArrayList<>();
        if (profile.steps().isEmpty()) {
            long last = sent.length == 0 ? startMs : sent[sent.length - 1];
            w.add(new double[] {0, Math.max(1, (last - startMs) / 1000.0 + 1e-3)});
        } else {
            profile.steps().forEach(s -> w.add(new double[] {s.startSeconds(), s.endSeconds()}));
        }
        return w;
    }

    List<Step> steps() {
        if (steps == null) {
            steps = List.copyOf(computeSteps());
        }
        return steps;
    }

    private List<Step> computeSteps() {
        List<Step> out = new ArrayList<>();
        if (backlog != null) {
            out.add(backlogStep());
        }
        List<double[]> windows = windows();
        for (int i = 0; i < windows.size(); i++) {
            long from = startMs + (long) (windows.get(i)[0] * 1000);
            long to = startMs + (long) (windows.get(i)[1] * 1000);
            double seconds = (to - from) / 1000.0;
            long offered = Arrays.stream(sent).filter(t -> t >= from && t < to).count();
            long written = outcomes.stream().filter(o -> !o.error() && o.outputMs() >= from && o.outputMs() < to).count();
            String name = stepName(i);
            java.util.function.Predicate<Outcome> offeredHere = o -> o.eventMs() >= from && o.eventMs() < to;
            Step s = step(name, offered / seconds, written / seconds, offeredHere, offered,
                    peakRssMbByStep.getOrDefault(i, 0.0), cpuMsPer(from, to, written), Double.NaN, Double.NaN);
            boolean measuredBefore = i > (warmup ? 1 : 0); // a step before this one that is not the warm-up
            double vsPrevious = measuredBefore ? s.p99Ms() / out.get(out.size() - 1).p99Ms() : Double.NaN;
            String tenant = newTenants.get(i);
            double newTenantP99 = tenant == null ? Double.NaN : quantile(outcomes.stream()
                    .filter(o -> !o.error() && offeredHere.test(o) && o.tenant().equals(tenant))
                    .mapToLong(Outcome::latencyMs).sorted().toArray(), 99);
            out.add(s.withComparisons(vsPrevious, newTenantP99, reference));
        }
        return out;
    }

    /**
     * The steps to which events were offered and of which not one came back, as a suggestion or a dead letter: a run
     * with such a step measured nothing there, whatever its table says.
     */
    List<String> unanswered() {
        List<String> silent = new ArrayList<>();
        if (backlog != null && backlog.events() > 0 && outcomes.stream().noneMatch(o -> o.eventMs() < startMs)) {
            silent.add("backlog");
        }
        List<double[]> windows = windows();
        for (int i = 0; i < windows.size(); i++) {
            long from = startMs + (long) (windows.get(i)[0] * 1000);
            long to = startMs + (long) (windows.get(i)[1] * 1000);
            boolean offered = Arrays.stream(sent).anyMatch(t -> t >= from && t < to);
            if (offered && outcomes.stream().noneMatch(o -> o.eventMs() >= from && o.eventMs() < to)) {
                silent.add(stepName(i));
            }
        }
        return silent;
    }

    /** The reference rates measured in the same run, or null. */
    DiffReference.Rates reference() {
        return reference;
    }

    /** The backlog: offered as fast as the producer took it, drained from the job's start. */
    private Step backlogStep() {
        long first = sent.length == 0 ? startMs : sent[0];
        long lastQueued = sent.length < backlog.events() ? first : sent[backlog.events() - 1];
        double offeredPerS = backlog.events() / Math.max(1e-3, (lastQueued - first) / 1000.0);
        double drain = backlog.drainSeconds();
        return step("backlog", offeredPerS, backlog.events() / Math.max(1e-3, drain), o -> o.eventMs() < startMs,
                backlog.events(), peakRssMbByStep.getOrDefault(BACKLOG_STEP, 0.0),
                cpuMsPer(backlog.jobStartMs(), backlog.drainedMs(), backlog.events()), drain,
                steadyAfterSeconds()).withComparisons(Double.NaN, Double.NaN, reference);
    }

    /**
     * How long after the job's start the catch-up reached its steady rate: the end of the first 5-second window whose
     * answer rate is at least 90% of the median per-second rate over the drain's second half. NaN for a drain of
     * under 10 s, or one that never got there.
     */
    private double steadyAfterSeconds() {
        int seconds = (int) ((backlog.drainedMs() - backlog.jobStartMs()) / 1000);
        if (seconds < 10) {
            return Double.NaN;
        }
        long[] perSecond = new long[seconds];
        for (Outcome o : outcomes) {
            int b = (int) ((o.outputMs() - backlog.jobStartMs()) / 1000);
            if (!o.error() && o.eventMs() < startMs && b >= 0 && b < seconds) {
                perSecond[b]++;
            }
        }
        long[] secondHalf = Arrays.copyOfRange(perSecond, seconds / 2, seconds);
        Arrays.sort(secondHalf);
        double steady = secondHalf[secondHalf.length / 2];
        long window = 0;
        for (int i = 0; i < seconds; i++) {
            window += perSecond[i] - (i >= 5 ? perSecond[i - 5] : 0);
            if (i >= 4 && window / 5.0 >= 0.9 * steady) {
                return i + 1;
            }
        }
        return Double.NaN;
    }

    private Step step(String name, double offeredPerS, double tps, java.util.function.Predicate<Outcome> offeredHere,
                      long offered, double peakRss, double cpuMs, double drain, double steadyAfter) {
        long[] latencies = outcomes.stream().filter(o -> !o.error() && offeredHere.test(o)).mapToLong(Outcome::latencyMs)
                .sorted().toArray();
        long[] visible = outcomes.stream().filter(o -> !o.error() && offeredHere.test(o)).mapToLong(Outcome::visibleMs)
                .sorted().toArray();
        long errors = outcomes.stream().filter(o -> o.error() && offeredHere.test(o)).count();
        return new Step(name, offeredPerS, tps, quantile(latencies, 50), quantile(latencies, 95), quantile(latencies, 99),
                quantile(latencies, 99.9), offered == 0 ? 0 : (double) errors / offered, peakRss, cpuMs,
                quantile(visible, 50), quantile(visible, 95), quantile(visible, 99), quantile(visible, 99.9), drain,
                steadyAfter, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    /** The job's CPU ms between two times (the nearest samples within them) per commit written; NaN without both. */
    private double cpuMsPer(long from, long to, long commits) {
        var a = jobCpuNanos.ceilingEntry(from);
        var b = jobCpuNanos.floorEntry(to);
        if (a == null || b == null || b.getKey() <= a.getKey() || commits == 0) {
            return Double.NaN;
        }
        double share = (double) (to - from) / (b.getKey() - a.getKey()); // the samples span a little less than the phase
        return (b.getValue() - a.getValue()) / 1e6 * share / commits;
    }

    /** The exact value at rank ceil(p·n/100) of sorted values; NaN when there are none. */
    static double quantile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.max(1, Math.ceil(Math.nextDown(p) * sorted.length / 100.0));
        return sorted[rank - 1];
    }

    /** Writes report.json and report.html into {@code dir}. */
    void write(Path dir, String title) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("report.json"), LoadReportJson.of(this));
        Files.writeString(dir.resolve("report.html"), new LoadReportHtml(this).page(title));
    }

    // ---- what the JSON and HTML writers read ----------------------------------------------------------------

    RateProfile profile() {
        return profile;
    }

    long startMs() {
        return startMs;
    }

    long[] sent() {
        return sent;
    }

    List<Outcome> outcomeList() {
        return outcomes;
    }

    DraftLoad.Figures drafts() {
        return drafts;
    }
}
