package io.commitflow.gpu;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CpuEngineTest {
    private static final int DIM = 64;

    static float[] unit(Random r, int dim) {
        float[] v = new float[dim];
        double n = 0;
        for (int i = 0; i < dim; i++) {
            v[i] = (float) r.nextGaussian();
            n += v[i] * v[i];
        }
        float inv = (float) (1 / Math.sqrt(n));
        for (int i = 0; i < dim; i++) {
            v[i] *= inv;
        }
        return v;
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (double) a[i] * b[i];
        }
        return s;
    }

    @Test
    void findsTheSameTopKAsBruteForceWithinEachGroup() {
        Random r = new Random(42);
        try (CpuEngine e = new CpuEngine(DIM)) {
            List<float[]> rows = new ArrayList<>();
            List<Integer> groups = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) { // more than two blocks
                float[] v = unit(r, DIM);
                int g = i % 3;
                assertThat(e.add(g, v)).isEqualTo(i);
                rows.add(v);
                groups.add(g);
            }
            int[] qg = {0, 1, 2, 1};
            float[][] q = {unit(r, DIM), unit(r, DIM), unit(r, DIM), unit(r, DIM)};

            Neighbors[] got = e.search(qg, q, 7);

            for (int i = 0; i < q.length; i++) {
                final int qi = i;
                List<Integer> expected = new ArrayList<>();
                for (int s = 0; s < rows.size(); s++) {
                    if (groups.get(s) == qg[qi]) {
                        expected.add(s);
                    }
                }
                expected.sort(Comparator.comparingDouble((Integer s) -> -dot(q[qi], rows.get(s))));
                assertThat(got[i].slots()).containsExactly(expected.subList(0, 7).stream().mapToInt(Integer::intValue).toArray());
                for (int j = 0; j < 7; j++) {
                    assertThat((double) got[i].scores()[j]).isCloseTo(dot(q[i], rows.get(got[i].slots()[j])),
                            org.assertj.core.data.Offset.offset(1e-5));
                }
            }
        }
    }

    @Test
    void scoresAQueryTheSameAloneOrInABatch() {
        Random r = new Random(7);
        try (CpuEngine e = new CpuEngine(DIM)) {
            for (int i = 0; i < 500; i++) {
                e.add(0, unit(r, DIM));
            }
            float[][] batch = new float[9][];
            for (int i = 0; i < batch.length; i++) {
                batch[i] = unit(r, DIM);
            }
            Neighbors[] together = e.search(new int[9], batch, 5);
            for (int i = 0; i < batch.length; i++) {
                Neighbors alone = e.search(new int[] {0}, new float[][] {batch[i]}, 5)[0];
                assertThat(alone.slots()).containsExactly(together[i].slots());
                assertThat(alone.scores()).containsExactly(together[i].scores());
            }
        }
    }

    @Test
    void breaksTiesByLowerSlot() {
        try (CpuEngine e = new CpuEngine(2)) {
            float[] v = {1, 0};
            e.add(0, new float[] {0, 1});
            e.add(0, v);
            e.add(0, v);
            e.add(0, v);

            Neighbors n = e.search(new int[] {0}, new float[][] {v}, 2)[0];

            assertThat(n.slots()).containsExactly(1, 2);
            assertThat(n.scores()).containsExactly(1f, 1f);
        }
    }

    @Test
    void reusesRemovedSlotsAndForgetsTheirRows() {
        try (CpuEngine e = new CpuEngine(2)) {
            int a = e.add(5, new float[] {1, 0});
            int b = e.add(5, new float[] {0, 1});
            e.remove(a);

            assertThat(e.size()).isEqualTo(1);
            assertThat(e.search(new int[] {5}, new float[][] {{1, 0}}, 5)[0].slots()).containsExactly(b);
            assertThat(e.add(5, new float[] {0.6f, 0.8f})).isEqualTo(a);
            assertThat(e.search(new int[] {9}, new float[][] {{1, 0}}, 5)[0].size()).as("an unknown group").isZero();
        }
    }

    @Test
    void refusesVectorsOfTheWrongWidth() {
        try (CpuEngine e = new CpuEngine(4)) {
            assertThatThrownBy(() -> e.add(0, new float[3])).hasMessageContaining("3 dimensions");
            assertThatThrownBy(() -> e.search(new int[] {0}, new float[][] {new float[5]}, 1)).hasMessageContaining("5 dimensions");
            assertThatThrownBy(() -> e.remove(0)).hasMessageContaining("no row");
        }
    }

    @Test
    void stampWindowHidesRowsOutsideIt() {
        try (CpuEngine e = new CpuEngine(2)) {
            int old = e.add(1, 3, new float[] {1, 0});
            int mid = e.add(1, 4, new float[] {0.8f, 0.6f});
            int late = e.add(1, 5, new float[] {1, 0});
            Neighbors[] n = e.search(Tier.GOLD, new int[] {1, 1, 1}, new long[] {3, 4, 0}, new long[] {5, 5, 4},
                    new float[][] {{1, 0}, {1, 0}, {1, 0}}, 3);
            assertThat(n[0].slots()).as("[3, 5)").containsExactly(old, mid);
            assertThat(n[1].slots()).as("[4, 5)").containsExactly(mid);
            assertThat(n[2].slots()).as("[0, 4)").containsExactly(old);
            assertThat(e.search(new int[] {1}, new float[][] {{1, 0}}, 3)[0].slots()).as("no window")
                    .containsExactly(old, late, mid);
        }
    }

    @Test
    void sparseQueriesScoreBitForBitAsTheDenseSumInIndexOrder() {
        java.util.Random r = new java.util.Random(3);
        int dim = 256;
        try (CpuEngine e = new CpuEngine(dim)) {
            float[][] rows = new float[300][dim];
            for (float[] row : rows) {
                for (int j = 0; j < dim; j++) {
                    row[j] = r.nextInt(4) == 0 ? 0 : (float) r.nextGaussian();
                }
                e.add(0, row);
            }
            float[][] queries = new float[9][dim];
            boolean[] mask = new boolean[dim]; // the first four mostly share dimensions: they are scored together
            for (int j = 0; j < dim; j++) {
                mask[j] = r.nextInt(10) == 0;
            }
            for (int i = 0; i < queries.length; i++) {
                for (int j = 0; j < dim; j++) {
                    boolean on = i < 4 ? mask[j] && r.nextInt(8) != 0 : r.nextInt(10) == 0;
                    queries[i][j] = on ? (float) r.nextGaussian() : (r.nextInt(50) == 0 ? -0.0f : 0);
                }
            }
            Neighbors[] got = e.search(new int[9], queries, rows.length);
            for (int q = 0; q < queries.length; q++) {
                for (int i = 0; i < got[q].size(); i++) {
                    float dense = 0;
                    for (int j = 0; j < dim; j++) {
                        dense += queries[q][j] * rows[got[q].slots()[i]][j];
                    }
                    assertThat(Float.floatToIntBits(got[q].scores()[i])).as("query %d, row %d", q, got[q].slots()[i])
                            .isEqualTo(Float.floatToIntBits(dense));
                }
            }
        }
    }

    @Test
    void keepsAnswersExactThroughAddsAndRemovesAcrossTiles() {
        Random r = new Random(11);
        int dim = 16;
        java.util.Map<Integer, float[]> rows = new java.util.HashMap<>();
        java.util.Map<Integer, Integer> groupOf = new java.util.HashMap<>();
        java.util.Map<Integer, Long> stampOf = new java.util.HashMap<>();
        try (CpuEngine e = new CpuEngine(dim)) {
            for (int step = 0; step < 12_000; step++) {
                if (!rows.isEmpty() && r.nextInt(4) == 0) { // a quarter of the steps remove a random row
                    int victim = new ArrayList<>(rows.keySet()).get(r.nextInt(rows.size()));
                    e.remove(victim);
                    rows.remove(victim);
                } else {
                    int g = r.nextInt(10) == 0 ? 1 + r.nextInt(3) : 0; // group 0 crosses many tile boundaries
                    float[] v = unit(r, dim);
                    int slot = e.add(g, step, v);
                    assertThat(rows.put(slot, v)).as("slot %d handed out while live", slot).isNull();
                    groupOf.put(slot, g);
                    stampOf.put(slot, (long) step);
                }
                if (step % 1500 == 0 || step == 12_000 - 1) {
                    assertMatchesReference(e, rows, groupOf, stampOf, r, dim, step);
                }
            }
            assertThat(e.size()).isEqualTo(rows.size());
        }
    }

    @Test
    void sparseRowsScoreExactlyThroughDenseColumnsCompactionAndRemoves() {
        // a diff's vector: each dimension non-zero with its own chance, from always to never, so a block keeps some
        // dimensions as dense columns, some as entries and some not at all; a third of the steps past 300 rows remove
        // a row, so the group is compacted again and again
        Random r = new Random(5);
        int dim = 48;
        double[] chance = new double[dim];
        for (int j = 0; j < dim; j++) {
            chance[j] = j % 6 == 0 ? 0.9 : j % 6 == 1 ? 0 : 0.02 + 0.04 * (j % 5);
        }
        java.util.Map<Integer, float[]> rows = new java.util.HashMap<>();
        java.util.Map<Integer, Integer> groupOf = new java.util.HashMap<>();
        java.util.Map<Integer, Long> stampOf = new java.util.HashMap<>();
        try (CpuEngine e = new CpuEngine(dim)) {
            for (int step = 0; step < 8_000; step++) {
                if (rows.size() > 300 && r.nextInt(3) == 0) {
                    int victim = new ArrayList<>(rows.keySet()).get(r.nextInt(rows.size()));
                    e.remove(victim);
                    rows.remove(victim);
                } else {
                    int g = r.nextInt(8) == 0 ? 1 + r.nextInt(3) : 0;
                    float[] v = new float[dim];
                    for (int j = 0; j < dim; j++) {
                        v[j] = r.nextDouble() < chance[j] ? (float) r.nextGaussian() : 0;
                    }
                    int slot = e.add(g, step, v);
                    rows.put(slot, v);
                    groupOf.put(slot, g);
                    stampOf.put(slot, (long) step);
                }
                if (step % 700 == 0 || step == 8_000 - 1) {
                    assertMatchesReference(e, rows, groupOf, stampOf, r, dim, step);
                }
            }
            assertThat(e.size()).isEqualTo(rows.size());
        }
    }

    private static void assertMatchesReference(CpuEngine e, java.util.Map<Integer, float[]> rows,
                                               java.util.Map<Integer, Integer> groupOf,
                                               java.util.Map<Integer, Long> stampOf, Random r, int dim, int step) {
        int[] qg = {0, 1, 2, 3, 0};
        float[][] q = new float[qg.length][];
        long[] from = new long[qg.length];
        long[] to = new long[qg.length];
        for (int i = 0; i < q.length; i++) {
            q[i] = unit(r, dim);
            from[i] = i == 4 ? step / 3 : Long.MIN_VALUE;
            to[i] = i == 4 ? step / 2 + 1 : Long.MAX_VALUE;
        }
        Neighbors[] got = e.search(Tier.SILVER, qg, from, to, q, 9);
        for (int i = 0; i < q.length; i++) {
            final int qi = i;
            List<Integer> expected = new ArrayList<>();
            java.util.Map<Integer, Float> dense = new java.util.HashMap<>();
            for (var row : rows.entrySet()) {
                long stamp = stampOf.get(row.getKey());
                if (groupOf.get(row.getKey()) == qg[i] && stamp >= from[i] && stamp < to[i]) {
                    float s = 0;
                    for (int j = 0; j < dim; j++) {
                        s += q[i][j] * row.getValue()[j];
                    }
                    dense.put(row.getKey(), s);
                    expected.add(row.getKey());
                }
            }
            expected.sort(Comparator.comparing((Integer x) -> -dense.get(x)).thenComparing(x -> x));
            List<Integer> top = expected.subList(0, Math.min(9, expected.size()));
            assertThat(got[i].slots()).as("step %d query %d", step, qi)
                    .containsExactly(top.stream().mapToInt(Integer::intValue).toArray());
            for (int j = 0; j < top.size(); j++) {
                assertThat(Float.floatToIntBits(got[i].scores()[j])).isEqualTo(Float.floatToIntBits(dense.get(top.get(j))));
            }
        }
    }
}
