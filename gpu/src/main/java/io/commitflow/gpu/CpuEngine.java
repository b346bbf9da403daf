package io.commitflow.gpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The retrieval engine on the CPU. Each group keeps its rows in tiles of {@value #TILE_ROWS} rows, column by column,
 * one array per column: a query's score for every row of a tile is then, term after term over the query's non-zero
 * dimensions ascending, {@code acc[row] += q[j] * column_j[row]}. Because the accumulator and the column share their
 * index, the JIT turns that loop into SIMD instructions (it will not where the two indices differ by an offset: the
 * arrays could alias), about three times as fast as one product at a time. A batch's queries of one group take turns
 * on each tile while it is in cache, four at a time on one read of each column where their dimensions coincide.
 *
 * <p>Each row still sums its products one after the other in ascending dimension order, the order of the CUDA kernel
 * and of a dense dot product, so scores are bit for bit the same (skipping a zero term leaves a float sum unchanged:
 * it starts at +0 and never becomes −0). Java never fuses the multiply and add.
 *
 * <p>A group's first tile grows by doubling; later tiles are allocated whole, so a large group never copies its rows.
 * A removed row's place is filled by the group's last row. Searches only read, so several may run at once; adds and
 * removes need the engine to themselves. Memory: about {@code 4.125 * dimension + 25} bytes per row in full tiles; a
 * group smaller than a tile holds {@code dimension} arrays of its capacity (2, 4, … 128 rows) with 16 bytes of header
 * each, so a one-row repository costs 24 KiB at 1024 dimensions where a dense row is 4 KiB.
 */
public final class CpuEngine implements RetrievalEngine {
    /** Rows per tile: a tile's columns stay in cache while a batch's queries use them. */
    static final int TILE_ROWS = 128;
    /** A small repository's first tile: each column array costs 16 bytes of header, so start small. */
    private static final int FIRST_TILE_ROWS = 2;

    private final int dim;
    private int[] groupOf = new int[0];
    private int[] localOf = new int[0];
    private long[] stampOf = new long[0];
    private boolean[] live = new boolean[0];
    private int slots;
    private int size;
    private final IntStack free = new IntStack();
    private final Map<Integer, Group> groups = new HashMap<>();

    /** One group's rows: tile {@code t} holds rows {@code t * TILE_ROWS ..}, as {@code tile[dimension][row]}. */
    private static final class Group {
        final List<float[][]> tiles = new ArrayList<>();
        int[] slotAt = new int[FIRST_TILE_ROWS];
        int n;
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
        int slot = free.isEmpty() ? newSlot() : free.pop();
        Group g = groups.computeIfAbsent(group, x -> new Group());
        int local = g.n;
        float[][] tile = tileFor(g, local);
        int row = local % TILE_ROWS;
        for (int j = 0; j < dim; j++) {
            tile[j][row] = vector[j];
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

    /** The tile with room for the group's row {@code local}: a new one, or the first one grown. */
    private float[][] tileFor(Group g, int local) {
        int t = local / TILE_ROWS;
        if (t == g.tiles.size()) {
            g.tiles.add(new float[dim][t == 0 ? FIRST_TILE_ROWS : TILE_ROWS]);
        }
        float[][] tile = g.tiles.get(t);
        if (local % TILE_ROWS == tile[0].length) { // only the first tile starts small
            for (int j = 0; j < dim; j++) {
                tile[j] = Arrays.copyOf(tile[j], Math.min(TILE_ROWS, tile[j].length * 2));
            }
        }
        return tile;
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
            float[][] to = g.tiles.get(hole / TILE_ROWS);
            float[][] from = g.tiles.get(last / TILE_ROWS);
            for (int j = 0; j < dim; j++) {
                to[j][hole % TILE_ROWS] = from[j][last % TILE_ROWS];
            }
            int moved = g.slotAt[last];
            g.slotAt[hole] = moved;
            localOf[moved] = hole;
        }
        if (g.n == 0) {
            groups.remove(groupOf[slot]);
        } else if (last % TILE_ROWS == 0) {
            g.tiles.remove(g.tiles.size() - 1); // its last tile is empty now
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
        float[] acc = new float[TILE_ROWS];
        float[][] acc4 = new float[4][TILE_ROWS];
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
            // runs of four queries whose non-zero dimensions mostly coincide share their column reads
            int[][] shared = new int[tops.length][];
            for (int i = 0; i + 3 < tops.length; i += 4) {
                int[] union = nonZero(queries[qs.get(i)], queries[qs.get(i + 1)], queries[qs.get(i + 2)],
                        queries[qs.get(i + 3)]);
                if (2 * union.length <= nz[i].length + nz[i + 1].length + nz[i + 2].length + nz[i + 3].length) {
                    shared[i] = union;
                }
            }
            for (int t = 0; t < g.tiles.size(); t++) {
                float[][] tile = g.tiles.get(t);
                int base = t * TILE_ROWS;
                int n = Math.min(TILE_ROWS, g.n - base);
                for (int i = 0; i < tops.length; ) {
                    if (shared[i] != null) {
                        accumulate4(queries[qs.get(i)], queries[qs.get(i + 1)], queries[qs.get(i + 2)],
                                queries[qs.get(i + 3)], shared[i], tile, acc4, n);
                        for (int b = 0; b < 4; b++) {
                            for (int x = 0; x < n; x++) {
                                tops[i + b].offer(g.slotAt[base + x], acc4[b][x]);
                            }
                        }
                        i += 4;
                    } else {
                        accumulate(queries[qs.get(i)], nz[i], tile, acc, n);
                        for (int x = 0; x < n; x++) {
                            tops[i].offer(g.slotAt[base + x], acc[x]);
                        }
                        i++;
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
     * {@code acc[i] = sum over nz of q[j] * tile[j][i]} for the tile's first {@code n} rows, the terms in order. Four
     * dimensions a pass: each row's sum still takes its terms one at a time in ascending order, but its accumulator
     * is loaded and stored once per four terms.
     */
    private static void accumulate(float[] q, int[] nz, float[][] tile, float[] acc, int n) {
        Arrays.fill(acc, 0, n, 0f);
        int p = 0;
        for (; p + 3 < nz.length; p += 4) {
            float a0 = q[nz[p]];
            float a1 = q[nz[p + 1]];
            float a2 = q[nz[p + 2]];
            float a3 = q[nz[p + 3]];
            float[] c0 = tile[nz[p]];
            float[] c1 = tile[nz[p + 1]];
            float[] c2 = tile[nz[p + 2]];
            float[] c3 = tile[nz[p + 3]];
            for (int i = 0; i < n; i++) {
                float s = acc[i];
                s += a0 * c0[i];
                s += a1 * c1[i];
                s += a2 * c2[i];
                s += a3 * c3[i];
                acc[i] = s;
            }
        }
        for (; p < nz.length; p++) {
            float a = q[nz[p]];
            float[] c = tile[nz[p]];
            for (int i = 0; i < n; i++) {
                acc[i] += a * c[i];
            }
        }
    }

    /**
     * {@link #accumulate} for four queries over the union of their non-zero dimensions, into {@code acc[0..3]}. A
     * query's zero term adds ±0, which leaves its sum as it was, so each sum is still its own.
     */
    private static void accumulate4(float[] a, float[] b, float[] c, float[] d, int[] nz, float[][] tile,
                                    float[][] acc, int n) {
        float[] sa = acc[0];
        float[] sb = acc[1];
        float[] sc = acc[2];
        float[] sd = acc[3];
        Arrays.fill(sa, 0, n, 0f);
        Arrays.fill(sb, 0, n, 0f);
        Arrays.fill(sc, 0, n, 0f);
        Arrays.fill(sd, 0, n, 0f);
        for (int j : nz) {
            float qa = a[j];
            float qb = b[j];
            float qc = c[j];
            float qd = d[j];
            float[] col = tile[j];
            for (int i = 0; i < n; i++) {
                float v = col[i];
                sa[i] += qa * v;
                sb[i] += qb * v;
                sc[i] += qc * v;
                sd[i] += qd * v;
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
