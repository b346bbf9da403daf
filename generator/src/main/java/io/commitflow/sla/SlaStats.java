package io.commitflow.sla;

import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.DataFormatException;

/**
 * The SLA arithmetic, without Flink: samples → pane, panes → window. Latencies go into an HdrHistogram of 3
 * significant digits up to one hour (values above are recorded as one hour), so a quantile is within 0.1% of the
 * exact one at the same rank, and panes merge exactly: a window merged from panes equals one histogram over all
 * its values.
 */
public final class SlaStats {
    public static final int SLOWEST = 5;
    static final long MAX_LATENCY_MS = 3_600_000L;
    static final int DIGITS = 3;

    private SlaStats() {}

    public static Histogram histogram() {
        return new Histogram(MAX_LATENCY_MS, DIGITS);
    }

    /** Summarises one pane's samples (all of one key). */
    public static Pane pane(String tenant, String backend, long start, long end, Iterable<SlaSample> samples,
                            SlaSettings settings) {
        Histogram h = histogram();
        long count = 0;
        long errors = 0;
        Map<String, Long> codes = new HashMap<>();
        double weight = 0;
        double met = 0;
        List<Pane.Slow> slow = new ArrayList<>();
        long target = settings.targetMs(tenant);
        long scored = 0;
        double bnormSum = 0;
        long unfaithful = 0;
        for (SlaSample s : samples) {
            if (s.scored()) {
                scored++;
                bnormSum += s.bnorm();
                unfaithful += s.unfaithful() ? 1 : 0;
            }
            if (s.isError()) {
                errors++;
                codes.merge(s.error(), 1L, Long::sum);
                weight += settings.weights().of(0);
            } else {
                count++;
                h.recordValue(Math.min(Math.max(0, s.latencyMs()), MAX_LATENCY_MS));
                double w = settings.weights().of(s.similarity());
                weight += w;
                if (s.latencyMs() <= target) {
                    met += w;
                }
                slow.add(new Pane.Slow(s.traceId(), s.latencyMs()));
            }
        }
        return new Pane(tenant, backend, start, end, count, errors, codes, weight, met, slowest(slow), encode(h),
                scored, bnormSum, unfaithful);
    }

    private static final Comparator<Pane.Slow> SLOWEST_FIRST =
            Comparator.comparingLong((Pane.Slow s) -> -s.latencyMs()).thenComparing(Pane.Slow::traceId);

    /** The slowest traces, each once (the commits of one push share their push's trace): its slowest request. */
    static List<Pane.Slow> slowest(List<Pane.Slow> all) {
        List<Pane.Slow> sorted = new ArrayList<>(all);
        sorted.sort(SLOWEST_FIRST);
        List<Pane.Slow> out = new ArrayList<>(SLOWEST);
        Set<String> seen = new HashSet<>();
        for (Pane.Slow s : sorted) {
            if (out.size() == SLOWEST) {
                break;
            }
            if (seen.add(s.traceId())) {
                out.add(s);
            }
        }
        return List.copyOf(out);
    }

    /** What a window of panes comes to. */
    public record Merged(long count, long errors, Map<String, Long> errorCodes, double weight, double metWeight,
                         List<Pane.Slow> slowest, Histogram histogram, long scored, double bnormSum, long unfaithful) {}

    public static Merged merge(List<Pane> panes) {
        Histogram h = histogram();
        long count = 0;
        long errors = 0;
        Map<String, Long> codes = new HashMap<>();
        double weight = 0;
        double met = 0;
        List<Pane.Slow> slow = new ArrayList<>();
        long scored = 0;
        double bnormSum = 0;
        long unfaithful = 0;
        for (Pane p : panes) {
            scored += p.scored();
            bnormSum += p.bnormSum();
            unfaithful += p.unfaithful();
            h.add(decode(p.histogram()));
            count += p.count();
            errors += p.errors();
            p.errorCodes().forEach((c, n) -> codes.merge(c, n, Long::sum));
            weight += p.weight();
            met += p.metWeight();
            slow.addAll(p.slowest());
        }
        return new Merged(count, errors, codes, weight, met, slowest(slow), h, scored, bnormSum, unfaithful);
    }

    /** The window record of merged panes. */
    public static SlaWindow window(String tenant, String backend, long start, long end, Merged m, long targetMs) {
        double seconds = (end - start) / 1000.0;
        long total = m.count() + m.errors();
        long p99 = quantile(m.histogram(), 99.0);
        long p999 = quantile(m.histogram(), 99.9);
        return new SlaWindow("window", tenant, backend, start, end, m.count(), m.errors(), m.count() / seconds,
                total == 0 ? 0 : (double) m.errors() / total, quantile(m.histogram(), 50.0),
                quantile(m.histogram(), 95.0), p99, p999, p999 - p99,
                m.weight() == 0 ? 1.0 : m.metWeight() / m.weight(), targetMs, m.scored(),
                m.scored() == 0 ? null : Math.round(100.0 * m.bnormSum() / m.scored()) / 100.0,
                m.scored() == 0 ? null : (double) m.unfaithful() / m.scored());
    }

    /** A spike record when Δ = P999 − P99 is above the threshold, else null. */
    public static Spike spike(SlaWindow w, Merged m, long thresholdMs) {
        if (w.deltaMs() <= thresholdMs) {
            return null;
        }
        List<Map.Entry<String, Long>> codes = new ArrayList<>(m.errorCodes().entrySet());
        codes.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        List<String> top = new ArrayList<>();
        for (int i = 0; i < Math.min(3, codes.size()); i++) {
            top.add(codes.get(i).getKey() + "=" + codes.get(i).getValue());
        }
        return new Spike("spike", w.tenant(), w.backend(), w.windowStart(), w.windowEnd(), w.p99Ms(), w.p999Ms(),
                w.deltaMs(), thresholdMs, top, m.slowest().stream().map(Pane.Slow::traceId).toList());
    }

    /** The value at {@code percentile}: HdrHistogram's (the highest value equivalent to the one at that rank); 0 if empty. */
    public static long quantile(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile);
    }

    public static byte[] encode(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        return Arrays.copyOf(buf.array(), n);
    }

    public static Histogram decode(byte[] bytes) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
        } catch (DataFormatException e) {
            throw new IllegalStateException("a pane's latency histogram does not decode", e);
        }
    }
}
