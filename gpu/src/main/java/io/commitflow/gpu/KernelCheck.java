package io.commitflow.gpu;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The probe's last step: one tiny launch of the engine's own {@code topk} kernel, whose answer is checked. A module
 * that loads can still fail to launch (a driver that JIT-compiles the PTX but cannot run it, no free context, a
 * device in exclusive mode held by another process); the probe reports a GPU only after this works.
 */
final class KernelCheck {
    /** Scores of four slots, one masked (NaN), so the top 2 is slot 2 (0.75) then slot 0 (0.5). */
    private static final float[] SCORES = {0.5f, Float.NaN, 0.75f, 0.25f};
    private static final int K = 2;

    private KernelCheck() {
    }

    /**
     * Launches {@code topk} over four scores on a new stream and checks the two slots and scores it returns; throws
     * {@link GpuException} when the launch fails or the answer is wrong. Frees everything it took.
     */
    static void run(Gpu gpu) {
        gpu.bind();
        Gpu.Stream stream = gpu.createStream(gpu.streamPriorityRange()[0]);
        Gpu.Pinned host = null;
        Gpu.Mem scores = null;
        Gpu.Mem outScores = null;
        Gpu.Mem outSlots = null;
        try {
            host = gpu.allocPinned(SCORES.length * Float.BYTES);
            scores = gpu.alloc(SCORES.length * Float.BYTES);
            outScores = gpu.alloc(K * Float.BYTES);
            outSlots = gpu.alloc(K * Integer.BYTES);
            ByteBuffer b = host.buffer();
            for (int i = 0; i < SCORES.length; i++) {
                b.putFloat(i * Float.BYTES, SCORES[i]);
            }
            gpu.upload(scores, 0, host, 0, SCORES.length * Float.BYTES, stream);
            // the slots argument is unused (hasSlots = 0): any device pointer will do
            gpu.launch(Kernel.TOPK, 1, 1, stream, scores, scores, 0, (long) SCORES.length, SCORES.length, 0, K,
                    outScores, outSlots, (long) K, 0L);
            gpu.download(host, 0, outScores, 0, K * Float.BYTES, stream);
            gpu.download(host, K * Float.BYTES, outSlots, 0, K * Integer.BYTES, stream);
            gpu.synchronize(stream);
            float[] gotScores = {b.getFloat(0), b.getFloat(Float.BYTES)};
            int[] gotSlots = {b.getInt(2 * Float.BYTES), b.getInt(2 * Float.BYTES + Integer.BYTES)};
            if (!Arrays.equals(gotSlots, new int[] {2, 0}) || !Arrays.equals(gotScores, new float[] {0.75f, 0.5f})) {
                throw new GpuException("the topk kernel's test launch answered slots " + Arrays.toString(gotSlots)
                        + " scores " + Arrays.toString(gotScores) + " instead of [2, 0] [0.75, 0.5]");
            }
        } finally {
            freeQuietly(gpu, outSlots);
            freeQuietly(gpu, outScores);
            freeQuietly(gpu, scores);
            if (host != null) {
                Gpu.Pinned h = host;
                quietly(() -> gpu.free(h));
            }
            quietly(() -> gpu.destroy(stream));
        }
    }

    private static void freeQuietly(Gpu gpu, Gpu.Mem m) {
        if (m != null) {
            quietly(() -> gpu.free(m));
        }
    }

    /** A failed free must not hide why the check failed (after a launch failure every later call fails too). */
    private static void quietly(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            // the check's own exception, if any, says what went wrong
        }
    }
}
