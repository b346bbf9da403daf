package io.commitflow.cli;

import com.sun.net.httpserver.HttpServer;
import io.commitflow.event.CommitEvent;
import io.commitflow.event.Origin;
import io.commitflow.event.Suggestion;
import io.commitflow.git.DiffedCommit;
import io.commitflow.trace.Stages;
import io.commitflow.trace.Tracing;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code commitflow bench tracing}: what tracing costs a commit, apart from everything else the job does. Each commit
 * goes through the calls its stages make — the sampling decision at parse, diff, suggest and the sink, and when
 * sampled its five spans (consume, dedup + diff, suggest, retrieve, send) with their attributes — through the
 * OpenTelemetry SDK's batch processor and OTLP/HTTP exporter to a receiver in this process that reads and drops
 * each export. The reference in the same run: the same loop with tracing off.
 */
@Command(name = "tracing", mixinStandardHelpOptions = true,
        description = "Times the job's tracing calls per commit (sampling decisions and, when sampled, the spans of "
                + "its stages, exported over OTLP/HTTP to a receiver in this process), with tracing off as the "
                + "reference: CPU microseconds per commit (this process, receiver included), medians over the runs.",
        footer = {"", "Example: ./commitflow bench tracing",
                "         ./commitflow bench tracing --ratios 0.1 --commits 500000 --runs 5"})
public final class TracingBenchCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--ratios", defaultValue = "0,0.1,1", split = ",", paramLabel = "R",
            description = "Sampling ratios (parentbased_traceidratio) to time beside tracing off (default: ${DEFAULT-VALUE}).")
    List<Double> ratios;

    @Option(names = "--commits", defaultValue = "200000", paramLabel = "N",
            description = "Commits per timed run (default: ${DEFAULT-VALUE}).")
    int commits;

    @Option(names = "--runs", defaultValue = "3", paramLabel = "N",
            description = "Timed runs per setting, after one warm-up run (default: ${DEFAULT-VALUE}).")
    int runs;

    @Override
    public Integer call() throws IOException {
        if (commits < 1 || runs < 1 || ratios.stream().anyMatch(r -> r < 0 || r > 1)) {
            throw new UserError("--commits and --runs must be positive, --ratios between 0 and 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        AtomicLong exports = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/v1/traces", x -> {
            try (x; InputStream in = x.getRequestBody()) {
                bytes.addAndGet(in.readAllBytes().length);
                exports.incrementAndGet();
                x.sendResponseHeaders(200, -1);
            }
        });
        receiver.start();
        try {
            String endpoint = "http://127.0.0.1:" + receiver.getAddress().getPort();
            double off = DiffReference.median(time(null, endpoint));
            out.printf(Locale.ROOT, "%-12s %10s %12s%n", "tracing", "µs/commit", "vs off");
            out.printf(Locale.ROOT, "%-12s %10.2f %12s%n", "off", off, "—");
            for (double r : ratios) {
                long before = bytes.get();
                double on = DiffReference.median(time(r, endpoint));
                out.printf(Locale.ROOT, "%-12s %10.2f %+11.2f µs   (%d KiB exported per run)%n", "ratio " + r, on,
                        on - off, (bytes.get() - before) / 1024 / (runs + 1));
            }
            out.printf(Locale.ROOT, "%d exports received; CPU of this process (the receiver's included) per commit, "
                    + "median of %d runs of %d commits%n", exports.get(), runs, commits);
        } finally {
            receiver.stop(0);
        }
        return 0;
    }

    /** CPU µs per commit of each timed run (after one warm-up run); tracing off when {@code ratio} is null. */
    private double[] time(Double ratio, String endpoint) {
        double[] perCommit = new double[runs];
        for (int run = 0; run <= runs; run++) {
            // a queue that holds a run's spans: the loop makes them far faster than a job does, and a dropped span
            // would cost less than an exported one
            Tracing t = ratio == null ? Tracing.of(Map.of("otel.sdk.disabled", "true")) : Tracing.of(Map.of(
                    "otel.exporter.otlp.endpoint", endpoint, "otel.traces.sampler", "parentbased_traceidratio",
                    "otel.traces.sampler.arg", Double.toString(ratio),
                    "otel.bsp.max.queue.size", Integer.toString(Math.max(2048, commits * 5)),
                    "otel.bsp.max.export.batch.size", "2048"));
            long cpu = processCpuNanos();
            for (int i = 0; i < commits; i++) {
                commit(t, run * (long) commits + i);
            }
            t.shutdown(); // what is queued is exported, and counted
            if (run > 0) {
                perCommit[run - 1] = (processCpuNanos() - cpu) / 1e3 / commits;
            }
        }
        return perCommit;
    }

    /** One commit's tracing calls, as its stages make them. */
    private static void commit(Tracing t, long i) {
        Origin o = new Origin("commitflow.events", (int) (i & 3), i, System.currentTimeMillis());
        CommitEvent c = new CommitEvent("acme", "app", Long.toHexString(i), List.of(), "", 0, null, null,
                o.derivedTraceId(), o);
        if (!t.enabled()) {
            return; // what every stage checks first
        }
        long start = Tracing.nowNs();
        Tracing.Trace parse = t.trace(c.traceId(), o.traceparent(), o.tracestate());
        if (parse != null) {
            Stages.consumed(t, parse, o, true, "commit", Stages.of(c), start, null);
        }
        DiffedCommit d = new DiffedCommit(c, List.of(), 3, 40, 12, "", "", "mirror", null);
        Stages.diffed(t, "dedup + diff", c, d, Tracing.nowNs(), null, Stages.of(c));
        Tracing.Trace suggest = t.trace(c.traceId(), o.traceparent(), o.tracestate());
        String published = Stages.published(c.repo(), c.sha());
        if (suggest != null) {
            Suggestion s = new Suggestion(c.repo(), c.sha(), "Fix the pack writer's delta window", "", "fix", "",
                    "retrieval", 0.8, List.of("a", "b"), "miss", 12, c.traceId(), c.tenant(), "", 0, 0,
                    System.currentTimeMillis(), "").withTraceContext(t.traceparentFor(suggest, c.traceId(), published), null);
            long now = Tracing.nowNs();
            Stages.suggested(t, suggest, c, s, start, new Stages.Engine("cpu", now - 1_000_000, now, 32, false), null);
            Stages.sentSuggestion(t, s, "commitflow.suggestions");
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
