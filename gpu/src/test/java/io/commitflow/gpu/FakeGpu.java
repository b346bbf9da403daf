package io.commitflow.gpu;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A device simulated in Java, for testing {@link CudaEngine}'s bookkeeping without a GPU. It behaves like CUDA where
 * the engine could get it wrong: copies and kernels wait in their stream until {@link #synchronize} (so a missing
 * wait, or host memory reused too early, shows up as wrong answers), each kernel computes only what its grid
 * covers, every access is bounds-checked, and freed memory must not be used. Kernels follow the contracts written in
 * {@code retrieval.cu}; scores are summed in index order in Java floats, as the real kernels do.
 */
final class FakeGpu implements Gpu {
    private final int least;
    private final int greatest;
    long allocated;
    long peak;
    int liveMem;
    int livePinned;
    int liveStreams;
    int launches;
    boolean closed;
    /** Fail the n-th allocation from now (device or pinned) with a GpuException, as an out-of-memory would; 0: never. */
    int failAllocation;
    /** When set, every synchronize fails with this CUDA error, as after a failed kernel launch. */
    String failSynchronize;
    /** When set, topk writes slot 0 everywhere: a kernel that runs but answers wrong. */
    boolean wrongTopk;
    /** Where the host waited, in order: {@code stream <priority>} or {@code event}. */
    final List<String> hostWaits = new ArrayList<>();
    /** Called with the stream's priority before a host wait on a stream, outside the device's lock (a slow kernel). */
    volatile java.util.function.IntConsumer beforeStreamWait = p -> { };
    /** The priority of the stream of each upload, in order. */
    final List<Integer> uploadPriorities = new ArrayList<>();

    FakeGpu(int least, int greatest) {
        this.least = least;
        this.greatest = greatest;
    }

    FakeGpu() {
        this(0, -5);
    }

    private final class FakeMem implements Mem {
        final ByteBuffer data;
        final long bytes;
        boolean freed;

        FakeMem(long bytes) {
            this.bytes = bytes;
            this.data = ByteBuffer.allocate(Math.toIntExact(bytes)).order(ByteOrder.nativeOrder());
        }

        @Override
        public long bytes() {
            return bytes;
        }

        ByteBuffer live() {
            if (freed) {
                throw new IllegalStateException("device memory used after cuMemFree");
            }
            return data;
        }
    }

    private final class FakePinned implements Pinned {
        final ByteBuffer data;
        boolean freed;

        FakePinned(long bytes) {
            data = ByteBuffer.allocateDirect(Math.toIntExact(bytes)).order(ByteOrder.nativeOrder());
        }

        @Override
        public ByteBuffer buffer() {
            return data;
        }

        @Override
        public long bytes() {
            return data.capacity();
        }
    }

    private static final class FakeStream implements Stream {
        final int priority;
        final List<Runnable> queue = new ArrayList<>();
        boolean destroyed;

        FakeStream(int priority) {
            this.priority = priority;
        }

        @Override
        public int priority() {
            return priority;
        }
    }

    /** Like cuCtxSetCurrent, binding lasts for the calling thread only; device calls without it fail. */
    private final ThreadLocal<Boolean> bound = ThreadLocal.withInitial(() -> false);

    private void open() {
        if (closed) {
            throw new IllegalStateException("the fake device is closed");
        }
        if (!bound.get()) {
            throw new GpuException("CUDA_ERROR_INVALID_CONTEXT: no context is current on thread "
                    + Thread.currentThread().getName());
        }
    }

    private void maybeFail(long bytes) {
        if (failAllocation > 0 && --failAllocation == 0) {
            throw new GpuException("cuMemAlloc(" + bytes + " bytes) failed: CUDA_ERROR_OUT_OF_MEMORY");
        }
    }

    @Override
    public synchronized void bind() {
        if (closed) {
            throw new IllegalStateException("the fake device is closed");
        }
        bound.set(true);
    }

    @Override
    public synchronized int[] streamPriorityRange() {
        open();
        return new int[] {least, greatest};
    }

    @Override
    public synchronized Stream createStream(int priority) {
        open();
        liveStreams++;
        return new FakeStream(Math.max(greatest, Math.min(least, priority))); // CUDA clamps too
    }

    @Override
    public synchronized Mem alloc(long bytes) {
        open();
        maybeFail(bytes);
        allocated += bytes;
        peak = Math.max(peak, allocated);
        liveMem++;
        return new FakeMem(bytes);
    }

    @Override
    public synchronized Pinned allocPinned(long bytes) {
        open();
        maybeFail(bytes);
        livePinned++;
        return new FakePinned(bytes);
    }

    private static FakeMem mem(Mem m) {
        return ((FakeMem) m);
    }

    private static FakeStream stream(Stream s) {
        FakeStream f = (FakeStream) s;
        if (f.destroyed) {
            throw new IllegalStateException("stream used after cuStreamDestroy");
        }
        return f;
    }

