package io.commitflow.sla;

/**
 * One window's SLA figures for a tenant and backend, as written to {@code commitflow.sla} ({@code kind: window}).
 *
 * @param windowStart  epoch ms, inclusive
 * @param windowEnd    epoch ms, exclusive
 * @param count        suggestions in the window
 * @param errors       dead letters in the window
 * @param tps          suggestions per second over the window
 * @param errorRate    errors / (suggestions + errors)
 * @param p50Ms        end-to-end latency quantiles of the suggestions, ms (HdrHistogram, 3 significant digits)
 * @param deltaMs      P999 − P99
 * @param attainment   Σ met_i·w(s_i) / Σ w(s_i): met_i = latency ≤ the tenant's target; a dead letter counts as
 *                     not met, with the weight of similarity 0
 * @param targetMs     the tenant's latency target
 * @param scored       suggestions whose event carried the real message, scored against it (live quality)
 * @param bnorm        their mean B-Norm (0–100, a trailing {@code (#n)} removed from both subjects, as {@code eval}
 *                     scores); null when none was scored
 * @param unfaithfulRatio the share of them naming an identifier, file or version their diff does not contain; null
 *                     when none was scored
 */
public record SlaWindow(String kind, String tenant, String backend, long windowStart, long windowEnd, long count,
                        long errors, double tps, double errorRate, long p50Ms, long p95Ms, long p99Ms, long p999Ms,
                        long deltaMs, double attainment, long targetMs, long scored, Double bnorm,
                        Double unfaithfulRatio) {}
