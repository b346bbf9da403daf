package io.commitflow.sla;

import java.util.List;
import java.util.Map;

/**
 * One slide's worth of a key's samples, summarised so that panes merge into windows: counts, error codes, the
 * attainment sums, the slowest requests and a latency histogram (HdrHistogram, compressed).
 *
 * @param start       pane start (epoch ms, inclusive)
 * @param end         pane end (exclusive)
 * @param count       suggestions
 * @param errors      dead letters
 * @param errorCodes  dead letters by reason code
 * @param weight      Σ w(s_i) over the pane's outcomes
 * @param metWeight   Σ met_i · w(s_i)
 * @param slowest     the slowest suggestions, at most {@link SlaStats#SLOWEST}, slowest first
 * @param histogram   the suggestions' latencies, ms ({@link SlaStats#encode})
 * @param scored      suggestions scored against the real message (live quality)
 * @param bnormSum    Σ B-Norm of the scored suggestions
 * @param unfaithful  scored suggestions that name what their diff does not contain
 */
public record Pane(String tenant, String backend, long start, long end, long count, long errors,
                   Map<String, Long> errorCodes, double weight, double metWeight, List<Slow> slowest, byte[] histogram,
                   long scored, double bnormSum, long unfaithful) {

    /** A slow request: its trace id and latency. */
    public record Slow(String traceId, long latencyMs) {}
}
