package io.commitflow.suggest;

import io.commitflow.generate.FeatureSpace;
import io.commitflow.gpu.CpuEngine;
import io.commitflow.gpu.EngineFullException;
import io.commitflow.gpu.ForwardingEngine;
import io.commitflow.gpu.Neighbors;
import io.commitflow.gpu.RetrievalEngine;
import io.commitflow.gpu.Tier;

import java.util.concurrent.atomic.AtomicInteger;

/** CPU engines with a fault of a real device: searches that fail, a budget that fills. */
final class TestEngines {
    private TestEngines() {}

    /**
     * A CPU engine whose searches fail while {@code failures} is positive, each failure counting it down, with an
     * error a retry can get past (out of resources for this launch).
     */
    static RetrievalEngine flaky(AtomicInteger failures, AtomicInteger failed) {
        return failing(failures, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (injected)", failed, new AtomicInteger());
    }

    /**
     * A CPU engine whose searches fail with a sticky error (the context is corrupt: every later call would fail)
     * while {@code failures} is positive; {@code calls} counts the searches that reached it.
     */
    static RetrievalEngine sticky(AtomicInteger failures, AtomicInteger calls) {
        return failing(failures, "CUDA_ERROR_ILLEGAL_ADDRESS (injected)", new AtomicInteger(), calls);
    }

    /** Searches fail with {@code error} while {@code failures} is positive; counts the failed ones and all of them. */
    private static RetrievalEngine failing(AtomicInteger failures, String error, AtomicInteger failed,
                                           AtomicInteger calls) {
        return new Delegating(new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            @Override
            public Neighbors[] search(Tier tier, int[] groups, long[] from, long[] to, float[][] queries, int k) {
                calls.incrementAndGet();
                if (failures.getAndDecrement() > 0) {
                    failed.incrementAndGet();
                    throw new IllegalStateException(error);
                }
                return super.search(tier, groups, from, to, queries, k);
            }
        };
    }

    /** A CPU engine whose answers name a slot that holds no row, as a corrupted device buffer would. */
    static RetrievalEngine corrupt() {
        return new Delegating(new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            @Override
            public Neighbors[] search(Tier tier, int[] groups, long[] from, long[] to, float[][] queries, int k) {
                Neighbors[] out = new Neighbors[queries.length];
                java.util.Arrays.fill(out, new Neighbors(new int[] {1 << 30}, new float[] {1f}));
                return out;
            }
        };
    }

    /** A CPU engine that holds at most {@code rows} rows, as a device budget does, and says so as a CUDA engine does. */
    static RetrievalEngine capped(int rows) {
        return new Delegating(new CpuEngine(FeatureSpace.DEFAULT_DIMENSION)) {
            @Override
            public int add(int group, long stamp, float[] vector) {
                if (size() >= rows) {
                    throw new EngineFullException("the test's budget of " + rows + " rows is full");
                }
                return super.add(group, stamp, vector);
            }

            @Override
            public long capacity() {
                return rows;
            }
        };
    }

    private static class Delegating extends ForwardingEngine {
        Delegating(RetrievalEngine inner) {
            super(inner);
        }
    }
}
