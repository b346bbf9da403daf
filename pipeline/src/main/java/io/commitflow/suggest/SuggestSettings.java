package io.commitflow.suggest;

import io.commitflow.generate.RetrievalGenerator;
import io.commitflow.gpu.EngineMode;
import io.commitflow.gpu.Tier;
import io.commitflow.llm.LlmSettings;

import java.io.Serializable;
import java.time.Duration;
import java.util.Map;

/**
 * How the suggest stage runs: its retrieval engine, how requests are batched and how long one may take, what each
 * repository keeps, and who writes each tenant's messages. Every value is checked here, once; {@link #DEFAULT} holds
 * every default (the command line shows them from here).
 *
 * @param engine          {@code AUTO} (CUDA where a GPU and driver load, else CPU), {@code CPU} or {@code CUDA}
 * @param deviceBudgetMiB device memory one task's CUDA engine may use (rows and scratch)
 * @param maxBatch        the most requests in one engine call
 * @param maxWait         how long a request waits for its batch to fill
 * @param workers         threads per task answering batches (each tier's batch can run on its own CUDA stream)
 * @param timeout         after this, a request is answered by the exact CPU scan in the task thread
 * @param capacity        requests in flight per task; beyond it the stage back-pressures
 * @param retries         engine calls retried after a failure before the CPU scan answers
 * @param tiers           tenant → priority tier; tenants not named are {@code defaultTier}
 * @param defaultTier     the tier of tenants not named
 * @param llm             tenant → the LLM endpoint that writes its messages; tenants not named get the built-in generator
 * @param maxRows         earlier commits per repository a request may see (the oldest are forgotten)
 * @param cacheTtl        how long the result cache and the prompt cache keep an entry
 * @param fleet           whether a young repository (fewer than {@value RetrievalGenerator#YOUNG} commits learned)
 *                        also draws exemplars from its tenant's other repositories ({@link FleetMemory})
 * @param fleetRows       the newest commits of each tenant its fleet memory keeps (a few KiB of task memory each)
 * @param minSubjectChars the fewest characters of a built-in suggestion's subject: 0, as the repository writes them
 *                        ({@link io.commitflow.generate.Conventions#subjectFloor}: 20, or 6 where its own history
 *                        writes shorter subjects), or 6–72 for every repository (20 for a load tester that checks
 *                        20–72)
 * @param reuseFloor      how alike (the retrieval score, 0–1) a neighbour's diff must be for the built-in generator to
 *                        suggest its subject ({@link RetrievalGenerator#reuseFloor}); 0: any that passes the checks
 */
