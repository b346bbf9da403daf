package io.commitflow.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.commitflow.event.Json;

/**
 * A load test's {@code report.json}: one object per phase (the backlog when there is one, the warm-up when there is
 * one, then each step of the profile), then the reference rates and the drafts' round trip when they were measured.
 * A figure nothing was measured for is {@code null}, or left out where it is optional.
 */
final class LoadReportJson {
    private LoadReportJson() {}

    static String of(LoadReport r) throws JsonProcessingException {
        ArrayNode json = Json.mapper().createArrayNode();
        for (LoadReport.Step s : r.steps()) {
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
            putIfKnown(o, "peak_backlog_records", r.lag(s.name())[0]);
            putIfKnown(o, "peak_event_age_ms", r.lag(s.name())[1]);
            putIfKnown(o, "p99_vs_previous_step", s.p99VsPrevious());
            putIfKnown(o, "new_tenant_p99_ms", s.newTenantP99Ms());
            putIfKnown(o, "cpu_vs_diff_code", s.cpuVsDiff());
            putIfKnown(o, "tps_vs_git_log_p", s.tpsVsGit());
        }
        if (r.reference() != null) {
            ObjectNode o = json.addObject();
            o.put("step", "reference");
            o.put("commits", r.reference().commits());
            o.put("diff_code_commits_per_s", round(r.reference().diffCommitsPerS()));
            o.put("diff_code_ms_per_commit", round2(1000 / r.reference().diffCommitsPerS()));
            put(o, "git_log_p_commits_per_s", round(r.reference().gitCommitsPerS()));
        }
        if (r.drafts() != null) {
            ObjectNode o = json.addObject();
            o.put("step", "drafts");
            o.put("per_s", r.drafts().perSecond());
            o.put("sent", r.drafts().sent());
            o.put("answered", r.drafts().answered());
            o.put("refused", r.drafts().refused());
            o.put("without_reply", r.drafts().timedOut());
            put(o, "round_trip_p50_ms", round(r.drafts().p50Ms()));
            put(o, "round_trip_p95_ms", round(r.drafts().p95Ms()));
            put(o, "round_trip_p99_ms", round(r.drafts().p99Ms()));
            put(o, "round_trip_max_ms", round(r.drafts().maxMs()));
        }
        return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n";
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
}
