package io.commitflow.gpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The retrieval engine on the CPU: rows in fixed-size blocks (growing never copies earlier rows), a per-group
 * list of live slots, and for each query a dot product against its group's rows with a bounded top-k selection.
 * Searches only read, so several may run at once; adds and removes need the engine to themselves. Memory:
 * {@code 4 * dimension + 13} bytes per row plus the group lists.
 */
public final class CpuEngine implements RetrievalEngine {
    private static final int BLOCK_ROWS = 4096;

    private final int dim;
    private final List<float[]> blocks = new ArrayList<>();
    private int[] groupOf = new int[0];
    private long[] stampOf = new long[0];
    private boolean[] live = new boolean[0];
    private int slots;
    private int size;
    private final IntStack free = new IntStack();
    private final Map<Integer, IntSet> byGroup = new HashMap<>();

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
        System.arraycopy(vector, 0, blocks.get(slot / BLOCK_ROWS), (slot % BLOCK_ROWS) * dim, dim);
        groupOf[slot] = group;
        stampOf[slot] = stamp;
        live[slot] = true;
        byGroup.computeIfAbsent(group, g -> new IntSet()).add(slot);
        size++;
        return slot;
    }

    private int newSlot() {
        int slot = slots++;
        if (slot / BLOCK_ROWS >= blocks.size()) {
            blocks.add(new float[BLOCK_ROWS * dim]);
        }
        if (slot >= groupOf.length) {
            int n = Math.max(BLOCK_ROWS, groupOf.length * 2);
            groupOf = Arrays.copyOf(groupOf, n);
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
        IntSet g = byGroup.get(groupOf[slot]);
        g.remove(slot);
        if (g.size() == 0) {
            byGroup.remove(groupOf[slot]);
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
        // the queries of one group share a pass over its rows: each row is read once per batch, not once per query
        Map<Integer, List<Integer>> byQueryGroup = new HashMap<>();
        for (int q = 0; q < queries.length; q++) {
            byQueryGroup.computeIfAbsent(groups[q], g -> new ArrayList<>()).add(q);
        }
        Neighbors[] out = new Neighbors[queries.length];
        for (var e : byQueryGroup.entrySet()) {
            IntSet rows = byGroup.get(e.getKey());
            List<Integer> qs = e.getValue();
            if (rows == null || k < 1) {
                qs.forEach(q -> out[q] = new Neighbors(new int[0], new float[0]));
                continue;
            }
            TopK[] tops = new TopK[qs.size()];
            for (int i = 0; i < tops.length; i++) {
                int q = qs.get(i);
                tops[i] = new TopK(Math.min(k, rows.size()), from[q], to[q], stampOf);
            }
            scan(rows, qs, queries, tops);
            for (int i = 0; i < tops.length; i++) {
                out[qs.get(i)] = tops[i].result();
            }
        }
        return out;
    }

    /**
     * Scores every row of the group against the group's queries, four queries at a time, visiting only the
     * dimensions where one of the four is not zero. Skipping a zero term leaves a float sum unchanged (the running
     * sum starts at +0 and never becomes −0; q·x is ±0 when q is 0), so this is bit for bit the dense sum in index
     * order — the order the CUDA kernel uses — at a fraction of the work: hashed TF-IDF queries are mostly zeros.
     */
    private void scan(IntSet rows, List<Integer> qs, float[][] queries, TopK[] tops) {
        int[] members = rows.items();
        int n = rows.size();
        int q = 0;
        for (; q + 3 < qs.size(); q += 4) {
            float[] a = queries[qs.get(q)];
            float[] b = queries[qs.get(q + 1)];
            float[] c = queries[qs.get(q + 2)];
            float[] d = queries[qs.get(q + 3)];
            int[] nz = nonZero(a, b, c, d);
            for (int i = 0; i < n; i++) {
                int slot = members[i];
                float[] block = blocks.get(slot / BLOCK_ROWS);
                int off = (slot % BLOCK_ROWS) * dim;
                float sa = 0;
                float sb = 0;
                float sc = 0;
                float sd = 0;
                for (int j : nz) {
                    float x = block[off + j];
                    sa += a[j] * x;
                    sb += b[j] * x;
                    sc += c[j] * x;
                    sd += d[j] * x;
                }
                tops[q].offer(slot, sa);
                tops[q + 1].offer(slot, sb);
                tops[q + 2].offer(slot, sc);
                tops[q + 3].offer(slot, sd);
            }
        }
        for (; q < qs.size(); q++) {
            float[] a = queries[qs.get(q)];
            int[] nz = nonZero(a);
            for (int i = 0; i < n; i++) {
                int slot = members[i];
                tops[q].offer(slot, dot(a, nz, blocks.get(slot / BLOCK_ROWS), (slot % BLOCK_ROWS) * dim));
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
        return java.util.Arrays.copyOf(nz, n);
    }

    /**
     * One accumulator, in index order over the query's non-zero dimensions: the same sum as the batched loop in
     * {@link #scan}, so that a query scores the same whatever batch it comes in.
     */
    private static float dot(float[] q, int[] nz, float[] block, int off) {
        float s = 0;
        for (int j : nz) {
            s += q[j] * block[off + j];
        }
        return s;
    }

    @Override
    public void close() {
        blocks.clear();
        byGroup.clear();
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

    /** A set of slots with O(1) add and remove (swap with last), iterated as an array. */
    static final class IntSet {
        private int[] items = new int[16];
        private int n;
        private final Map<Integer, Integer> index = new HashMap<>();

        void add(int x) {
            if (n == items.length) {
                items = Arrays.copyOf(items, n * 2);
            }
            index.put(x, n);
            items[n++] = x;
        }

        void remove(int x) {
            Integer i = index.remove(x);
            if (i == null) {
                return;
            }
            int last = items[--n];
            if (i != n) {
                items[i] = last;
                index.put(last, i);
            }
        }

        int size() {
            return n;
        }

        int[] items() {
            return items;
        }
    }
}
