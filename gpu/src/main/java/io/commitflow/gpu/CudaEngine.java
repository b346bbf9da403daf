package io.commitflow.gpu;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The retrieval engine on an NVIDIA GPU (CUDA driver API through JCuda, kernels from {@code retrieval.cu}). Answers
 * exactly as {@link CpuEngine}: the same slots, the same scores bit for bit, the same order (see the kernels' notes).
 *
 * <p>Rows live on the device in chunks of {@link Options#chunkRows} rows (fp32 rows, int32 groups, int64 stamps),
 * allocated as the engine grows, never moved; when the budget holds no further chunk, {@link #add} throws
 * {@link EngineFullException}. {@link #add} and {@link #remove} write host memory (a pinned staging buffer for rows,
 * pinned mirrors of groups and stamps); an add touches the device only to allocate a chunk or, when the staging
 * buffer is full, to upload it. Each search first uploads what changed, then runs on its tier's prioritised stream:
 * per chunk a score kernel and a top-k kernel keep the k best of that chunk per query (several blocks per query, each
 * over a part of the chunk, when the batch is small); a pass of at most 8 queries instead scores every chunk into one
 * matrix and selects from all of it with one top-k launch ({@link SmallBatchPath#FEW}). Then one top-k kernel merges
 * the candidates, and only k slots and scores per query come back.
 *
 * <p>Threads: searches may run concurrently (each tier has its own stream, scratch and lock; two searches of the same
 * tier take turns); {@link #add}, {@link #remove} and {@link #close} must run alone, as {@link RetrievalEngine} says.
 * The device's primary context is shared by every engine in the JVM and made current on each calling thread.
 *
 * <pre>{@code
 * try (RetrievalEngine e = new CudaEngine(1024, 8L << 30)) {   // 8 GiB of device memory: 2.0 million rows
 *     int slot = e.add(group, stamp, unitVector);
 *     Neighbors[] nn = e.search(Tier.GOLD, groups, from, to, queries, 10);
 * }
 * }</pre>
 */
public final class CudaEngine implements RetrievalEngine {
    /** The most neighbours one query may ask for. */
    public static final int MAX_K = 64;
    /** The stamp of a free slot on the device: no window {@code [from, to)} holds it, as {@code to <= Long.MAX_VALUE}. */
    static final long DEAD_STAMP = Long.MAX_VALUE;
    /** The group of a free slot on the device (for readers of a memory dump; the stamp alone hides the row). */
    static final int DEAD_GROUP = Integer.MIN_VALUE;
    /** The fewest entries one top-k block takes from a chunk when a small batch is split (8 loads of 128 threads). */
    static final int TOPK_PART_ROWS = 1024;
    /** The most top-k blocks per query and chunk. */
    static final int MAX_TOPK_PARTS = 64;
    /** About this many top-k blocks select from a small batch's whole score matrix (spread over the SMs). */
    static final int WHOLE_TOPK_BLOCKS = 256;
    /** The system property that picks the default {@link SmallBatchPath}: {@code few} or {@code narrow}. */
    public static final String SMALL_BATCH_PATH_PROPERTY = "commitflow.gpu.smallBatchPath";

    private static final Logger LOG = LoggerFactory.getLogger(CudaEngine.class);
    private static final AtomicBoolean PRIORITIES_LOGGED = new AtomicBoolean();

    /**
     * How a pass of at most 8 queries is scored and selected. Both answer exactly alike (the same sums in the same
     * order); they differ in speed only. Larger passes always use {@code score_wide} and a top-k per chunk.
     */
    public enum SmallBatchPath {
        /**
         * {@code score_few} (one row per thread, the rows' bytes kept in flight, no padded queries) into one score
         * matrix for all chunks when the scratch holds it, then one top-k launch over all of it: the default.
         */
        FEW,
        /** {@code score_narrow} (8 queries per thread, padded) and a top-k per chunk: the engine's first kernels. */
        NARROW;

        /** The path named by the system property {@value #SMALL_BATCH_PATH_PROPERTY}, {@link #FEW} without it. */
        public static SmallBatchPath fromSystemProperty() {
            return parse(System.getProperty(SMALL_BATCH_PATH_PROPERTY, "few"));
        }

        /** {@code few} or {@code narrow}, in any case. */
        public static SmallBatchPath parse(String name) {
            for (SmallBatchPath p : values()) {
                if (p.label().equalsIgnoreCase(name.trim())) {
                    return p;
                }
            }
            throw new IllegalArgumentException("a small-batch path is few or narrow, not '" + name + "'");
        }

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * Sizes of a CUDA engine.
     *
     * @param budgetBytes    device memory for row chunks and the three tiers' search scratch
     * @param chunkRows      rows per device chunk
     * @param batchQueries   queries per kernel pass; larger batches are split
     * @param stagingRows    rows added between two uploads at most (an add beyond uploads at once)
     * @param smallBatchPath how passes of at most 8 queries run
     */
    public record Options(long budgetBytes, int chunkRows, int batchQueries, int stagingRows,
                          SmallBatchPath smallBatchPath) {
        public static final int DEFAULT_CHUNK_ROWS = 65_536;
        public static final int DEFAULT_BATCH_QUERIES = 256;
        public static final int DEFAULT_STAGING_ROWS = 1024;

        public Options {
            if (budgetBytes < 1 || chunkRows < 1 || batchQueries < 1 || stagingRows < 1) {
                throw new IllegalArgumentException("CUDA engine sizes must be positive: " + budgetBytes + " bytes, "
                        + chunkRows + " rows per chunk, " + batchQueries + " queries per pass, " + stagingRows
                        + " staged rows");
            }
            Objects.requireNonNull(smallBatchPath, "smallBatchPath");
        }

        /** These sizes, with the small-batch path of {@link SmallBatchPath#fromSystemProperty()}. */
        public Options(long budgetBytes, int chunkRows, int batchQueries, int stagingRows) {
            this(budgetBytes, chunkRows, batchQueries, stagingRows, SmallBatchPath.fromSystemProperty());
        }

        /** The default sizes within {@code budgetBytes}. */
        public static Options of(long budgetBytes) {
            return new Options(budgetBytes, DEFAULT_CHUNK_ROWS, DEFAULT_BATCH_QUERIES, DEFAULT_STAGING_ROWS);
        }

        public Options withChunkRows(int rows) {
            return new Options(budgetBytes, rows, batchQueries, stagingRows, smallBatchPath);
        }

        public Options withBatchQueries(int queries) {
            return new Options(budgetBytes, chunkRows, queries, stagingRows, smallBatchPath);
        }

        public Options withStagingRows(int rows) {
            return new Options(budgetBytes, chunkRows, batchQueries, rows, smallBatchPath);
        }

        public Options withSmallBatchPath(SmallBatchPath path) {
            return new Options(budgetBytes, chunkRows, batchQueries, stagingRows, path);
        }
    }

    private final Gpu gpu;
    private final int dim;
    private final Options options;
    private final DeviceBudget budget;
    private final int maxChunks;
    private final Map<Tier, Lane> lanes = new EnumMap<>(Tier.class);
    private final Map<Tier, Integer> priorities = new EnumMap<>(Tier.class);
    private final int[] priorityRange;
    /** Guards the slot bookkeeping, the staging buffer and the upload stream. */
    private final ReentrantLock engineLock = new ReentrantLock();

    private Gpu.Stream uploadStream;
    /** Recorded on the upload stream after each flush's copies: searches wait for it on the device. */
    private Gpu.Event uploaded;
    /** A flush's copies may still read the staging buffer or the chunks' host mirrors. */
    private boolean uploadInFlight;
    private boolean uploadRecorded;
    private final List<Chunk> chunks = new ArrayList<>();
    private Gpu.Pinned staging;
    private FloatBuffer stagingFloats;
    private final int[] stagedSlot;
    private int staged;
    private boolean[] live = new boolean[0];
    private int slots;
    private int size;
    private final IntStack free = new IntStack();
    private volatile boolean closed;
    private volatile SmallBatchPath smallBatchPath;

    /** An engine on the first GPU with the default {@link Options} within {@code budgetBytes} of device memory. */
    public CudaEngine(int dimension, long budgetBytes) {
        this(dimension, Options.of(budgetBytes));
    }

    public CudaEngine(int dimension, Options options) {
        this(openDevice(dimension, options), dimension, options);
    }

    /** Takes {@code gpu} over: closing the engine (or a failed construction) closes it. */
    CudaEngine(Gpu gpu, int dimension, Options options) {
        this.gpu = gpu;
        try {
            checkSizes(dimension, options);
            this.dim = dimension;
            this.options = options;
            this.smallBatchPath = options.smallBatchPath();
            this.budget = new DeviceBudget(dimension, options.chunkRows(), options.batchQueries(), options.budgetBytes());
            this.maxChunks = budget.maxChunks();
            if (maxChunks < 1) {
                throw new IllegalArgumentException("a device budget of " + DeviceBudget.mib(options.budgetBytes())
                        + " cannot hold the search scratch and one chunk of " + options.chunkRows() + " rows of "
                        + dimension + " floats: it needs at least " + DeviceBudget.mib(budget.minimumBytes()));
            }
            this.stagedSlot = new int[options.stagingRows()];
            gpu.bind();
            priorityRange = gpu.streamPriorityRange();
            uploadStream = gpu.createStream(priorityRange[0]);
            uploaded = gpu.createEvent();
            for (Tier t : Tier.values()) {
                Gpu.Stream s = gpu.createStream(streamPriority(t.cudaLevel, priorityRange[0], priorityRange[1]));
                lanes.put(t, new Lane(s));
                priorities.put(t, s.priority());
            }
            staging = gpu.allocPinned((long) options.stagingRows() * dimension * Float.BYTES);
            stagingFloats = staging.buffer().asFloatBuffer();
        } catch (RuntimeException | Error e) {
            release();
            throw e;
        }
        if (PRIORITIES_LOGGED.compareAndSet(false, true)) {
            LOG.info("CUDA stream priorities: gold {}, silver {}, bronze {} (device range: least {}, greatest {})",
                    priorities.get(Tier.GOLD), priorities.get(Tier.SILVER), priorities.get(Tier.BRONZE),
                    priorityRange[0], priorityRange[1]);
        }
        LOG.info("CUDA engine: {} floats per row, {} rows per chunk, at most {} rows in {}",
                dim, options.chunkRows(), budget.maxRows(), DeviceBudget.mib(options.budgetBytes()));
    }

    private static Gpu openDevice(int dimension, Options options) {
        checkSizes(dimension, options);
        return JCudaGpu.open(0);
    }

    /** Host buffers are Java buffers: each must stay below 2 GiB. */
    private static void checkSizes(int dimension, Options o) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be positive: " + dimension);
        }
        long biggest = Math.max(Math.max((long) o.stagingRows() * dimension, (long) o.batchQueries() * dimension),
                Math.max((long) o.batchQueries() * MAX_K, o.chunkRows())) * Long.BYTES;
        if (biggest > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a host buffer of " + biggest + " bytes is too large: lower the "
                    + "staging rows, the queries per pass or the chunk rows (" + o + ")");
        }
    }

    /**
     * The stream priority for a tier's {@link Tier#cudaLevel} (gold −1, silver 0, bronze 1) in a device whose
     * priorities run from {@code least} (usually 0) down to {@code greatest} (negative): bronze gets the least, silver
     * one more, gold two more, clamped to the range. On a range of three or more levels the tiers get three distinct,
     * ordered priorities; on {@code [0, -1]} gold and silver share one; on {@code [0, 0]} all share it.
     */
    static int streamPriority(int level, int least, int greatest) {
        int p = least + level - 1;
        return Math.max(greatest, Math.min(least, p));
    }

    @Override
    public String name() {
        return "cuda";
    }

    @Override
    public int dimension() {
        return dim;
    }

    @Override
    public int size() {
        engineLock.lock();
        try {
            return size;
        } finally {
            engineLock.unlock();
        }
    }

    /** The priority each tier's stream runs at, as the device reports it. */
    public Map<Tier, Integer> streamPriorities() {
        return Collections.unmodifiableMap(priorities);
    }

    /** How passes of at most 8 queries run now: {@link Options#smallBatchPath()} unless changed since. */
    public SmallBatchPath smallBatchPath() {
        return smallBatchPath;
    }

    /**
     * Runs later passes of at most 8 queries on {@code path}: for benchmarks and tests that compare the two paths on
     * the same rows. Both answer alike; a search already running keeps the path it started with.
     */
    public void smallBatchPath(SmallBatchPath path) {
        smallBatchPath = Objects.requireNonNull(path, "path");
    }

    /** The most rows this engine's budget holds. */
    public long maxRows() {
        return budget.maxRows();
    }

    /** {@link #maxRows()}: beyond it {@link #add} throws {@link EngineFullException}. */
    @Override
    public long capacity() {
        return maxRows();
    }

    @Override
    public int add(int group, long stamp, float[] vector) {
        EngineArguments.checkVector(dim, vector);
        engineLock.lock();
        try {
            ensureOpen();
            if (staged == stagedSlot.length) {
                flushLocked(); // first, so that a failure leaves the slots as they were
            }
            awaitUploadLocked(); // the staging buffer and the mirrors are about to change
            int slot;
            if (free.isEmpty()) {
                slot = slots;
                if (slot / options.chunkRows() >= chunks.size()) {
                    addChunk();
                }
                slots++;
                if (slot >= live.length) {
                    live = Arrays.copyOf(live, Math.max(1024, live.length * 2));
                }
            } else {
                slot = free.pop();
            }
            stagingFloats.put(staged * dim, vector);
            stagedSlot[staged++] = slot;
            chunks.get(slot / options.chunkRows()).set(slot % options.chunkRows(), group, stamp);
            live[slot] = true;
            size++;
            return slot;
        } catch (GpuException e) {
            throw new GpuException("adding a row to the CUDA engine failed: " + e.getMessage(), e);
        } finally {
            engineLock.unlock();
        }
    }

    private void addChunk() {
        if (chunks.size() >= maxChunks) {
            throw new EngineFullException("device memory budget of " + DeviceBudget.mib(options.budgetBytes())
                    + " is full at " + slots + " rows (" + maxChunks + " chunks of " + options.chunkRows()
                    + " rows of " + dim + " floats, plus " + DeviceBudget.mib(DeviceBudget.LANES * budget.laneBytes())
                    + " of search scratch); raise the device memory budget or use the CPU engine");
        }
        gpu.bind();
        chunks.add(new Chunk());
    }

    @Override
    public void remove(int slot) {
        engineLock.lock();
        try {
            ensureOpen();
            if (slot < 0 || slot >= slots || !live[slot]) {
                throw new IllegalArgumentException("no row in slot " + slot);
            }
            awaitUploadLocked();
            live[slot] = false;
            chunks.get(slot / options.chunkRows()).set(slot % options.chunkRows(), DEAD_GROUP, DEAD_STAMP);
            free.push(slot);
            size--;
        } finally {
            engineLock.unlock();
        }
    }

    @Override
    public Neighbors[] search(Tier tier, int[] groups, long[] from, long[] to, float[][] queries, int k) {
        EngineArguments.checkSearch(dim, groups, from, to, queries);
        if (k > MAX_K) {
            throw new IllegalArgumentException("k = " + k + " is more than the CUDA engine's " + MAX_K
                    + " neighbours per query; ask for fewer or use the CPU engine");
        }
        Objects.requireNonNull(tier, "tier");
        Neighbors[] out = new Neighbors[queries.length];
        if (k < 1 || queries.length == 0) {
            Arrays.fill(out, new Neighbors(new int[0], new float[0]));
            return out;
        }
        try {
            Chunk[] snapshot;
            int slotCount;
            Lane lane = lanes.get(tier);
            boolean awaitUpload;
            engineLock.lock();
            try {
                ensureOpen();
                gpu.bind();
                // rows still staged are queued on the upload stream, which holds nothing but copies; the engine lock
                // is held only while they are queued, never while they or any search run
                flushLocked();
                awaitUpload = uploadRecorded;
                snapshot = chunks.toArray(new Chunk[0]);
                slotCount = slots;
            } finally {
                engineLock.unlock();
            }
            if (slotCount == 0) {
                Arrays.fill(out, new Neighbors(new int[0], new float[0]));
                return out;
            }
            lane.lock.lock();
            try {
                ensureOpen();
                lane.allocate();
                if (awaitUpload) {
                    // on the device: this tier's kernels start once the rows are up, and the host never waits for
                    // another tier's copies or kernels
                    gpu.await(lane.stream, uploaded);
                }
                SmallBatchPath path = smallBatchPath;
                for (int start = 0; start < queries.length; start += options.batchQueries()) {
                    int n = Math.min(options.batchQueries(), queries.length - start);
                    lane.run(snapshot, slotCount, groups, from, to, queries, start, n, k, path, out);
                }
            } finally {
                lane.lock.unlock();
            }
            return out;
        } catch (GpuException e) {
            throw new GpuException("a search of " + queries.length + " queries on the " + tier.label()
                    + " stream failed: " + e.getMessage(), e);
        }
    }

    /**
     * Queues the upload of the staged rows and the chunks' changed groups and stamps on the upload stream and records
     * {@link #uploaded} after them; nothing waits here. Call with the engine lock.
     */
    private void flushLocked() {
        if (staged == 0 && chunks.stream().allMatch(ch -> ch.dirtyTo < 0)) {
            return;
        }
        gpu.bind(); // an add may come from a thread that has not used the device yet
        awaitUploadLocked(); // one flush in flight at a time: the staging buffer is read until its copy ends
        int rowBytes = dim * Float.BYTES;
        int c = options.chunkRows();
        for (int i = 0; i < staged; ) {
            int slot = stagedSlot[i];
            int j = i + 1;
            // consecutive slots of one chunk staged one after another go in one copy (a rebuild adds them so)
            while (j < staged && stagedSlot[j] == slot + (j - i) && (slot + (j - i)) % c != 0) {
                j++;
            }
            gpu.upload(chunks.get(slot / c).rows, (long) (slot % c) * rowBytes, staging, (long) i * rowBytes,
                    (long) (j - i) * rowBytes, uploadStream);
            i = j;
        }
        for (Chunk chunk : chunks) {
            chunk.flush(uploadStream);
        }
        gpu.record(uploaded, uploadStream);
        uploadInFlight = true;
        uploadRecorded = true;
        staged = 0;
    }

    /**
     * Waits on the host for the last flush's copies, which read the staging buffer and the host mirrors, before they
     * change. Adds and removes run alone, after the searches that waited for those copies on the device, so this is
     * usually already done. Call with the engine lock.
     */
    private void awaitUploadLocked() {
        if (uploadInFlight) {
            gpu.bind();
            gpu.synchronize(uploaded);
            uploadInFlight = false;
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the CUDA engine is closed");
        }
    }

    @Override
    public void close() {
        engineLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
        } finally {
            engineLock.unlock();
        }
        for (Lane lane : lanes.values()) {
            lane.lock.lock(); // waits for a search in flight
            lane.lock.unlock();
        }
        release();
    }

    /** Frees whatever exists; keeps going past failures so that the context is released in any case. */
    private void release() {
        try {
            gpu.bind();
        } catch (RuntimeException e) {
            LOG.warn("CUDA engine: could not make the context current to free memory: {}", e.getMessage());
        }
        if (uploaded != null) {
            Gpu.Event e = uploaded;
            if (uploadInFlight) {
                quietly(() -> gpu.synchronize(e)); // copies may still read the host buffers freed below
            }
            quietly(() -> gpu.destroy(e));
            uploaded = null;
        }
        for (Lane lane : lanes.values()) {
            quietly(lane::free);
        }
        for (Chunk chunk : chunks) {
            quietly(chunk::free);
        }
        chunks.clear();
        if (staging != null) {
            Gpu.Pinned p = staging;
            quietly(() -> gpu.free(p));
            staging = null;
        }
        if (uploadStream != null) {
            Gpu.Stream s = uploadStream;
            quietly(() -> gpu.destroy(s));
            uploadStream = null;
        }
        quietly(gpu::close);
    }

    private static void quietly(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.warn("CUDA engine: freeing device resources failed: {}", e.getMessage());
        }
    }

    /** One chunk of rows on the device, with pinned host mirrors of its groups and stamps. */
    private final class Chunk {
        final Gpu.Mem rows;
        final Gpu.Mem groups;
        final Gpu.Mem stamps;
        final Gpu.Pinned hostGroups;
        final Gpu.Pinned hostStamps;
        final IntBuffer groupView;
        final LongBuffer stampView;
        /** Rows whose group or stamp changed since the last upload: [dirtyFrom, dirtyTo]. */
        int dirtyFrom = Integer.MAX_VALUE;
        int dirtyTo = -1;

        Chunk() {
            int c = options.chunkRows();
            List<Runnable> undo = new ArrayList<>();
            try {
                rows = track(gpu.alloc((long) c * dim * Float.BYTES), undo);
                groups = track(gpu.alloc((long) c * Integer.BYTES), undo);
                stamps = track(gpu.alloc((long) c * Long.BYTES), undo);
                hostGroups = gpu.allocPinned((long) c * Integer.BYTES);
                undo.add(() -> gpu.free(hostGroups));
                hostStamps = gpu.allocPinned((long) c * Long.BYTES);
            } catch (RuntimeException e) {
                undo.forEach(CudaEngine::quietly);
                throw e;
            }
            groupView = hostGroups.buffer().asIntBuffer();
            stampView = hostStamps.buffer().asLongBuffer();
            for (int i = 0; i < c; i++) {
                groupView.put(i, DEAD_GROUP);
                stampView.put(i, DEAD_STAMP);
            }
        }

        private Gpu.Mem track(Gpu.Mem m, List<Runnable> undo) {
            undo.add(() -> gpu.free(m));
            return m;
        }

        void set(int row, int group, long stamp) {
            groupView.put(row, group);
            stampView.put(row, stamp);
            dirtyFrom = Math.min(dirtyFrom, row);
            dirtyTo = Math.max(dirtyTo, row);
        }

        /** Queues the upload of the changed groups and stamps; says whether there were any. */
        boolean flush(Gpu.Stream stream) {
            if (dirtyTo < 0) {
                return false;
            }
            long n = dirtyTo - dirtyFrom + 1;
            gpu.upload(groups, (long) dirtyFrom * Integer.BYTES, hostGroups, (long) dirtyFrom * Integer.BYTES,
                    n * Integer.BYTES, stream);
            gpu.upload(stamps, (long) dirtyFrom * Long.BYTES, hostStamps, (long) dirtyFrom * Long.BYTES,
                    n * Long.BYTES, stream);
            dirtyFrom = Integer.MAX_VALUE;
            dirtyTo = -1;
            return true;
        }

        void free() {
            gpu.free(rows);
            gpu.free(groups);
            gpu.free(stamps);
            gpu.free(hostGroups);
            gpu.free(hostStamps);
        }
    }

    /** One tier's stream and search scratch, allocated on its first search (the budget reserved it already). */
    private final class Lane {
        final Gpu.Stream stream;
        final ReentrantLock lock = new ReentrantLock();
        final List<Runnable> frees = new ArrayList<>();
        Gpu.Mem queries;
        Gpu.Mem queryGroups;
        Gpu.Mem queryFrom;
        Gpu.Mem queryTo;
        Gpu.Mem scores;
        Gpu.Mem candidateScores;
        Gpu.Mem candidateSlots;
        Gpu.Mem answerScores;
        Gpu.Mem answerSlots;
        Gpu.Pinned pinnedQueries;
        Gpu.Pinned pinnedGroups;
        Gpu.Pinned pinnedFrom;
        Gpu.Pinned pinnedTo;
        FloatBuffer hostQueries;
        IntBuffer hostGroups;
        LongBuffer hostFrom;
        LongBuffer hostTo;
        Gpu.Pinned hostAnswerScores;
        Gpu.Pinned hostAnswerSlots;
        float[] answerScoresCopy;
        int[] answerSlotsCopy;

        Lane(Gpu.Stream stream) {
            this.stream = stream;
        }

        /**
         * Allocates the lane's buffers once. A failure part-way frees what this call took and leaves the lane as it
         * was, so the next search tries again from nothing and device use never grows past the budget.
         */
        void allocate() {
            if (answerSlotsCopy != null) {
                return;
            }
            int before = frees.size();
            try {
                allocateAll();
            } catch (RuntimeException e) {
                for (int i = frees.size() - 1; i >= before; i--) {
                    quietly(frees.remove(i));
                }
                answerScoresCopy = null;
                answerSlotsCopy = null;
                throw e;
            }
        }

        private void allocateAll() {
            long b = options.batchQueries();
            queries = device(b * dim * Float.BYTES);
            queryGroups = device(b * Integer.BYTES);
            queryFrom = device(b * Long.BYTES);
            queryTo = device(b * Long.BYTES);
            scores = device(b * options.chunkRows() * Float.BYTES);
            candidateScores = device(b * maxChunks * MAX_K * Float.BYTES);
            candidateSlots = device(b * maxChunks * MAX_K * Integer.BYTES);
            answerScores = device(b * MAX_K * Float.BYTES);
            answerSlots = device(b * MAX_K * Integer.BYTES);
            pinnedQueries = pinned(b * dim * Float.BYTES);
            pinnedGroups = pinned(b * Integer.BYTES);
            pinnedFrom = pinned(b * Long.BYTES);
            pinnedTo = pinned(b * Long.BYTES);
            hostQueries = pinnedQueries.buffer().asFloatBuffer();
            hostGroups = pinnedGroups.buffer().asIntBuffer();
            hostFrom = pinnedFrom.buffer().asLongBuffer();
            hostTo = pinnedTo.buffer().asLongBuffer();
            hostAnswerScores = pinned(b * MAX_K * Float.BYTES);
            hostAnswerSlots = pinned(b * MAX_K * Integer.BYTES);
            answerScoresCopy = new float[(int) b * MAX_K];
            answerSlotsCopy = new int[(int) b * MAX_K];
        }

        private Gpu.Mem device(long bytes) {
            Gpu.Mem m = gpu.alloc(bytes);
            frees.add(() -> gpu.free(m));
            return m;
        }

        private Gpu.Pinned pinned(long bytes) {
            Gpu.Pinned p = gpu.allocPinned(bytes);
            frees.add(() -> gpu.free(p));
            return p;
        }

        /** Answers queries[start, start + n) into out; n is at most the batch of one pass. */
        void run(Chunk[] rowChunks, int slotCount, int[] groups, long[] from, long[] to, float[][] q, int start, int n,
                 int k, SmallBatchPath path, Neighbors[] out) {
            for (int i = 0; i < n; i++) {
                hostQueries.put(i * dim, q[start + i]);
                hostGroups.put(i, groups[start + i]);
                hostFrom.put(i, from[start + i]);
                hostTo.put(i, to[start + i]);
            }
            gpu.upload(queries, 0, pinnedQueries, 0, (long) n * dim * Float.BYTES, stream);
            gpu.upload(queryGroups, 0, pinnedGroups, 0, (long) n * Integer.BYTES, stream);
            gpu.upload(queryFrom, 0, pinnedFrom, 0, (long) n * Long.BYTES, stream);
            gpu.upload(queryTo, 0, pinnedTo, 0, (long) n * Long.BYTES, stream);

            int c = options.chunkRows();
            int used = (slotCount + c - 1) / c;
            Kernel score = Kernel.scoreFor(n, path);
            long candidates;
            if (score == Kernel.SCORE_FEW && (long) n * used <= options.batchQueries()) {
                // every chunk's scores side by side in one matrix (query q's slot s at q * ld + s), then one top-k
                // launch over all of them: no top-k per chunk waits between the score launches
                long ld = (long) used * c;
                for (int ch = 0; ch < used; ch++) {
                    launchScore(score, rowChunks[ch], Math.min(c, slotCount - ch * c), n, ld, (long) ch * c);
                }
                int parts = wholeTopkParts(n, slotCount, k, (long) options.batchQueries() * maxChunks * MAX_K);
                candidates = (long) parts * k;
                gpu.launch(Kernel.TOPK, n, parts, stream,
                        scores, scores, 0, ld, slotCount, 0, k,
                        candidateScores, candidateSlots, candidates, 0L);
            } else {
                int parts = topkParts(n, Math.min(c, slotCount), options.batchQueries());
                candidates = (long) used * parts * k; // per query: k per part of each chunk
                for (int ch = 0; ch < used; ch++) {
                    int rows = Math.min(c, slotCount - ch * c);
                    launchScore(score, rowChunks[ch], rows, n, c, 0L);
                    // the slots argument is unused here (hasSlots = 0): any device pointer will do
                    gpu.launch(Kernel.TOPK, n, parts, stream,
                            scores, scores, 0, (long) c, rows, ch * c, k,
                            candidateScores, candidateSlots, candidates, (long) ch * parts * k);
                }
            }
            gpu.launch(Kernel.TOPK, n, 1, stream,
                    candidateScores, candidateSlots, 1, candidates, (int) candidates, 0, k,
                    answerScores, answerSlots, (long) k, 0L);
            gpu.download(hostAnswerScores, 0, answerScores, 0, (long) n * k * Float.BYTES, stream);
            gpu.download(hostAnswerSlots, 0, answerSlots, 0, (long) n * k * Integer.BYTES, stream);
            gpu.synchronize(stream);

            hostAnswerScores.buffer().asFloatBuffer().get(0, answerScoresCopy, 0, n * k);
            hostAnswerSlots.buffer().asIntBuffer().get(0, answerSlotsCopy, 0, n * k);
            for (int i = 0; i < n; i++) {
                int found = 0;
                while (found < k && answerSlotsCopy[i * k + found] >= 0) {
                    found++;
                }
                out[start + i] = new Neighbors(Arrays.copyOfRange(answerSlotsCopy, i * k, i * k + found),
                        Arrays.copyOfRange(answerScoresCopy, i * k, i * k + found));
            }
        }

        /** Scores the pass's n queries against a chunk's first rows into scores[q * ld + outOff + row]. */
        private void launchScore(Kernel score, Chunk chunk, int rows, int n, long ld, long outOff) {
            int gridX = ceilDiv(rows, score.tileRows);
            int gridY = ceilDiv(n, score.tileQueries);
            if (score == Kernel.SCORE_FEW) {
                gpu.launch(score, gridX, gridY, stream, chunk.rows, chunk.groups, chunk.stamps, rows, dim,
                        queries, queryGroups, queryFrom, queryTo, n, scores, ld, outOff);
            } else if (outOff == 0) {
                gpu.launch(score, gridX, gridY, stream, chunk.rows, chunk.groups, chunk.stamps, rows, dim,
                        queries, queryGroups, queryFrom, queryTo, n, scores, ld);
            } else {
                throw new IllegalArgumentException(score.entry + " writes at the start of the score matrix only");
            }
        }

        void free() {
            for (int i = frees.size() - 1; i >= 0; i--) {
                quietly(frees.get(i));
            }
            frees.clear();
            quietly(() -> gpu.destroy(stream));
        }
    }

    /**
     * How many blocks select one query's candidates in a chunk of {@code rows} rows: one at full batches, more when the
     * batch is small, so that a batch of one still spreads over about as many blocks as a full batch does (a block
     * per query would leave all but one SM idle). Each part keeps at least {@link #TOPK_PART_ROWS} entries, and a
     * batch's candidates (n × parts per chunk) never need more room than a full batch's (batchQueries × 1).
     */
    static int topkParts(int n, int rows, int batchQueries) {
        int byBatch = Math.max(1, batchQueries / n);
        int byRows = Math.max(1, ceilDiv(rows, TOPK_PART_ROWS));
        return Math.min(MAX_TOPK_PARTS, Math.min(byBatch, byRows));
    }

    /**
     * How many blocks select one query's candidates from a small batch's whole score matrix of {@code entries}
     * entries: about {@link #WHOLE_TOPK_BLOCKS} blocks over the batch, each with at least {@link #TOPK_PART_ROWS}
     * entries, and no more candidates ({@code n × parts × k}) than {@code candidateRoom}, the lane's room for them.
     */
    static int wholeTopkParts(int n, int entries, int k, long candidateRoom) {
        long byBlocks = Math.max(1, WHOLE_TOPK_BLOCKS / n);
        long byRows = Math.max(1, ceilDiv(entries, TOPK_PART_ROWS));
        long byRoom = candidateRoom / ((long) n * k);
        return (int) Math.max(1, Math.min(Math.min(byBlocks, byRows), Math.min(byRoom, 65_535)));
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
