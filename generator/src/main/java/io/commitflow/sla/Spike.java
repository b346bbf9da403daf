package io.commitflow.sla;

import java.util.List;

/**
 * A window whose tail ran away: Δ = P999 − P99 above the threshold ({@code kind: spike}), with what to look at
 * first — the most frequent error codes and the trace ids of the slowest requests.
 *
 * @param topErrors    up to three {@code CODE=count}, most frequent first
 * @param slowTraceIds up to five trace ids, slowest first
 */
public record Spike(String kind, String tenant, String backend, long windowStart, long windowEnd, long p99Ms,
                    long p999Ms, long deltaMs, long thresholdMs, List<String> topErrors, List<String> slowTraceIds) {}
