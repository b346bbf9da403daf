package io.commitflow.gpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same rows, removals and queries for every engine, and a brute-force answer to check them against: several
 * groups (a negative one too, as the job's bag-of-words groups are), running stamps per group, exact duplicate rows
 * (ties broken by slot), removed rows and reused slots, stamp windows (open, narrow, empty), and queries that copy a
 * row (a tie at the top).
 */
final class ParityFixture {
    static final int[] GROUPS = {0, 1, 2, -1, 7};
    /** A group no row is in. */
    static final int EMPTY_GROUP = 99;

    final int dim;
    private final long seed;
    private final int rowCount;
    /** The rows by slot as the reference sees them; null where the slot is free. */
    private final List<Row> model = new ArrayList<>();
    private final List<Integer> modelFree = new ArrayList<>();

    record Row(int group, long stamp, float[] vector) {
    }

    /** One batch of queries and its k. */
    record Batch(String name, int[] groups, long[] from, long[] to, float[][] queries, int k, Tier tier) {
    }

    ParityFixture(long seed, int rowCount, int dim) {
        this.seed = seed;
        this.rowCount = rowCount;
        this.dim = dim;
    }

    static float[] unit(Random r, int dim) {
        float[] v = new float[dim];
        double n = 0;
        for (int i = 0; i < dim; i++) {
            v[i] = (float) r.nextGaussian();
            n += (double) v[i] * v[i];
        }
        float inv = (float) (1 / Math.sqrt(n));
        for (int i = 0; i < dim; i++) {
            v[i] *= inv;
        }
        return v;
    }

    /**
     * Adds the rows, removes a tenth of them and adds some more (reusing the freed slots), on every engine and the
     * reference; asserts that all of them hand out the same slots.
     */
    void fill(RetrievalEngine... engines) {
        Random r = new Random(seed);
        Map<Integer, Long> nextStamp = new HashMap<>();
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < rowCount; i++) {
            add(r, nextStamp, vectors, engines);
        }
        List<Integer> live = new ArrayList<>();
        for (int s = 0; s < model.size(); s++) {
            live.add(s);
        }
        java.util.Collections.shuffle(live, r);
        for (int s : live.subList(0, rowCount / 10)) {
            for (RetrievalEngine e : engines) {
                e.remove(s);
            }
            model.set(s, null);
            modelFree.add(s);
        }
        for (int i = 0; i < rowCount / 20 + 3; i++) {
            add(r, nextStamp, vectors, engines);
        }
        for (RetrievalEngine e : engines) {
            assertThat(e.size()).as(e.name() + " size").isEqualTo(liveRows());
        }
    }

    private void add(Random r, Map<Integer, Long> nextStamp, List<float[]> vectors, RetrievalEngine... engines) {
        int group = GROUPS[r.nextInt(GROUPS.length)];
        long stamp = nextStamp.merge(group, 1L, Long::sum);
        float[] v = vectors.size() > 10 && r.nextInt(8) == 0 ? vectors.get(r.nextInt(vectors.size())) : unit(r, dim);
        vectors.add(v);
        int expected = modelFree.isEmpty() ? model.size() : modelFree.remove(modelFree.size() - 1);
        for (RetrievalEngine e : engines) {
            assertThat(e.add(group, stamp, v)).as(e.name() + " slot").isEqualTo(expected);
        }
        if (expected == model.size()) {
            model.add(new Row(group, stamp, v));
        } else {
            model.set(expected, new Row(group, stamp, v));
        }
    }

    /** Removes every {@code step}-th live slot below {@code below} from every engine and the reference. */
    void removeEvery(int step, int below, RetrievalEngine... engines) {
        for (int s = 0; s < Math.min(below, model.size()); s += step) {
            if (model.get(s) != null) {
                for (RetrievalEngine e : engines) {
                    e.remove(s);
                }
                model.set(s, null);
                modelFree.add(s);
            }
        }
    }

    int liveRows() {
        return (int) model.stream().filter(x -> x != null).count();
    }

    /** Batches of 1, 7 and 300 queries (k 10), 7 more with k 1 and k 64, 40 with k 64, 2 and 4, on all three tiers. */
    List<Batch> batches() {
        Random r = new Random(seed * 31 + 1);
        List<Batch> out = new ArrayList<>();
        out.add(batch("1 query", r, 1, 10, Tier.GOLD));
        out.add(batch("7 queries", r, 7, 10, Tier.SILVER));
        out.add(batch("300 queries", r, 300, 10, Tier.BRONZE));
        out.add(batch("7 queries, k 1", r, 7, 1, Tier.GOLD));
        out.add(batch("7 queries, k 64", r, 7, 64, Tier.SILVER));
        out.add(batch("40 queries, k 64", r, 40, 64, Tier.BRONZE));
        out.add(batch("2 queries", r, 2, 10, Tier.SILVER));
        out.add(batch("4 queries, k 64", r, 4, 64, Tier.GOLD));
        return out;
    }

    Batch batch(String name, Random r, int n, int k, Tier tier) {
        int[] groups = new int[n];
        long[] from = new long[n];
        long[] to = new long[n];
        float[][] q = new float[n][];
        List<Row> rows = model.stream().filter(x -> x != null).toList();
        for (int i = 0; i < n; i++) {
            groups[i] = r.nextInt(12) == 0 ? EMPTY_GROUP : GROUPS[r.nextInt(GROUPS.length)];
            switch (r.nextInt(4)) {
                case 0 -> {
                    from[i] = Long.MIN_VALUE;
                    to[i] = Long.MAX_VALUE;
                }
                case 1 -> {
                    from[i] = r.nextInt(rowCount / 4 + 1);
                    to[i] = from[i] + 1 + r.nextInt(rowCount / 4 + 1);
                }
                case 2 -> {
                    from[i] = 0;
                    to[i] = 1 + r.nextInt(rowCount / 5 + 1);
                }
                default -> {
                    from[i] = 5;
                    to[i] = r.nextBoolean() ? 5 : 6; // empty, or one stamp
                }
            }
            q[i] = r.nextInt(3) == 0 && !rows.isEmpty() ? rows.get(r.nextInt(rows.size())).vector() : unit(r, dim);
        }
        return new Batch(name, groups, from, to, q, k, tier);
    }

    static Neighbors[] run(RetrievalEngine e, Batch b) {
        return e.search(b.tier(), b.groups(), b.from(), b.to(), b.queries(), b.k());
    }

    /** The brute-force answer: every live row of the group in the window, scored in index order like the engines. */
    Neighbors[] reference(Batch b) {
        Neighbors[] out = new Neighbors[b.queries().length];
        for (int i = 0; i < out.length; i++) {
            List<Integer> hits = new ArrayList<>();
            float[] scores = new float[model.size()];
            for (int s = 0; s < model.size(); s++) {
                Row row = model.get(s);
                if (row != null && row.group() == b.groups()[i] && row.stamp() >= b.from()[i] && row.stamp() < b.to()[i]) {
                    float sum = 0;
                    for (int d = 0; d < dim; d++) {
                        sum += b.queries()[i][d] * row.vector()[d];
                    }
                    scores[s] = sum;
                    hits.add(s);
                }
            }
            hits.sort(Comparator.<Integer>comparingDouble(s -> -scores[s]).thenComparingInt(s -> s));
            List<Integer> top = hits.subList(0, Math.min(b.k(), hits.size()));
            float[] v = new float[top.size()];
            for (int j = 0; j < v.length; j++) {
                v[j] = scores[top.get(j)];
            }
            out[i] = new Neighbors(top.stream().mapToInt(Integer::intValue).toArray(), v);
        }
        return out;
    }

    /** Same slots, scores within 1e-3; returns how many scores were not bit-identical. */
    static int assertSame(String what, Neighbors[] expected, Neighbors[] actual) {
        assertThat(actual).as(what + ": answers").hasSameSizeAs(expected);
        int inexact = 0;
        for (int i = 0; i < expected.length; i++) {
            assertThat(actual[i].slots()).as(what + ", query " + i + ": slots").containsExactly(expected[i].slots());
            for (int j = 0; j < expected[i].size(); j++) {
                assertThat((double) actual[i].scores()[j]).as(what + ", query " + i + ", rank " + j + ": score")
                        .isCloseTo(expected[i].scores()[j], org.assertj.core.data.Offset.offset(1e-3));
                if (Float.floatToRawIntBits(actual[i].scores()[j]) != Float.floatToRawIntBits(expected[i].scores()[j])) {
                    inexact++;
                }
            }
        }
        return inexact;
    }

    /** At least this many answers have k entries, and ties occur: the data exercise what they should. */
    static void assertInteresting(List<Batch> batches, List<Neighbors[]> answers) {
        int full = 0;
        int empty = 0;
        int ties = 0;
        for (int b = 0; b < batches.size(); b++) {
            for (Neighbors n : answers.get(b)) {
                if (n.size() == batches.get(b).k()) {
                    full++;
                }
                if (n.size() == 0) {
                    empty++;
                }
                for (int j = 1; j < n.size(); j++) {
                    if (n.scores()[j] == n.scores()[j - 1]) {
                        ties++;
                    }
                }
            }
        }
        assertThat(full).as("answers with k rows").isGreaterThan(20);
        assertThat(empty).as("empty answers").isGreaterThan(2);
        assertThat(ties).as("tied scores").isGreaterThan(2);
    }

    @Override
    public String toString() {
        return "ParityFixture" + Arrays.asList(seed, rowCount, dim);
    }
}
