package io.commitflow.gpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The retrieval engine on the CPU. Each group keeps its rows in blocks of up to {@value #BLOCK_ROWS} rows, and each
 * block keeps each dimension in the form its values need: a dense column ({@code value[row]}) where more than a
 * quarter of the block's rows are not zero there, else a list of its non-zero entries {@code (row, value)}, rows
 * ascending. A query's score for every row of a block is then, term after term over the query's non-zero
 * dimensions ascending, {@code acc[row] += q[j] * value_j[row]}: a vectorised pass over a dense column, one add per
 * entry of a sparse one.
 *
 * <p>Why both: a repository's diff vectors are sparse (about a tenth of the dimensions of a row; a query's dimensions
 * meet a row's non-zero value in about a quarter of the products, because a few hashed words are in most diffs). A
 * dense scan streams every product from memory, most of them zero, and an exact top-k over thousands of rows is
 * bound by that stream; the entries read about a third of its bytes. Dense data (the benchmark's random rows) stays
 * in dense columns and costs what a dense scan does: four dimensions a pass, the accumulator loaded and stored once
 * per four terms. A block's accumulator ({@value #BLOCK_ROWS} floats) stays in the first-level cache.
 *
 * <p>Each row still sums its products one after the other in ascending dimension order, the order of the CUDA kernel
 * and of a dense dot product, so scores are bit for bit the same in either form: skipping a zero term leaves a float
 * sum unchanged (it starts at +0 and never becomes −0), whether the query's value is zero or the row's. Java never
 * fuses the multiply and add.
 *
 * <p>A removed row is marked dead and skipped; when more than an eighth of a group's rows are dead its blocks are
 * rebuilt from the live rows (a cost of a few entries per removal, amortised), keeping their order. Searches only
 * read, so several may run at once; adds and removes need the engine to themselves. Memory: 6 bytes per sparse value,
 * 4 bytes per row of a dense column, and about {@code 32 * dimension} bytes of index per block.
 */
public final class CpuEngine implements RetrievalEngine {
    /** Rows per block: its accumulator stays in the first-level cache, and a row's place in it fits a char. */
    static final int BLOCK_ROWS = 4096;
    /** Rows a batch's queries of one group take turns on (a dense chunk of 1,024 dimensions is 2 MiB). */
    private static final int CHUNK_ROWS = 512;
    /** A block's dimension turns dense when more than 1/this of its rows are not zero there. */
    private static final int DENSE_FRACTION = 4;
    /** ... and the block has at least this many rows (a young repository's columns stay lists). */
    private static final int DENSE_MIN_ROWS = 64;
    /** A group is rebuilt when more than 1/this of its rows are dead, and at least this many. */
    private static final int DEAD_FRACTION = 8;
    private static final int DEAD_MIN = 64;

    private final int dim;
    private int[] groupOf = new int[0];
    private int[] localOf = new int[0];
    private long[] stampOf = new long[0];
    private boolean[] live = new boolean[0];
    private int slots;
    private int size;
    private final IntStack free = new IntStack();
    private final Map<Integer, Group> groups = new HashMap<>();

    /** One group's rows: row {@code local} is row {@code local % BLOCK_ROWS} of block {@code local / BLOCK_ROWS}. */
    private final class Group {
        final List<Block> blocks = new ArrayList<>();
        /** Each row's slot, or -1 for a dead row. */
        int[] slotAt = new int[16];
        int n;
        int dead;

        void append(int slot, int[] dims, float[] values, int count) {
            if (n % BLOCK_ROWS == 0) {
                blocks.add(new Block(dim));
            }
            blocks.get(blocks.size() - 1).append(dims, values, count);
            if (n == slotAt.length) {
                slotAt = Arrays.copyOf(slotAt, n * 2);
            }
            slotAt[n] = slot;
            localOf[slot] = n;
            n++;
        }

        /** Rebuilds the blocks from the live rows, in their order. */
        void compact() {
            List<Block> old = new ArrayList<>(blocks);
            int[] oldSlots = slotAt;
            blocks.clear();
            slotAt = new int[Math.max(16, Integer.highestOneBit(Math.max(1, n - dead)) * 2)];
            n = 0;
            dead = 0;
            for (int b = 0; b < old.size(); b++) {
                Block block = old.get(b);
                int[][] rowDims = new int[block.n][];
                float[][] rowValues = new float[block.n][];
                block.rows(rowDims, rowValues);
                for (int r = 0; r < block.n; r++) {
                    int slot = oldSlots[b * BLOCK_ROWS + r];
                    if (slot >= 0) {
                        append(slot, rowDims[r], rowValues[r], rowDims[r].length);
                    }
                }
            }
        }
    }

    /**
     * A block of rows, per dimension {@code j}: {@code dense[j]} (capacity {@code cap}) where it is not null, else
     * {@code count[j]} entries in {@code rows[j]} and {@code values[j]}.
     */
    static final class Block {
        final float[][] dense;
        final char[][] rows;
        final float[][] values;
        final int[] count;
        int n;
        int cap;

        Block(int dim) {
            dense = new float[dim][];
            rows = new char[dim][];
            values = new float[dim][];
            count = new int[dim];
        }

        /** Appends a row given as its non-zero {@code (dims[i], values[i])}, dimensions ascending. */
        void append(int[] dims, float[] vals, int nz) {
            int r = n++;
            if (r == cap && cap > 0) {
                cap = Math.min(BLOCK_ROWS, cap * 2);
                for (int j = 0; j < dense.length; j++) {
                    if (dense[j] != null) {
                        dense[j] = Arrays.copyOf(dense[j], cap);
                    }
                }
            }
            for (int i = 0; i < nz; i++) {
                int j = dims[i];
                if (dense[j] != null) {
                    dense[j][r] = vals[i];
                    continue;
                }
                int c = count[j];
                if (rows[j] == null) {
                    rows[j] = new char[4];
                    values[j] = new float[4];
                } else if (c == rows[j].length) {
                    rows[j] = Arrays.copyOf(rows[j], c * 2);
                    values[j] = Arrays.copyOf(values[j], c * 2);
                }
                rows[j][c] = (char) r;
                values[j][c] = vals[i];
                count[j] = c + 1;
                if (n >= DENSE_MIN_ROWS && (c + 1) * DENSE_FRACTION > n) {
                    toDense(j);
                }
            }
        }

        private void toDense(int j) {
            if (cap == 0) {
                cap = Integer.highestOneBit(n) * 2;
            }
            float[] col = new float[cap];
            for (int e = 0; e < count[j]; e++) {
                col[rows[j][e]] = values[j][e];
            }
            dense[j] = col;
            rows[j] = null;
            values[j] = null;
            count[j] = 0;
        }

        /** Each row's non-zero dimensions (ascending) and values. */
        void rows(int[][] rowDims, float[][] rowValues) {
            int[] nz = new int[n];
            for (int j = 0; j < dense.length; j++) {
                if (dense[j] != null) {
                    for (int r = 0; r < n; r++) {
                        if (dense[j][r] != 0) {
                            nz[r]++;
                        }
                    }
                } else {
                    for (int e = 0; e < count[j]; e++) {
                        nz[rows[j][e]]++;
                    }
                }
            }
            for (int r = 0; r < n; r++) {
                rowDims[r] = new int[nz[r]];
                rowValues[r] = new float[nz[r]];
                nz[r] = 0;
            }
            for (int j = 0; j < dense.length; j++) {
                if (dense[j] != null) {
                    for (int r = 0; r < n; r++) {
                        if (dense[j][r] != 0) {
                            rowDims[r][nz[r]] = j;
                            rowValues[r][nz[r]++] = dense[j][r];
                        }
                    }
                } else {
                    for (int e = 0; e < count[j]; e++) {
                        int r = rows[j][e];
                        rowDims[r][nz[r]] = j;
                        rowValues[r][nz[r]++] = values[j][e];
                    }
                }
            }
        }
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
        EngineArguments.checkVector(dim, vector);
        int[] dims = new int[dim];
        float[] values = new float[dim];
        int nz = 0;
        for (int j = 0; j < dim; j++) {
            if (vector[j] != 0) {
                dims[nz] = j;
                values[nz++] = vector[j];
            }
        }
        int slot = free.isEmpty() ? newSlot() : free.pop();
        groups.computeIfAbsent(group, x -> new Group()).append(slot, dims, values, nz);
        groupOf[slot] = group;
        stampOf[slot] = stamp;
        live[slot] = true;
        size++;
        return slot;
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
        g.slotAt[localOf[slot]] = -1;
        g.dead++;
        if (g.dead == g.n) {
            groups.remove(groupOf[slot]);
        } else if (g.dead > DEAD_MIN && g.dead * DEAD_FRACTION > g.n) {
            g.compact();
        }
        free.push(slot);
        size--;
    }

    @Override
    public Neighbors[] search(Tier tier, int[] groups, long[] from, long[] to, float[][] queries, int k) {
        EngineArguments.checkSearch(dim, groups, from, to, queries);
        Map<Integer, List<Integer>> byQueryGroup = new HashMap<>();
        for (int q = 0; q < queries.length; q++) {
            byQueryGroup.computeIfAbsent(groups[q], g -> new ArrayList<>()).add(q);
        }
        Neighbors[] out = new Neighbors[queries.length];
        float[] acc = null;
        float[][] acc4 = null;
        for (var e : byQueryGroup.entrySet()) {
            Group g = this.groups.get(e.getKey());
            List<Integer> qs = e.getValue();
            if (g == null || k < 1) {
                qs.forEach(q -> out[q] = new Neighbors(new int[0], new float[0]));
                continue;
            }
            int rows = Math.min(BLOCK_ROWS, g.n); // the most rows one block of this group holds
            TopK[] tops = new TopK[qs.size()];
            int[][] nz = new int[qs.size()][];
            for (int i = 0; i < tops.length; i++) {
                int q = qs.get(i);
                tops[i] = new TopK(Math.min(k, g.n - g.dead), from[q], to[q], stampOf);
                nz[i] = nonZero(queries[q]);
            }
            // runs of four queries whose non-zero dimensions mostly coincide share their column reads
            int[][] shared = new int[tops.length][];
            for (int i = 0; i + 3 < tops.length; i += 4) {
                int[] union = nonZero(queries[qs.get(i)], queries[qs.get(i + 1)], queries[qs.get(i + 2)],
                        queries[qs.get(i + 3)]);
                if (2 * union.length <= nz[i].length + nz[i + 1].length + nz[i + 2].length + nz[i + 3].length) {
                    shared[i] = union;
                    if (acc4 == null || acc4[0].length < rows) {
                        acc4 = new float[4][rows];
                    }
                }
            }
            if (acc == null || acc.length < rows) {
                acc = new float[rows];
            }
            // one query reads each block once; several take turns on a chunk of it while the chunk is in cache
            int chunk = tops.length == 1 ? BLOCK_ROWS : CHUNK_ROWS;
            int[][] cursor = new int[tops.length][];
            for (int b = 0; b < g.blocks.size(); b++) {
                Block block = g.blocks.get(b);
                int base = b * BLOCK_ROWS;
                for (int i = 0; i < tops.length; i++) {
                    int width = shared[i] != null ? shared[i].length : nz[i].length;
                    cursor[i] = cursor[i] == null || cursor[i].length < width ? new int[width] : cursor[i];
                    Arrays.fill(cursor[i], 0);
                }
                for (int lo = 0; lo < block.n; lo += chunk) {
                    int hi = Math.min(block.n, lo + chunk);
                    for (int i = 0; i < tops.length; ) {
                        if (shared[i] != null) {
                            accumulate4(queries[qs.get(i)], queries[qs.get(i + 1)], queries[qs.get(i + 2)],
                                    queries[qs.get(i + 3)], shared[i], block, acc4, lo, hi, cursor[i]);
                            for (int x = 0; x < 4; x++) {
                                offer(tops[i + x], g.slotAt, base, acc4[x], lo, hi);
                            }
                            i += 4;
                        } else {
                            accumulate(queries[qs.get(i)], nz[i], block, acc, lo, hi, cursor[i]);
                            offer(tops[i], g.slotAt, base, acc, lo, hi);
                            i++;
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

    private static void offer(TopK top, int[] slotAt, int base, float[] acc, int lo, int hi) {
        for (int r = lo; r < hi; r++) {
            float s = acc[r];
            if (s < top.floor) {
                continue; // below the worst kept of a full top: neither its slot nor its stamp can change that
            }
            int slot = slotAt[base + r];
            if (slot >= 0) {
                top.offer(slot, s);
            }
        }
    }

    /**
     * {@code acc[r] = sum over nz of q[j] * value_j[r]} for the block's rows, the terms in ascending order: a dense
     * column in a vectorised pass (four consecutive ones in one pass, each row's sum still taking its terms one at a
     * time in order), a sparse one entry by entry into its row's sum.
     */
    private static void accumulate(float[] q, int[] nz, Block block, float[] acc, int lo, int hi, int[] cursor) {
        Arrays.fill(acc, lo, hi, 0f);
        float[][] dense = block.dense;
        int p = 0;
        while (p < nz.length) {
            int j = nz[p];
            float[] c0 = dense[j];
            if (c0 == null) {
                float a = q[j];
                char[] rows = block.rows[j];
                float[] values = block.values[j];
                int e = cursor[p];
                for (int end = block.count[j]; e < end && rows[e] < hi; e++) {
                    acc[rows[e]] += a * values[e];
                }
                cursor[p] = e;
                p++;
            } else if (p + 3 < nz.length && dense[nz[p + 1]] != null && dense[nz[p + 2]] != null
                    && dense[nz[p + 3]] != null) {
                axpy4(q[j], q[nz[p + 1]], q[nz[p + 2]], q[nz[p + 3]], c0, dense[nz[p + 1]], dense[nz[p + 2]],
                        dense[nz[p + 3]], acc, lo, hi);
                p += 4;
            } else {
                float a = q[j];
                for (int r = lo; r < hi; r++) {
                    acc[r] += a * c0[r];
                }
                p++;
            }
        }
    }

    private static void axpy4(float a0, float a1, float a2, float a3, float[] c0, float[] c1, float[] c2, float[] c3,
                              float[] acc, int lo, int hi) {
        for (int r = lo; r < hi; r++) {
            float s = acc[r];
            s += a0 * c0[r];
            s += a1 * c1[r];
            s += a2 * c2[r];
            s += a3 * c3[r];
            acc[r] = s;
        }
    }

    /**
     * {@link #accumulate} for four queries over the union of their non-zero dimensions, into {@code acc[0..3]}. A
     * query's zero term adds ±0, which leaves its sum as it was, so each sum is still its own.
     */
    private static void accumulate4(float[] a, float[] b, float[] c, float[] d, int[] nz, Block block,
                                    float[][] acc, int lo, int hi, int[] cursor) {
        float[] sa = acc[0];
        float[] sb = acc[1];
        float[] sc = acc[2];
        float[] sd = acc[3];
        Arrays.fill(sa, lo, hi, 0f);
        Arrays.fill(sb, lo, hi, 0f);
        Arrays.fill(sc, lo, hi, 0f);
        Arrays.fill(sd, lo, hi, 0f);
        for (int p = 0; p < nz.length; p++) {
            int j = nz[p];
            float qa = a[j];
            float qb = b[j];
            float qc = c[j];
            float qd = d[j];
            float[] col = block.dense[j];
            if (col != null) {
                for (int r = lo; r < hi; r++) {
                    float v = col[r];
                    sa[r] += qa * v;
                    sb[r] += qb * v;
                    sc[r] += qc * v;
                    sd[r] += qd * v;
                }
            } else {
                char[] rows = block.rows[j];
                float[] values = block.values[j];
                int e = cursor[p];
                for (int end = block.count[j]; e < end && rows[e] < hi; e++) {
                    int r = rows[e];
                    float v = values[e];
                    sa[r] += qa * v;
                    sb[r] += qb * v;
                    sc[r] += qc * v;
                    sd[r] += qd * v;
                }
                cursor[p] = e;
            }
        }
    }

    /** The dimensions, ascending, where any of the queries is not zero. */
    private int[] nonZero(float[]... qs) {
        int[] nz = new int[dim];
        int n = 0;
        for (int j = 0; j < dim; j++) {
            for (float[] q : qs) {
                if (q[j] != 0) {
                    nz[n++] = j;
                    break;
                }
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
        /** The worst kept score once k are kept (a lower score cannot enter), else −∞; +∞ when k is 0. */
        float floor;

        TopK(int k, long from, long to, long[] stamps) {
            this.k = k;
            this.slot = new int[k];
            this.score = new float[k];
            this.from = from;
            this.to = to;
            this.stamps = stamps;
            this.floor = k == 0 ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY;
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
            } else {
                return;
            }
            if (n == k) {
                floor = score[0];
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
