package io.commitflow.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.commitflow.event.Json;
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
 * What a load test measured, and its two files: {@code report.json} (one object per phase: the backlog when there is
 * one, the warm-up when there is one, then each step of the profile) and {@code report.html} (the table and three
 * plots as inline SVG, no script, no network).
 *
 * <p>Times are epoch ms. An outcome belongs to the phase in which its event was offered; a step's TPS counts the
 * suggestions written during the step. Latency runs from the event's Kafka timestamp to the suggestion's (the moment
 * the job made it); visible latency to the moment the load test's read_committed consumer received it, which
 * includes the wait for the checkpoint that commits it. CPU is the job's: this JVM's CPU time less the load driver's
 * threads, over the suggestions written in the phase.
 */
final class LoadReport {
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
     * memory: {@link LoadMeasurement#BACKLOG_STEP} or the profile's step index) the peak {records behind, age in ms}.
     */
    LoadReport withLag(Map<Integer, double[]> peakByStep) {
        Map<String, double[]> byName = new java.util.HashMap<>();
        peakByStep.forEach((i, v) -> byName.put(i == LoadMeasurement.BACKLOG_STEP ? "backlog" : stepName(i), v.clone()));
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
                backlog.events(), peakRssMbByStep.getOrDefault(LoadMeasurement.BACKLOG_STEP, 0.0),
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
        ArrayNode json = Json.mapper().createArrayNode();
        for (Step s : steps()) {
            ObjectNode o = json.addObject();
            o.put("step", s.name());
            o.put("offered_per_s", round(s.offeredPerS()));
            o.put("tps", round(s.tps()));
            put(o, "p50_ms", s.p50Ms());
            put(o, "p95_ms", s.p95Ms());
            put(o, "p99_ms", s.p99Ms());
            put(o, "p999_ms", s.p999Ms());
            o.put("error_rate", s.errorRate());
            o.put("peak_rss_mb", round(s.peakRssMb()));
            put(o, "cpu_ms_per_commit", round2(s.cpuMsPerCommit()));
            put(o, "visible_p50_ms", s.visibleP50Ms());
            put(o, "visible_p95_ms", s.visibleP95Ms());
            put(o, "visible_p99_ms", s.visibleP99Ms());
            put(o, "visible_p999_ms", s.visibleP999Ms());
            if (!Double.isNaN(s.drainSeconds())) {
                o.put("drain_s", round(s.drainSeconds()));
                put(o, "steady_after_s", s.steadyAfterSeconds());
            }
            putIfKnown(o, "peak_backlog_records", lag(s.name())[0]);
            putIfKnown(o, "peak_event_age_ms", lag(s.name())[1]);
            putIfKnown(o, "p99_vs_previous_step", s.p99VsPrevious());
            putIfKnown(o, "new_tenant_p99_ms", s.newTenantP99Ms());
            putIfKnown(o, "cpu_vs_diff_code", s.cpuVsDiff());
            putIfKnown(o, "tps_vs_git_log_p", s.tpsVsGit());
        }
        if (reference != null) {
            ObjectNode o = json.addObject();
            o.put("step", "reference");
            o.put("commits", reference.commits());
            o.put("diff_code_commits_per_s", round(reference.diffCommitsPerS()));
            o.put("diff_code_ms_per_commit", round2(1000 / reference.diffCommitsPerS()));
            put(o, "git_log_p_commits_per_s", round(reference.gitCommitsPerS()));
        }
        if (drafts != null) {
            ObjectNode o = json.addObject();
            o.put("step", "drafts");
            o.put("per_s", drafts.perSecond());
            o.put("sent", drafts.sent());
            o.put("answered", drafts.answered());
            o.put("refused", drafts.refused());
            o.put("without_reply", drafts.timedOut());
            put(o, "round_trip_p50_ms", round(drafts.p50Ms()));
            put(o, "round_trip_p95_ms", round(drafts.p95Ms()));
            put(o, "round_trip_p99_ms", round(drafts.p99Ms()));
            put(o, "round_trip_max_ms", round(drafts.maxMs()));
        }
        Files.writeString(dir.resolve("report.json"),
                Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n");
        Files.writeString(dir.resolve("report.html"), html(title));
    }

    private static void put(ObjectNode o, String field, double v) {
        if (Double.isNaN(v)) {
            o.putNull(field); // no suggestion of this step arrived
        } else {
            o.put(field, v);
        }
    }

    private static void putIfKnown(ObjectNode o, String field, double v) {
        if (!Double.isNaN(v)) {
            o.put(field, round2(v));
        }
    }

    /** To two decimals; NaN stays NaN. */
    private static double round2(double v) {
        return Double.isNaN(v) ? v : Math.round(v * 100) / 100.0;
    }

    private static double round(double v) {
        return Double.isNaN(v) ? v : Math.round(v * 10) / 10.0;
    }

    // ---- HTML ---------------------------------------------------------------------------------------------

    private String html(String title) {
        StringBuilder h = new StringBuilder();
        h.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(esc(title)).append("</title>\n<style>body{font:14px system-ui,sans-serif;margin:2em;color:#222}"
                        + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
                        + "th{background:#f4f4f4}svg{background:#fff;border:1px solid #ddd;margin:8px 0}"
                        + ".note{color:#666}</style></head><body>\n");
        h.append("<h1>").append(esc(title)).append("</h1>\n<p class=\"note\">Profile <code>").append(esc(profile.toString()))
                .append("</code>; latency from each event's Kafka timestamp to its suggestion's (visible: to the moment a "
                        + "read_committed consumer received it). Outcomes belong to the step their event was offered in; TPS "
                        + "counts suggestions written during the step; CPU is the job's, per suggestion written.</p>\n");
        h.append("<table><tr><th>step</th><th>offered/s</th><th>TPS</th><th>P50 ms</th><th>P95 ms</th><th>P99 ms</th>"
                + "<th>P999 ms</th><th>errors</th><th>peak RSS MB</th><th>CPU ms/commit</th><th>visible P99 ms</th>"
                + "<th>peak backlog, records</th><th>peak age of the event read, ms</th></tr>\n");
        for (Step s : steps()) {
            double[] lag = lag(s.name());
            h.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%.1f</td><td>%.1f</td><td>%s</td><td>%s</td><td>%s</td>"
                            + "<td>%s</td><td>%.3f%%</td><td>%.0f</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>%n",
                    esc(s.name()), s.offeredPerS(), s.tps(), ms(s.p50Ms()), ms(s.p95Ms()), ms(s.p99Ms()), ms(s.p999Ms()),
                    s.errorRate() * 100, s.peakRssMb(), Double.isNaN(s.cpuMsPerCommit()) ? "–"
                            : String.format(Locale.ROOT, "%.2f", s.cpuMsPerCommit()), ms(s.visibleP99Ms()), ms(lag[0]),
                    ms(lag[1])));
        }
        h.append("</table>\n");
        h.append("<h2>Latency quantiles over time</h2>\n").append(latencyPlot());
        h.append("<h2>Achieved vs offered</h2>\n").append(throughputPlot());
        h.append("<h2>Δ = P999 − P99 per tenant (5 s buckets)</h2>\n").append(deltaHeatmap());
        h.append("</body></html>\n");
        return h.toString();
    }