    @Override
    public synchronized void upload(Mem dst, long dstOffset, Pinned src, long srcOffset, long bytes, Stream s) {
        open();
        FakeMem d = mem(dst);
        FakePinned h = (FakePinned) src;
        checkRange(dstOffset, bytes, d.bytes);
        checkRange(srcOffset, bytes, h.bytes());
        uploadPriorities.add(stream(s).priority);
        stream(s).queue.add(() -> {
            if (h.freed) {
                throw new IllegalStateException("pinned memory used after cuMemFreeHost");
            }
            copy(h.data, (int) srcOffset, d.live(), (int) dstOffset, (int) bytes);
        });
    }

    @Override
    public synchronized void download(Pinned dst, long dstOffset, Mem src, long srcOffset, long bytes, Stream s) {
        open();
        FakeMem d = mem(src);
        FakePinned h = (FakePinned) dst;
        checkRange(srcOffset, bytes, d.bytes);
        checkRange(dstOffset, bytes, h.bytes());
        stream(s).queue.add(() -> copy(d.live(), (int) srcOffset, h.data, (int) dstOffset, (int) bytes));
    }

    private static void checkRange(long offset, long bytes, long size) {
        if (offset < 0 || bytes < 0 || offset + bytes > size) {
            throw new IllegalArgumentException("copy of " + bytes + " bytes at " + offset + " outside " + size);
        }
    }

    private static void copy(ByteBuffer from, int fromOffset, ByteBuffer to, int toOffset, int bytes) {
        for (int i = 0; i < bytes; i++) {
            to.put(toOffset + i, from.get(fromOffset + i));
        }
    }

    @Override
    public synchronized void launch(Kernel kernel, int gridX, int gridY, Stream s, Object... args) {
        open();
        kernel.check(args);
        if (gridX < 1 || gridY < 1 || gridY > 65_535) {
            throw new IllegalArgumentException("grid " + gridX + "x" + gridY + " for " + kernel.entry);
        }
        launches++;
        Object[] a = args.clone();
        stream(s).queue.add(() -> {
            if (kernel == Kernel.TOPK) {
                topk(gridX, gridY, a, wrongTopk);
            } else {
                score(kernel, gridX, gridY, a);
            }
        });
    }

    /**
     * score_few / score_narrow / score_wide: the pairs the grid covers, masked by group and stamp window, as
     * retrieval.cu; score_few writes at {@code outOff} (its last argument) past each query's start.
     */
    private static void score(Kernel kernel, int gridX, int gridY, Object[] a) {
        ByteBuffer rows = mem((Mem) a[0]).live();
        ByteBuffer rowGroup = mem((Mem) a[1]).live();
        ByteBuffer rowStamp = mem((Mem) a[2]).live();
        int n = (Integer) a[3];
        int dim = (Integer) a[4];
        ByteBuffer queries = mem((Mem) a[5]).live();
        ByteBuffer queryGroup = mem((Mem) a[6]).live();
        ByteBuffer queryFrom = mem((Mem) a[7]).live();
        ByteBuffer queryTo = mem((Mem) a[8]).live();
        int nq = (Integer) a[9];
        ByteBuffer out = mem((Mem) a[10]).live();
        long ld = (Long) a[11];
        long outOff = kernel == Kernel.SCORE_FEW ? (Long) a[12] : 0;
        int rowsCovered = Math.min(n, gridX * kernel.tileRows);
        int queriesCovered = Math.min(nq, gridY * kernel.tileQueries);
        for (int q = 0; q < queriesCovered; q++) {
            int g = queryGroup.getInt(q * 4);
            long from = queryFrom.getLong(q * 8);
            long to = queryTo.getLong(q * 8);
            for (int r = 0; r < rowsCovered; r++) {
                long stamp = rowStamp.getLong(r * 8);
                boolean valid = rowGroup.getInt(r * 4) == g && stamp >= from && stamp < to;
                float s = 0;
                for (int d = 0; d < dim; d++) {
                    s += queries.getFloat((q * dim + d) * 4) * rows.getFloat(Math.toIntExact(((long) r * dim + d) * 4));
                }
                out.putFloat(Math.toIntExact((q * ld + outOff + r) * 4), valid ? s : Float.NaN);
            }
        }
    }

