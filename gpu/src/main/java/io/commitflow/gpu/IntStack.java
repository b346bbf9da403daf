package io.commitflow.gpu;

import java.util.Arrays;

/**
 * The free slots of an engine, last freed first: both engines allocate slots through one of these, which is what
 * makes their slot numbers (and so their answers) the same.
 */
final class IntStack {
    private int[] items = new int[16];
    private int n;

    boolean isEmpty() {
        return n == 0;
    }

    void push(int x) {
        if (n == items.length) {
            items = Arrays.copyOf(items, n * 2);
        }
        items[n++] = x;
    }

    int pop() {
        return items[--n];
    }
}