public record SuggestSettings(EngineMode engine, long deviceBudgetMiB, int maxBatch, Duration maxWait, int workers,
                              Duration timeout, int capacity, int retries, Map<String, Tier> tiers, Tier defaultTier,
                              Map<String, LlmSettings> llm, int maxRows, Duration cacheTtl,
                              boolean fleet, int fleetRows, int minSubjectChars, double reuseFloor)
        implements Serializable {

    public static final SuggestSettings DEFAULT = new SuggestSettings(EngineMode.AUTO, 8192, 256, Duration.ofMillis(5), 2,
            Duration.ofSeconds(5), 1024, 2, Map.of(), Tier.SILVER, Map.of(), 10_000, Duration.ofHours(24), true, 2_000, 0,
            RetrievalGenerator.DEFAULT_REUSE_FLOOR);

    public SuggestSettings {
        require(engine != null && defaultTier != null, "the engine mode and the default tier must be set");
        require(deviceBudgetMiB >= 1, "the device budget must be at least 1 MiB: " + deviceBudgetMiB);
        require(maxBatch >= 1, "the max batch must be at least 1: " + maxBatch);
        require(!maxWait.isNegative(), "the batch wait must not be negative: " + maxWait);
        require(workers >= 1, "workers must be at least 1: " + workers);
        require(timeout.toMillis() >= 1, "the timeout must be at least 1 ms: " + timeout);
        require(capacity >= 1, "the capacity must be at least 1: " + capacity);
        require(retries >= 0, "engine retries must not be negative: " + retries);
        require(maxRows >= 1, "the history per repository must be at least 1 commit: " + maxRows);
        require(!cacheTtl.isNegative() && !cacheTtl.isZero(), "the cache TTL must be positive: " + cacheTtl);
        require(fleetRows >= 1, "the fleet history per tenant must be at least 1 commit: " + fleetRows);
        require(minSubjectChars == 0 || minSubjectChars >= io.commitflow.generate.SubjectLength.SHORT_FLOOR
                        && minSubjectChars <= io.commitflow.generate.SubjectLength.MAX,
                "the fewest characters of a subject must be 0 (as the repository writes them) or "
                        + io.commitflow.generate.SubjectLength.SHORT_FLOOR + "–" + io.commitflow.generate.SubjectLength.MAX
                        + ": " + minSubjectChars);
        RetrievalGenerator.checkedReuseFloor(reuseFloor);
        tiers = Map.copyOf(tiers);
        llm = Map.copyOf(llm);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    public Tier tierOf(String tenant) {
        return tiers.getOrDefault(tenant, defaultTier);
    }

    public SuggestSettings withEngine(EngineMode e) {
        return new SuggestSettings(e, deviceBudgetMiB, maxBatch, maxWait, workers, timeout, capacity, retries, tiers,
                defaultTier, llm, maxRows, cacheTtl, fleet, fleetRows, minSubjectChars, reuseFloor);
    }

    public SuggestSettings withBatching(int batch, Duration wait) {
        return new SuggestSettings(engine, deviceBudgetMiB, batch, wait, workers, timeout, capacity, retries, tiers,
                defaultTier, llm, maxRows, cacheTtl, fleet, fleetRows, minSubjectChars, reuseFloor);
    }

    public SuggestSettings withTimeout(Duration t) {
        return new SuggestSettings(engine, deviceBudgetMiB, maxBatch, maxWait, workers, t, capacity, retries, tiers,
                defaultTier, llm, maxRows, cacheTtl, fleet, fleetRows, minSubjectChars, reuseFloor);
    }

    public SuggestSettings withLlm(Map<String, LlmSettings> byTenant) {
        return new SuggestSettings(engine, deviceBudgetMiB, maxBatch, maxWait, workers, timeout, capacity, retries, tiers,
                defaultTier, byTenant, maxRows, cacheTtl, fleet, fleetRows, minSubjectChars, reuseFloor);
    }

    public SuggestSettings withFleet(boolean on) {
        return new SuggestSettings(engine, deviceBudgetMiB, maxBatch, maxWait, workers, timeout, capacity, retries, tiers,
                defaultTier, llm, maxRows, cacheTtl, on, fleetRows, minSubjectChars, reuseFloor);
    }

    public SuggestSettings withHistory(int rows) {
        return new SuggestSettings(engine, deviceBudgetMiB, maxBatch, maxWait, workers, timeout, capacity, retries, tiers,
                defaultTier, llm, rows, cacheTtl, fleet, fleetRows, minSubjectChars, reuseFloor);
    }

    public SuggestSettings withMinSubjectChars(int chars) {
        return new SuggestSettings(engine, deviceBudgetMiB, maxBatch, maxWait, workers, timeout, capacity, retries, tiers,
                defaultTier, llm, maxRows, cacheTtl, fleet, fleetRows, chars, reuseFloor);
    }

    public SuggestSettings withReuseFloor(double floor) {
        return new SuggestSettings(engine, deviceBudgetMiB, maxBatch, maxWait, workers, timeout, capacity, retries, tiers,
                defaultTier, llm, maxRows, cacheTtl, fleet, fleetRows, minSubjectChars, floor);
    }

    /** {@code learned} with this job's floor in place of the repository's own, where the job sets one. */
    public io.commitflow.generate.Conventions conventions(io.commitflow.generate.Conventions learned) {
        return minSubjectChars == 0 ? learned : learned.withSubjectFloor(minSubjectChars);
    }
}