    /**
     * topk: per block (query x, part y), the k best present entries of the part best first, then NaN / -1, as
     * retrieval.cu: part y of gridY takes entries [y * ceil(n / gridY), …) and writes at outOff + y * k.
     */
    private static void topk(int gridX, int gridY, Object[] a, boolean wrong) {
        ByteBuffer scores = mem((Mem) a[0]).live();
        ByteBuffer slots = mem((Mem) a[1]).live();
        boolean hasSlots = (Integer) a[2] != 0;
        long ld = (Long) a[3];
        int n = (Integer) a[4];
        int slotBase = (Integer) a[5];
        int k = (Integer) a[6];
        ByteBuffer outScores = mem((Mem) a[7]).live();
        ByteBuffer outSlots = mem((Mem) a[8]).live();
        long outLd = (Long) a[9];
        long outOff = (Long) a[10];
        if (k < 1 || k > CudaEngine.MAX_K) {
            throw new IllegalArgumentException("topk with k = " + k);
        }
        int per = (n + gridY - 1) / gridY;
        for (int block = 0; block < gridX * gridY; block++) {
            int q = block % gridX;
            int part = block / gridX;
            int begin = Math.min(n, part * per);
            int end = Math.min(n, begin + per);
            List<float[]> entries = new ArrayList<>(); // {score, slot}
            for (int i = begin; i < end; i++) {
                int at = Math.toIntExact(q * ld + i);
                float s = scores.getFloat(at * 4);
                if (Float.isNaN(s)) {
                    continue;
                }
                int slot = hasSlots ? slots.getInt(at * 4) : slotBase + i;
                entries.add(new float[] {s, Float.intBitsToFloat(slot)});
            }
            entries.sort(Comparator.<float[]>comparingDouble(e -> -e[0])
                    .thenComparingInt(e -> Float.floatToRawIntBits(e[1])));
            for (int j = 0; j < k; j++) {
                int at = Math.toIntExact(q * outLd + outOff + (long) part * k + j);
                if (j < entries.size()) {
                    outScores.putFloat(at * 4, entries.get(j)[0]);
                    outSlots.putInt(at * 4, wrong ? 0 : Float.floatToRawIntBits(entries.get(j)[1]));
                } else {
                    outScores.putFloat(at * 4, Float.NaN);
                    outSlots.putInt(at * 4, -1);
                }
            }
        }
    }

    private static final class FakeEvent implements Event {
        FakeStream stream;
        Runnable mark;
        boolean destroyed;
    }

    @Override
    public synchronized Event createEvent() {
        open();
        return new FakeEvent();
    }

    @Override
    public synchronized void record(Event e, Stream s) {
        open();
        FakeEvent f = event(e);
        f.stream = stream(s);
        f.mark = () -> { };
        f.stream.queue.add(f.mark);
    }

    @Override
    public synchronized void await(Stream s, Event e) {
        open();
        FakeEvent f = event(e);
        FakeStream waiting = stream(s);
        if (f.stream == null) {
            return; // never recorded: nothing to wait for, as in CUDA
        }
        FakeStream on = f.stream;
        Runnable mark = f.mark;
        waiting.queue.add(() -> runUntil(on, mark));
    }

    @Override
    public synchronized void synchronize(Event e) {
        open();
        hostWaits.add("event");
        FakeEvent f = event(e);
        if (f.stream != null) {
            runUntil(f.stream, f.mark);
        }
    }

    @Override
    public synchronized void destroy(Event e) {
        open();
        event(e).destroyed = true;
    }

    private static FakeEvent event(Event e) {
        FakeEvent f = (FakeEvent) e;
        if (f.destroyed) {
            throw new IllegalStateException("event used after cuEventDestroy");
        }
        return f;
    }

    /** Runs {@code on}'s queued work up to {@code mark}, if it is still queued. */
    private static void runUntil(FakeStream on, Runnable mark) {
        while (on.queue.contains(mark)) {
            on.queue.remove(0).run();
        }
    }

    @Override
    public void synchronize(Stream s) {
        beforeStreamWait.accept(s.priority());
        List<Runnable> work;
        synchronized (this) {
            hostWaits.add("stream " + s.priority());
            open();
            if (failSynchronize != null) {
                throw new GpuException("cuStreamSynchronize failed: " + failSynchronize);
            }
            FakeStream f = stream(s);
            work = new ArrayList<>(f.queue);
            f.queue.clear();
            work.forEach(Runnable::run);
        }
    }

    @Override
    public synchronized void free(Mem m) {
        open();
        FakeMem f = mem(m);
        if (f.freed) {
            throw new IllegalStateException("double cuMemFree");
        }
        f.freed = true;
        allocated -= f.bytes;
        liveMem--;
    }

    @Override
    public synchronized void free(Pinned p) {
        open();
        FakePinned f = (FakePinned) p;
        if (f.freed) {
            throw new IllegalStateException("double cuMemFreeHost");
        }
        f.freed = true;
        livePinned--;
    }

    @Override
    public synchronized void destroy(Stream s) {
        open();
        FakeStream f = stream(s);
        f.destroyed = true;
        liveStreams--;
    }

    @Override
    public synchronized void close() {
        closed = true;
    }

    @Override
    public synchronized String toString() {
        return "FakeGpu" + Arrays.asList(allocated, liveMem, livePinned, liveStreams);
    }
}
