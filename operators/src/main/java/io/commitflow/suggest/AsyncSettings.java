package io.commitflow.suggest;

import io.commitflow.gpu.EngineMode;
import io.commitflow.gpu.Tier;

import java.io.Serializable;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How the suggest stage runs its retrieval: which engine, how requests are batched, and how long one may take.
 *
 * @param engine         {@code AUTO} (CUDA where a GPU and driver load, else CPU), {@code CPU} or {@code CUDA}
 * @param deviceBudgetMiB device memory one task's CUDA engine may use (rows and scratch)
 * @param maxBatch       the most requests in one engine call
 * @param maxWait        how long a request waits for its batch to fill
 * @param workers        threads per task answering batches (each tier's batch can run on its own CUDA stream)
 * @param timeout        after this, a request is answered by the exact CPU scan in the task thread
 * @param capacity       requests in flight per task (Flink's async capacity; beyond it the stage back-pressures)
 * @param retries        engine calls retried after a failure before the CPU scan answers
 * @param tiers          tenant → priority tier; tenants not named are {@code defaultTier}
 * @param defaultTier    the tier of tenants not named
 * @param llm            tenant → the LLM endpoint that writes its messages; tenants not named get the built-in generator
 */
public record AsyncSettings(EngineMode engine, long deviceBudgetMiB, int maxBatch, Duration maxWait, int workers,
                            Duration timeout, int capacity, int retries, Map<String, Tier> tiers, Tier defaultTier,
                            Map<String, io.commitflow.llm.LlmSettings> llm)
        implements Serializable {

    public static final AsyncSettings DEFAULT = new AsyncSettings(EngineMode.AUTO, 8192, 256, Duration.ofMillis(5), 2,
            Duration.ofSeconds(5), 1024, 2, Map.of(), Tier.SILVER, Map.of());

    public AsyncSettings {
        Objects.requireNonNull(engine, "engine");
        require(deviceBudgetMiB >= 1, "device budget must be at least 1 MiB: " + deviceBudgetMiB);
        require(maxBatch >= 1, "max batch must be at least 1: " + maxBatch);
        require(!maxWait.isNegative(), "max wait must not be negative: " + maxWait);
        require(workers >= 1, "workers must be at least 1: " + workers);
        require(timeout.toMillis() >= 1, "timeout must be at least 1 ms: " + timeout);
        require(capacity >= 1, "capacity must be at least 1: " + capacity);
        require(retries >= 0, "retries must not be negative: " + retries);
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

    public AsyncSettings withEngine(EngineMode e) {
        return new AsyncSettings(e, deviceBudgetMiB, maxBatch, maxWait, workers, timeout, capacity, retries, tiers, defaultTier, llm);
    }

    public AsyncSettings withBatching(int batch, Duration wait) {
        return new AsyncSettings(engine, deviceBudgetMiB, batch, wait, workers, timeout, capacity, retries, tiers, defaultTier, llm);
    }

    public AsyncSettings withTimeout(Duration t) {
        return new AsyncSettings(engine, deviceBudgetMiB, maxBatch, maxWait, workers, t, capacity, retries, tiers, defaultTier, llm);
    }

    public AsyncSettings withLlm(Map<String, io.commitflow.llm.LlmSettings> byTenant) {
        return new AsyncSettings(engine, deviceBudgetMiB, maxBatch, maxWait, workers, timeout, capacity, retries, tiers,
                defaultTier, byTenant);
    }
}
