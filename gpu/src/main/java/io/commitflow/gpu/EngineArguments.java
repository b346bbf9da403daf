package io.commitflow.gpu;

/** The argument checks every {@link RetrievalEngine} makes, in one place so that the engines refuse alike. */
final class EngineArguments {
    private EngineArguments() {}

    /** A row to add must have the engine's width. */
    static void checkVector(int dim, float[] vector) {
        if (vector.length != dim) {
            throw new IllegalArgumentException("vector has " + vector.length + " dimensions, the engine " + dim);
        }
    }

    /** A search needs a group and a stamp window per query, and queries of the engine's width. */
    static void checkSearch(int dim, int[] groups, long[] from, long[] to, float[][] queries) {
        if (groups.length != queries.length || from.length != queries.length || to.length != queries.length) {
            throw new IllegalArgumentException(groups.length + " groups, " + from.length + " and " + to.length
                    + " stamp bounds for " + queries.length + " queries");
        }
        for (float[] q : queries) {
            if (q.length != dim) {
                throw new IllegalArgumentException("query has " + q.length + " dimensions, the engine " + dim);
            }
        }
    }
}