    private static String ms(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.0f", v);
    }

    /** Per-second buckets of the run, by event time. */
    private int seconds() {
        long last = Math.max(sent.length == 0 ? startMs : sent[sent.length - 1],
                outcomes.stream().mapToLong(Outcome::outputMs).max().orElse(startMs));
        return (int) Math.max(1, (last - startMs) / 1000 + 1);
    }

    private String latencyPlot() {
        int n = seconds();
        List<List<Long>> buckets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            buckets.add(new ArrayList<>());
        }
        for (Outcome o : outcomes) {
            int b = (int) ((o.eventMs() - startMs) / 1000);
            if (!o.error() && b >= 0 && b < n) {
                buckets.get(b).add(o.latencyMs());
            }
        }
        double[][] series = new double[3][n];
        double[] ps = {50, 99, 99.9};
        for (int i = 0; i < n; i++) {
            long[] v = buckets.get(i).stream().mapToLong(Long::longValue).sorted().toArray();
            for (int j = 0; j < 3; j++) {
                series[j][i] = quantile(v, ps[j]);
            }
        }
        return lines(series, new String[] {"P50", "P99", "P999"}, new String[] {"#1f77b4", "#ff7f0e", "#d62728"},
                "seconds since start (event time)", "ms");
    }

    private String throughputPlot() {
        int n = seconds();
        double[][] series = new double[2][n];
        for (long t : sent) {
            int b = (int) ((t - startMs) / 1000);
            if (b >= 0 && b < n) {
                series[0][b]++;
            }
        }
        for (Outcome o : outcomes) {
            int b = (int) ((o.outputMs() - startMs) / 1000);
            if (!o.error() && b >= 0 && b < n) {
                series[1][b]++;
            }
        }
        return lines(series, new String[] {"offered/s", "achieved/s"}, new String[] {"#7f7f7f", "#2ca02c"},
                "seconds since start", "events per second");
    }

    private String deltaHeatmap() {
        int n = (seconds() + 4) / 5;
        Map<String, List<List<Long>>> byTenant = new TreeMap<>();
        for (Outcome o : outcomes) {
            int b = (int) ((o.eventMs() - startMs) / 5000);
            if (!o.error() && b >= 0 && b < n) {
                List<List<Long>> t = byTenant.computeIfAbsent(o.tenant(), k -> {
                    List<List<Long>> l = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        l.add(new ArrayList<>());
                    }
                    return l;
                });
                t.get(b).add(o.latencyMs());
            }
        }
        int cell = Math.max(6, Math.min(40, 800 / Math.max(1, n)));
        int left = 110;
        int rowH = 22;
        int width = Math.max(860, left + n * cell + 20);
        int height = 30 + rowH * byTenant.size() + 40;
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\">%n", width, height));
        double max = 1;
        Map<String, double[]> deltas = new TreeMap<>();
        for (var e : byTenant.entrySet()) {
            double[] d = new double[n];
            for (int i = 0; i < n; i++) {
                long[] v = e.getValue().get(i).stream().mapToLong(Long::longValue).sorted().toArray();
                d[i] = v.length == 0 ? Double.NaN : quantile(v, 99.9) - quantile(v, 99);
                if (!Double.isNaN(d[i])) {
                    max = Math.max(max, d[i]);
                }
            }
            deltas.put(e.getKey(), d);
        }
        int row = 0;
        for (var e : deltas.entrySet()) {
            int y = 20 + row * rowH;
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">%s</text>%n",
                    left - 6, y + 15, esc(e.getKey())));
            for (int i = 0; i < n; i++) {
                double d = e.getValue()[i];
                String color = Double.isNaN(d) ? "#d9d9d9" : heat(d / max);
                s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#bbb\">"
                                + "<title>%s, %d–%d s: Δ %s ms</title></rect>%n", left + i * cell, y, cell - 1, rowH - 2, color,
                        esc(e.getKey()), i * 5, i * 5 + 5, Double.isNaN(d) ? "–" : String.format(Locale.ROOT, "%.0f", d)));
            }
            row++;
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"12\">seconds since start, 5 s per cell; "
                + "pale → dark red: Δ from 0 to %.0f ms; grey: no suggestions</text>%n", left, height - 8, max));
        return s.append("</svg>\n").toString();
    }

    private static String heat(double f) {
        f = Math.max(0, Math.min(1, f));
        int r = (int) Math.round(255 - 75 * f);
        int g = (int) Math.round(245 * (1 - f));
        int b = (int) Math.round(225 * (1 - f));
        return String.format(Locale.ROOT, "rgb(%d,%d,%d)", r, g, b);
    }

    /** A line chart of equally spaced series (NaN: a gap). */
    private static String lines(double[][] series, String[] names, String[] colors, String xLabel, String yLabel) {
        int n = series[0].length;
        double max = 1;
        for (double[] s : series) {
            for (double v : s) {
                if (!Double.isNaN(v)) {
                    max = Math.max(max, v);
                }
            }
        }
        int w = 860;
        int h = 300;
        int left = 60;
        int bottom = 40;
        double sx = (w - left - 20) / (double) Math.max(1, n - 1);
        double sy = (h - bottom - 20) / max;
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\">%n", w, h));
        s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>%n", left, h - bottom, w - 20, h - bottom));
        s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"20\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>%n", left, left, h - bottom));
        for (int k = 0; k <= 4; k++) {
            double v = max * k / 4;
            double y = h - bottom - v * sy;
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%.0f</text>%n", left - 4, y + 4, v));
        }
        for (int k = 0; k <= 4; k++) {
            int i = (n - 1) * k / 4;
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%d</text>%n",
                    left + i * sx, h - bottom + 14, i));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>%n",
                (left + w) / 2, h - 6, esc(xLabel)));
        s.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" font-size=\"12\" transform=\"rotate(-90 14 %d)\" "
                + "text-anchor=\"middle\">%s</text>%n", h / 2, h / 2, esc(yLabel)));
        for (int j = 0; j < series.length; j++) {
            StringBuilder path = new StringBuilder();
            boolean pen = false;
            for (int i = 0; i < n; i++) {
                double v = series[j][i];
                if (Double.isNaN(v)) {
                    pen = false;
                    continue;
                }
                path.append(pen ? " L" : " M").append(String.format(Locale.ROOT, "%.1f %.1f", left + i * sx, h - bottom - v * sy));
                pen = true;
            }
            s.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>%n",
                    path.toString().trim(), colors[j]));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"12\" fill=\"%s\">%s</text>%n",
                    left + 10 + j * 110, 14, colors[j], esc(names[j])));
        }
        return s.append("</svg>\n").toString();
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
