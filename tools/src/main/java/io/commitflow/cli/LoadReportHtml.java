package io.commitflow.cli;

import io.commitflow.replay.RateProfile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A load test's {@code report.html}: the table of phases and three plots as inline SVG (latency quantiles over time,
 * achieved against offered, and P999 − P99 per tenant), with no script and nothing fetched from the network.
 */
final class LoadReportHtml {
    private final LoadReport r;
    private final RateProfile profile;
    private final long startMs;
    private final long[] sent;
    private final List<LoadReport.Outcome> outcomes;

    LoadReportHtml(LoadReport r) {
        this.r = r;
        profile = r.profile();
        startMs = r.startMs();
        sent = r.sent();
        outcomes = r.outcomeList();
    }

    String page(String title) {
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
        for (LoadReport.Step s : r.steps()) {
            double[] lag = r.lag(s.name());
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
                outcomes.stream().mapToLong(LoadReport.Outcome::outputMs).max().orElse(startMs));
        return (int) Math.max(1, (last - startMs) / 1000 + 1);
    }

    private String latencyPlot() {
        int n = seconds();
        List<List<Long>> buckets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            buckets.add(new ArrayList<>());
        }
        for (LoadReport.Outcome o : outcomes) {
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
                series[j][i] = LoadReport.quantile(v, ps[j]);
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
        for (LoadReport.Outcome o : outcomes) {
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
        for (LoadReport.Outcome o : outcomes) {
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
                d[i] = v.length == 0 ? Double.NaN : LoadReport.quantile(v, 99.9) - LoadReport.quantile(v, 99);
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
