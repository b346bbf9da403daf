package io.commitflow.gpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The retrieval engine on the CPU. Each group keeps its rows column by column, in chunks of up to
 * {@value #CHUNK_ROWS} rows: a query's score for every row of a chunk is then, term after term over the query's
 * non-zero dimensions ascending, {@code acc[row] += q[j] * column_j[row]} — streaming loops the JIT turns into SIMD
 * instructions. Rows are stored in tiles of {@value #TILE_ROWS}, each contiguous; a batch's queries of one group take
 * turns on each tile, so a tile comes from memory once per batch. Each row still sums its products one after the other in ascending dimension order, which is the
 * order the CUDA kernel and a dense dot product use, so scores are bit for bit the same (skipping a zero term leaves a
 * float sum unchanged: it starts at +0 and never becomes −0). Java never fuses the multiply and add.
 *
 * <p>A group's first chunk grows by doubling (copying its few rows) until it holds {@value #CHUNK_ROWS}; later chunks
 * are allocated whole, so a large group never copies its rows. A removed row's place is filled by the group's last row.
 * Searches only read, so several may run at once; adds and removes need the engine to themselves. Memory:
 * {@code 4 * dimension + 25} bytes per row, plus up to half a chunk of slack per group.
 */
public final class CpuEngine implements RetrievalEngine {
    static final int CHUNK_ROWS = 4096;
    /**
     * Rows scored together, stored together: a tile holds its rows column by column in one contiguous run, and its
     * columns stay in cache while a batch's queries use them.
     */
    private static final int TILE_ROWS = 128;
    private static final int FIRST_CHUNK_ROWS = 16;

    private final int dim;
    private int[] groupOf = new int[0];
    private int[] localOf = new int[0];
    private long[] stampOf = new long[0];
    private boolean[] live = new boolean[0];
    private int slots;
    private int size;
    private final IntStack free = new IntStack();
    private final Map<Integer, Group> groups = new HashMap<>();

    /**
     * One group's rows: chunk {@code c} holds rows {@code c * CHUNK_ROWS ..} in tiles of {@link #tileRows} rows, each
     * tile column by column ({@link #at}).
     */
    private static final class Group {
        final List<float[]> chunks = new ArrayList<>();
        int firstCapacity;
        int[] slotAt = new int[FIRST_CHUNK_ROWS];
        int n;

        int capacity(int chunk) {
            return chunk == 0 ? firstCapacity : CHUNK_ROWS;
        }
    }

    /** Rows per tile in a chunk of {@code capacity} rows: a small first chunk is one tile. */
    private static int tileRows(int capacity) {
        return Math.min(capacity, TILE_ROWS);
    }

    /** Where row {@code row}'s dimension {@code j} lies in a chunk of {@code capacity} rows. */
    private int at(int capacity, int row, int j) {
        int t = tileRows(capacity);
        return ((row / t) * dim + j) * t + row % t;
    }

    public CpuEngine(int dimension) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be positive: " + dimension);
        }
        this.dim = dimension;
    }

    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public int dimension() {
        return dim;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int add(int group, long stamp, float[] vector) {
        if (vector.length != dim) {
            throw new IllegalArgumentException("vector has " + vector.length + " dimensions, the engine " + dim);
        }
        int slot = free.isEmpty() ? newSlot() : free.pop();
        Group g = groups.computeIfAbsent(group, x -> new Group());
        int local = g.n;
        makeRoom(g, local);
        int chunk = local / CHUNK_ROWS;
        int row = local % CHUNK_ROWS;
        int cap = g.capacity(chunk);
        float[] columns = g.chunks.get(chunk);
        for (int j = 0; j < dim; j++) {
            columns[at(cap, row, j)] = vector[j];
        }
        if (local == g.slotAt.length) {
            g.slotAt = Arrays.copyOf(g.slotAt, local * 2);
        }
        g.slotAt[local] = slot;
        g.n++;
        groupOf[slot] = group;
        localOf[slot] = local;
        stampOf[slot] = stamp;
        live[slot] = true;
        size++;
        return slot;
    }

    /** Makes sure the group has a place for its row {@code local}. */
    private void makeRoom(Group g, int local) {
        int chunk = local / CHUNK_ROWS;
        if (chunk == 0) {
            if (g.chunks.isEmpty()) {
                g.firstCapacity = FIRST_CHUNK_ROWS;
                g.chunks.add(new float[FIRST_CHUNK_ROWS * dim]);
            } else if (local == g.firstCapacity) {
                int cap = Math.min(CHUNK_ROWS, g.firstCapacity * 2);
                float[] old = g.chunks.get(0);
                float[] grown;
                if (g.firstCapacity >= TILE_ROWS) {
                    grown = Arrays.copyOf(old, cap * dim); // whole tiles stay where they are
                } else {
                    grown = new float[cap * dim];
                    for (int r = 0; r < g.firstCapacity; r++) {
                        for (int j = 0; j < dim; j++) {
                            grown[at(cap, r, j)] = old[at(g.firstCapacity, r, j)];
                        }
                    }
                }
                g.chunks.set(0, grown);
                g.firstCapacity = cap;
            }
        } else if (chunk == g.chunks.size()) {
            g.chunks.add(new float[CHUNK_ROWS * dim]);
        }
    }

    private int newSlot() {
        int slot = slots++;
        if (slot >= groupOf.length) {
            int n = Math.max(1024, groupOf.length * 2);
            groupOf = Arrays.copyOf(groupOf, n);
            localOf = Arrays.copyOf(localOf, n);
            stampOf = Arrays.copyOf(stampOf, n);
            live = Arrays.copyOf(live, n);
        }
        return slot;
    }

    @Override
    public void remove(int slot) {
        if (slot < 0 || slot >= slots || !live[slot]) {
            throw new IllegalArgumentException("no row in slot " + slot);
        }
        live[slot] = false;
        Group g = groups.get(groupOf[slot]);
        int hole = localOf[slot];
        int last = --g.n;
        if (hole != last) { // the group's last row moves into the hole
            float[] to = g.chunks.get(hole / CHUNK_ROWS);
            int toCap = g.capacity(hole / CHUNK_ROWS);
            float[] from = g.chunks.get(last / CHUNK_ROWS);
            int fromCap = g.capacity(last / CHUNK_ROWS);
            for (int j = 0; j < dim; j++) {
                to[at(toCap, hole % CHUNK_ROWS, j)] = from[at(fromCap, last % CHUNK_ROWS, j)];
            }
            int moved = g.slotAt[last];
            g.slotAt[hole] = moved;
            localOf[moved] = hole;
        }
        if (g.n == 0) {
            groups.remove(groupOf[slot]);
        } else if (last % CHUNK_ROWS == 0 && last > 0) {
            g.chunks.remove(g.chunks.size() - 1); // its last chunk is empty now
        }
        free.push(slot);
        size--;
    }

    @Override
    public Neighbors[] search(Tier tier, int[] groups, long[] from, long[] to, float[][] queries, int k) {
        if (groups.length != queries.length || from.length != queries.length || to.length != queries.length) {
            throw new IllegalArgumentException(groups.length + " groups, " + from.length + " and " + to.length
                    + " stamp bounds for " + queries.length + " queries");
        }
        for (float[] q : queries) {
            if (q.length != dim) {
                throw new IllegalArgumentException("query has " + q.length + " dimensions, the engine " + dim);
            }
        }
        // the queries of one group share a pass over its rows, a tile at a time: a tile's columns are read from
        // memory once per batch and from cache by the batch's other queries
        Map<Integer, List<Integer>> byQueryGroup = new HashMap<>();
        for (int q = 0; q < queries.length; q++) {
            byQueryGroup.computeIfAbsent(groups[q], g -> new ArrayList<>()).add(q);
        }
        Neighbors[] out = new Neighbors[queries.length];
        float[] acc = new float[TILE_ROWS];
        for (var e : byQueryGroup.entrySet()) {
            Group g = this.groups.get(e.getKey());
            List<Integer> qs = e.getValue();
            if (g == null || k < 1) {
                qs.forEach(q -> out[q] = new Neighbors(new int[0], new float[0]));
                continue;
            }
            TopK[] tops = new TopK[qs.size()];
            int[][] nz = new int[qs.size()][];
            for (int i = 0; i < tops.length; i++) {
                int q = qs.get(i);
                tops[i] = new TopK(Math.min(k, g.n), from[q], to[q], stampOf);
                nz[i] = nonZero(queries[q]);
            }
            for (int c = 0; c < g.chunks.size(); c++) {
                int rows = Math.min(CHUNK_ROWS, g.n - c * CHUNK_ROWS);
                float[] columns = g.chunks.get(c);
                int tile = tileRows(g.capacity(c));
                for (int t = 0; t < rows; t += tile) {
                    int n = Math.min(tile, rows - t);
                    int tileStart = (t / tile) * dim * tile;
                    for (int i = 0; i < tops.length; i++) {
                        float[] query = queries[qs.get(i)];
                        Arrays.fill(acc, 0, n, 0f);
                        accumulate(query, nz[i], columns, tileStart, tile, acc, n);
                        int base = c * CHUNK_ROWS + t;
                        for (int x = 0; x < n; x++) {
                            tops[i].offer(g.slotAt[base + x], acc[x]);
                        }
                    }
                }
            }
            for (int i = 0; i < tops.length; i++) {
                out[qs.get(i)] = tops[i].result();
            }
        }
        return out;
    }

    /**
     * {@code acc[i] += q[j] * x[tile + j * n + i]} for the first {@code n} rows of the tile, over the non-zero
     * dimensions {@code nz} in order. Four dimensions a pass: each row's sum still takes its terms one at a time in
     * ascending order, but the accumulator is loaded and stored once per four terms. The JIT vectorises the loops.
     */
    private static void accumulate(float[] q, int[] nz, float[] x, int tile, int stride, float[] acc, int n) {
        int p = 0;
        for (; p + 3 < nz.length; p += 4) {
            float a0 = q[nz[p]];
            float a1 = q[nz[p + 1]];
            float a2 = q[nz[p + 2]];
            float a3 = q[nz[p + 3]];
            int o0 = tile + nz[p] * stride;
            int o1 = tile + nz[p + 1] * stride;
            int o2 = tile + nz[p + 2] * stride;
            int o3 = tile + nz[p + 3] * stride;
            for (int i = 0; i < n; i++) {
                float s = acc[i];
                s += a0 * x[o0 + i];
                s += a1 * x[o1 + i];
                s += a2 * x[o2 + i];
                s += a3 * x[o3 + i];
                acc[i] = s;
            }
        }
        for (; p < nz.length; p++) {
            float a = q[nz[p]];
            int o = tile + nz[p] * stride;
            for (int i = 0; i < n; i++) {
                acc[i] += a * x[o + i];
            }
        }
    }

    /** The dimensions, ascending, where the query is not zero. */
    private int[] nonZero(float[] q) {
        int[] nz = new int[dim];
        int n = 0;
        for (int j = 0; j < dim; j++) {
            if (q[j] != 0) {
                nz[n++] = j;
            }
        }
        return Arrays.copyOf(nz, n);
    }

    @Override
    public void close() {
        groups.clear();
    }

    /** Top-k by (score desc, slot asc) of the rows stamped in [from, to): a min-heap on the worst kept entry. */
    static final class TopK {
        private final int k;
        private final int[] slot;
        private final float[] score;
        private final long from;
        private final long to;
        private final long[] stamps;
        private int n;

        TopK(int k, long from, long to, long[] stamps) {
            this.k = k;
            this.slot = new int[k];
            this.score = new float[k];
            this.from = from;
            this.to = to;
            this.stamps = stamps;
        }

        /** Is (s1, x1) worse than (s2, x2)? */
        private static boolean worse(float s1, int x1, float s2, int x2) {
            return s1 < s2 || (s1 == s2 && x1 > x2);
        }

        void offer(int x, float s) {
            long stamp = stamps[x];
            if (k == 0 || stamp < from || stamp >= to) {
                return;
            }
            if (n < k) {
                slot[n] = x;
                score[n] = s;
                up(n++);
            } else if (worse(score[0], slot[0], s, x)) {
                slot[0] = x;
                score[0] = s;
                down(0);
            }
        }

        private void up(int i) {
            while (i > 0) {
                int p = (i - 1) / 2;
                if (!worse(score[i], slot[i], score[p], slot[p])) {
                    break;
                }
                swap(i, p);
                i = p;
            }
        }

        private void down(int i) {
            while (true) {
                int l = 2 * i + 1;
                int r = l + 1;
                int m = i;
                if (l < n && worse(score[l], slot[l], score[m], slot[m])) {
                    m = l;
                }
                if (r < n && worse(score[r], slot[r], score[m], slot[m])) {
                    m = r;
                }
                if (m == i) {
                    return;
                }
                swap(i, m);
                i = m;
            }
        }

        private void swap(int a, int b) {
            int x = slot[a];
            slot[a] = slot[b];
            slot[b] = x;
            float s = score[a];
            score[a] = score[b];
            score[b] = s;
        }

        Neighbors result() {
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> worse(score[a], slot[a], score[b], slot[b]) ? 1
                    : worse(score[b], slot[b], score[a], slot[a]) ? -1 : 0);
            int[] s = new int[n];
            float[] v = new float[n];
            for (int i = 0; i < n; i++) {
                s[i] = slot[order[i]];
                v[i] = score[order[i]];
            }
            return new Neighbors(s, v);
        }
    }
}
