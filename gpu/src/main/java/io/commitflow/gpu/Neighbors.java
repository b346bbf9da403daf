package io.commitflow.gpu;

/**
 * The nearest rows of one query, best first: {@code slots[i]} scored {@code scores[i]} (cosine similarity of unit
 * vectors). Fewer than k when the query's group has fewer rows.
 */
public record Neighbors(int[] slots, float[] scores) {
    public int size() {
        return slots.length;
    }
}
