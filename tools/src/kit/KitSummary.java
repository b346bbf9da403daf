import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The host kit's results: one JSON line per matrix row in {@code summary.jsonl} (the row's settings, what became of it,
 * and the steps of its load test's {@code report.json}, read as they are, never measured again), and the plain-text
 * {@code summary.txt} made from those lines: every step of every row, each row's saturation, the growth per doubling
 * of parallelism, and the CUDA engine beside the CPU engine at the same parallelism.
 *
 * <pre>{@code
 * java -cp lib/commitflow-kit-tools.jar:lib/jackson-*.jar KitSummary host OUT/summary.jsonl key=value …
 * java … KitSummary row  OUT/summary.jsonl report=ROW/report/report.json engine=cpu parallelism=8 status=ok …
 * java … KitSummary text OUT/summary.jsonl OUT/summary.txt
 * }</pre>
 *
 * Compiled by tools/host-kit.sh into the kit (the kit's Java runtime has no compiler); run by the kit's run.sh.
 */
public final class KitSummary {
    /** The goal the host run is measured against: a step that holds it is a held step. */
    static final double GOAL_TPS = 3300;
    static final double GOAL_P95_MS = 800;
    static final double GOAL_P99_MS = 1000;
    static final double GOAL_RSS_MB = 4300;
    /** A step holds its rate when it writes at least this share of what it was offered. */
    static final double HOLDS = 0.95;

    private static final ObjectMapper JSON = new ObjectMapper();

    private KitSummary() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: KitSummary host|row|end JSONL [key=value…] | KitSummary text JSONL TXT");
            System.exit(2);
        }
        Path jsonl = Path.of(args[1]);
        switch (args[0]) {
            case "host", "end" -> append(jsonl, fields(args[0], args, 2));
            case "row" -> append(jsonl, row(fields("row", args, 2)));
            case "text" -> Files.writeString(Path.of(args[2]), text(read(jsonl)), StandardCharsets.UTF_8);
            default -> {
                System.err.println("KitSummary: unknown command " + args[0]);
                System.exit(2);
            }
        }
    }

    /** {@code key=value} arguments as a JSON object of type {@code type}: numbers stay numbers, a file@ value is read. */
    static ObjectNode fields(String type, String[] args, int from) throws IOException {
        ObjectNode o = JSON.createObjectNode();
        o.put("type", type);
        for (int i = from; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("not key=value: " + args[i]);
            }
            String key = args[i].substring(0, eq);
            String value = args[i].substring(eq + 1);
            if (key.endsWith("@json")) { // a file holding one JSON value (the CUDA probe)
                Path p = Path.of(value);
                o.set(key.substring(0, key.length() - 5), Files.isRegularFile(p) && Files.size(p) > 0
                        ? readOrText(Files.readString(p).strip()) : null);
            } else if (key.endsWith("@text")) { // a file's text, e.g. a stderr tail
                Path p = Path.of(value);
                o.put(key.substring(0, key.length() - 5), Files.isRegularFile(p) ? Files.readString(p).strip() : "");
            } else if (value.matches("-?[0-9]+")) {
                o.put(key, Long.parseLong(value));
            } else if (value.matches("-?[0-9]*\\.[0-9]+")) {
                o.put(key, Double.parseDouble(value));
            } else {
                o.put(key, value);
            }
        }
        return o;
    }

    private static JsonNode readOrText(String s) {
        try {
            return JSON.readTree(s);
        } catch (IOException e) {
            return JSON.getNodeFactory().textNode(s);
        }
    }

    /**
     * A row's line: its fields, the steps of its report (when the load test wrote one, also a partial one of a row
     * cut short), the saturation and the best step that holds the goal, and the GPU's peak use from nvidia-smi samples.
     */
    static ObjectNode row(ObjectNode o) throws IOException {
        JsonNode report = o.remove("report");
        ArrayNode steps = JSON.createArrayNode();
        if (report != null && Files.isRegularFile(Path.of(report.asText()))) {
            for (JsonNode s : JSON.readTree(Path.of(report.asText()).toFile())) {
                String name = s.path("step").asText();
                boolean neverRan = s.path("offered_per_s").asDouble() == 0 && s.path("tps").asDouble() == 0;
                if (!name.equals("reference") && !name.equals("drafts") && !neverRan) { // a stopped row's later steps
                    steps.add(s);
                }
            }
        }
        JsonNode gpuCsv = o.remove("gpu_csv");
        if (gpuCsv != null && Files.isRegularFile(Path.of(gpuCsv.asText()))) {
            double util = -1;
            double mem = -1;
            for (String line : Files.readAllLines(Path.of(gpuCsv.asText()))) {
                String[] f = line.split(",");
                try {
                    util = Math.max(util, Double.parseDouble(f[0].strip()));
                    mem = Math.max(mem, Double.parseDouble(f[1].strip()));
                } catch (RuntimeException e) {
                    // a header or a line cut short by the kill
                }
            }
            if (util >= 0) {
                o.put("gpu_util_max_pct", util);
                o.put("gpu_mem_max_mib", mem);
            }
        }
        o.set("steps", steps);
        JsonNode sat = saturation(steps);
        // saturated: some step did not hold its rate, so the saturation is a measurement, not a lower bound
        o.put("saturated", measured(steps).stream().anyMatch(s -> !holds(s)));
        if (sat != null) {
            o.put("saturation_tps", sat.path("tps").asDouble());
            o.put("saturation_offered_per_s", sat.path("offered_per_s").asDouble());
            o.put("saturation_p99_ms", sat.path("p99_ms").asDouble());
        }
        double max = measured(steps).stream().mapToDouble(s -> s.path("tps").asDouble()).max().orElse(Double.NaN);
        if (!Double.isNaN(max)) {
            o.put("max_tps", max);
        }
        JsonNode held = held(steps);
        if (held != null) {
            o.put("held_goal_tps", held.path("tps").asDouble());
        }
        return o;
    }

    /** The profile's own steps: not the warm-up, not a backlog. */
    static List<JsonNode> measured(JsonNode steps) {
        List<JsonNode> r = new ArrayList<>();
        for (JsonNode s : steps) {
            String name = s.path("step").asText();
            if (!name.equals("warm-up") && !name.equals("backlog")) {
                r.add(s);
            }
        }
        return r;
    }

    /** The step with the highest TPS among those that wrote at least 95% of what they were offered; null if none. */
    static JsonNode saturation(JsonNode steps) {
        JsonNode best = null;
        for (JsonNode s : measured(steps)) {
            if (holds(s) && (best == null || s.path("tps").asDouble() > best.path("tps").asDouble())) {
                best = s;
            }
        }
        return best;
    }

    /** The highest-TPS step that holds its rate with the goal's latency, no errors and the goal's memory. */
    static JsonNode held(JsonNode steps) {
        JsonNode best = null;
        for (JsonNode s : measured(steps)) {
            if (holds(s) && num(s, "p95_ms") <= GOAL_P95_MS && num(s, "p99_ms") <= GOAL_P99_MS
                    && s.path("error_rate").asDouble(1) == 0 && num(s, "peak_rss_mb") <= GOAL_RSS_MB
                    && (best == null || s.path("tps").asDouble() > best.path("tps").asDouble())) {
                best = s;
            }
        }
        return best;
    }

    private static boolean holds(JsonNode s) {
        double offered = s.path("offered_per_s").asDouble();
        return offered > 0 && s.path("tps").asDouble() >= HOLDS * offered;
    }

    private static double num(JsonNode o, String field) {
        JsonNode v = o.get(field);
        return v == null || v.isNull() || !v.isNumber() ? Double.NaN : v.asDouble();
    }

    private static void append(Path jsonl, ObjectNode o) throws IOException {
        Files.writeString(jsonl, JSON.writeValueAsString(o) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    static List<JsonNode> read(Path jsonl) throws IOException {
        List<JsonNode> r = new ArrayList<>();
        if (Files.isRegularFile(jsonl)) {
            for (String line : Files.readAllLines(jsonl, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    try {
                        r.add(JSON.readTree(line));
                    } catch (IOException e) {
                        // a line cut short when the run was killed
                    }
                }
            }
        }
        return r;
    }

    /** summary.txt: the host, every row's steps, the rows' verdicts, growth per doubling, CUDA beside CPU, the skips. */
    static String text(List<JsonNode> lines) {
        StringBuilder b = new StringBuilder();
        JsonNode host = null;
        JsonNode end = null;
        List<JsonNode> rows = new ArrayList<>();
        for (JsonNode l : lines) {
            switch (l.path("type").asText()) {
                case "host" -> host = l;
                case "end" -> end = l;
                case "row" -> rows.add(l);
                default -> { }
            }
        }
        if (host != null) {
            b.append(String.format(Locale.ROOT, "commitflow host kit %s, %s: %s, %d cores, %s%n", host.path("kit").asText(),
                    host.path("started").asText(), host.path("host").asText(), host.path("cores").asInt(),
                    host.path("memory").asText()));
            b.append("nvidia-smi: ").append(host.path("nvidia_smi").asText("(none)")).append('\n');
            JsonNode probe = host.path("probe");
            b.append("CUDA probe: ").append(probe.path("cuda_available").asBoolean()
                    ? "available, " + probe.path("device").asText() + ", compute " + probe.path("compute_capability").asText()
                    : "no GPU: " + probe.path("reason").asText(probe.asText("(none)"))).append('\n');
            b.append(String.format(Locale.ROOT, "repository %s (%s commits); each row: a warm-up of %s s at its first rate, "
                            + "then steps of %s s at %s of the row's guess; budget %s s%n",
                    host.path("repo").asText(), host.path("repo_commits").asText("?"), host.path("warmup_s").asText(),
                    host.path("step_s").asText(), host.path("fractions").asText(), host.path("budget_s").asText()));
        }
        b.append('\n').append("Steps (latency from each event's Kafka timestamp to its suggestion's; visible: to the "
                + "read_committed reader)\n");
        b.append("engine  par  step      offered/s      TPS  P50 ms  P95 ms  P99 ms  P999 ms  vis.P99  errors  RSS MB  "
                + "CPU ms/commit\n");
        for (JsonNode r : rows) {
            for (JsonNode s : r.path("steps")) {
                b.append(String.format(Locale.ROOT, "%-6s %4d  %-8s %10.1f %8.1f %7s %7s %7s %8s %8s %6.3f%% %7s %14s%n",
                        r.path("engine").asText(), r.path("parallelism").asInt(), s.path("step").asText(),
                        s.path("offered_per_s").asDouble(), s.path("tps").asDouble(), ms(s, "p50_ms"), ms(s, "p95_ms"),
                        ms(s, "p99_ms"), ms(s, "p999_ms"), ms(s, "visible_p99_ms"), s.path("error_rate").asDouble() * 100,
                        ms(s, "peak_rss_mb"), two(s, "cpu_ms_per_commit")));
            }
        }
        b.append('\n').append(String.format(Locale.ROOT, "Rows (saturation: the highest TPS of a step that wrote >= %.0f%% "
                + "of its offered rate, >= when every step held; held: the same, also with P95 <= %.0f ms, P99 <= %.0f ms, "
                + "0 errors, RSS <= %.0f MB)%n",
                HOLDS * 100, GOAL_P95_MS, GOAL_P99_MS, GOAL_RSS_MB));
        b.append("engine  par  status       sat TPS  at offered  max TPS  held TPS  P99@sat  peak RSS  wall s  limit s  "
                + "GPU util/mem  cause\n");
        for (JsonNode r : rows) {
            double rss = 0;
            for (JsonNode s : r.path("steps")) {
                rss = Math.max(rss, s.path("peak_rss_mb").asDouble());
            }
            String gpu = r.has("gpu_util_max_pct") ? String.format(Locale.ROOT, "%.0f%%/%.0f MiB",
                    r.path("gpu_util_max_pct").asDouble(), r.path("gpu_mem_max_mib").asDouble()) : "-";
            String sat = one(r, "saturation_tps");
            if (!sat.equals("-") && !r.path("saturated").asBoolean(true)) {
                sat = ">=" + sat; // every step held: the row never reached saturation
            }
            b.append(String.format(Locale.ROOT, "%-6s %4d  %-11s %8s %11s %8s %9s %8s %9s %7s %8s  %-12s  %s%n",
                    r.path("engine").asText(), r.path("parallelism").asInt(), r.path("status").asText(),
                    sat, one(r, "saturation_offered_per_s"), one(r, "max_tps"), one(r, "held_goal_tps"),
                    ms(r, "saturation_p99_ms"), rss > 0 ? String.format(Locale.ROOT, "%.0f", rss) : "-", one(r, "wall_s"),
                    r.path("limit_s").asText("-"), gpu, r.path("cause").asText("")));
        }
        goal(b, rows);
        growth(b, rows);
        sideBySide(b, rows);
        List<String> skipped = new ArrayList<>();
        for (JsonNode r : rows) {
            if (!r.path("status").asText().equals("ok")) {
                skipped.add(r.path("engine").asText() + " p" + r.path("parallelism").asInt() + " " + r.path("status").asText()
                        + ": " + r.path("cause").asText());
            }
        }
        b.append('\n').append("Skipped, failed or cut short: ").append(skipped.isEmpty() ? "none" : "").append('\n');
        skipped.forEach(s -> b.append("  ").append(s).append('\n'));
        if (end != null) {
            b.append(String.format(Locale.ROOT, "%nmatrix done in %s s of a %s s budget: %s%n", end.path("wall_s").asText(),
                    end.path("budget_s").asText(), end.path("note").asText("")));
        } else {
            b.append("\n(the matrix has not finished: this is what it wrote so far)\n");
        }
        return b.toString();
    }

    /** Whether each row held the goal's rate with its latency, errors and memory, and else what it held. */
    private static void goal(StringBuilder b, List<JsonNode> rows) {
        b.append('\n').append(String.format(Locale.ROOT, "Goal: >= %.0f commits/s held with P95 <= %.0f ms, P99 <= %.0f ms, "
                + "0 errors, RSS <= %.0f MB%n", GOAL_TPS, GOAL_P95_MS, GOAL_P99_MS, GOAL_RSS_MB));
        for (JsonNode r : rows) {
            if (r.path("steps").size() == 0) {
                continue;
            }
            JsonNode held = held(r.path("steps"));
            String verdict = held == null ? "no: no step held its rate within the goal's latency, errors and memory"
                    : String.format(Locale.ROOT, "%s: held %.1f commits/s at %.1f offered (P95 %s ms, P99 %s ms, RSS %s MB)",
                    held.path("tps").asDouble() >= GOAL_TPS ? "yes" : "no", held.path("tps").asDouble(),
                    held.path("offered_per_s").asDouble(), ms(held, "p95_ms"), ms(held, "p99_ms"), ms(held, "peak_rss_mb"));
            b.append(String.format(Locale.ROOT, "  %-5s p%-2d %s%n", r.path("engine").asText(), r.path("parallelism").asInt(),
                    verdict));
        }
    }

    /** Saturation TPS at each parallelism over the one before, per engine (max TPS in brackets). */
    private static void growth(StringBuilder b, List<JsonNode> rows) {
        b.append('\n').append("Growth per doubling of parallelism: saturation TPS (max TPS), goal >= 1.6x\n");
        for (String engine : engines(rows)) {
            TreeMap<Integer, JsonNode> byP = byParallelism(rows, engine);
            List<String> parts = new ArrayList<>();
            Integer prev = null;
            for (int p : byP.keySet()) {
                if (prev != null) {
                    parts.add(String.format(Locale.ROOT, "%d->%d %s (%s)", prev, p,
                            ratio(byP.get(p), byP.get(prev), "saturation_tps"), ratio(byP.get(p), byP.get(prev), "max_tps")));
                }
                prev = p;
            }
            if (byP.size() > 2) {
                int lo = byP.firstKey();
                int hi = byP.lastKey();
                parts.add(String.format(Locale.ROOT, "%d->%d %s (%s)", lo, hi, ratio(byP.get(hi), byP.get(lo), "saturation_tps"),
                        ratio(byP.get(hi), byP.get(lo), "max_tps")));
            }
            b.append(String.format(Locale.ROOT, "  %-5s %s%n", engine, parts.isEmpty() ? "(fewer than two rows ran)"
                    : String.join("   ", parts)));
        }
    }

    /** CUDA over CPU at each parallelism both ran at, row and step by step (the same profile). */
    private static void sideBySide(StringBuilder b, List<JsonNode> rows) {
        b.append('\n').append("CUDA beside CPU (same job, same profile): cuda/cpu\n");
        TreeMap<Integer, JsonNode> cuda = byParallelism(rows, "cuda");
        TreeMap<Integer, JsonNode> cpu = byParallelism(rows, "cpu");
        boolean any = false;
        for (int p : new TreeSet<>(cuda.keySet()).descendingSet()) {
            JsonNode g = cuda.get(p);
            JsonNode c = cpu.get(p);
            if (c == null) {
                continue;
            }
            any = true;
            b.append(String.format(Locale.ROOT, "  p%d: saturation TPS %s, max TPS %s%n", p, ratio(g, c, "saturation_tps"),
                    ratio(g, c, "max_tps")));
            b.append("    step      offered/s   TPS cuda    TPS cpu   P99 cuda  P99 cpu  vis.P99 cuda/cpu  CPU ms/commit "
                    + "cuda/cpu  RSS cuda/cpu\n");
            Map<String, JsonNode> cs = new LinkedHashMap<>();
            c.path("steps").forEach(s -> cs.put(s.path("step").asText(), s));
            for (JsonNode gs : g.path("steps")) {
                JsonNode s = cs.get(gs.path("step").asText());
                if (s == null) {
                    continue;
                }
                b.append(String.format(Locale.ROOT, "    %-8s %10.1f %10.1f %10.1f %10s %8s %8s/%-8s %13s/%-8s %6s/%s%n",
                        gs.path("step").asText(), gs.path("offered_per_s").asDouble(), gs.path("tps").asDouble(),
                        s.path("tps").asDouble(), ms(gs, "p99_ms"), ms(s, "p99_ms"), ms(gs, "visible_p99_ms"),
                        ms(s, "visible_p99_ms"), two(gs, "cpu_ms_per_commit"), two(s, "cpu_ms_per_commit"),
                        ms(gs, "peak_rss_mb"), ms(s, "peak_rss_mb")));
            }
        }
        if (!any) {
            b.append("  (no parallelism has both a cuda and a cpu row that ran)\n");
        }
    }

    private static List<String> engines(List<JsonNode> rows) {
        List<String> r = new ArrayList<>();
        for (JsonNode row : rows) {
            String e = row.path("engine").asText();
            if (!r.contains(e)) {
                r.add(e);
            }
        }
        return r;
    }

    /** The rows of one engine that measured something, by parallelism. */
    private static TreeMap<Integer, JsonNode> byParallelism(List<JsonNode> rows, String engine) {
        TreeMap<Integer, JsonNode> r = new TreeMap<>();
        for (JsonNode row : rows) {
            if (row.path("engine").asText().equals(engine) && row.path("steps").size() > 0) {
                r.put(row.path("parallelism").asInt(), row);
            }
        }
        return r;
    }

    private static String ratio(JsonNode a, JsonNode b, String field) {
        double x = num(a, field);
        double y = num(b, field);
        return Double.isNaN(x) || Double.isNaN(y) || y == 0 ? "-" : String.format(Locale.ROOT, "%.2fx", x / y);
    }

    private static String ms(JsonNode o, String field) {
        double v = num(o, field);
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }

    private static String one(JsonNode o, String field) {
        double v = num(o, field);
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String two(JsonNode o, String field) {
        double v = num(o, field);
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
    }
}
