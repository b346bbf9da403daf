package io.commitflow.generate;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The results of a pure function of text that the generator asks again and again of the same few thousand texts (a
 * row's subject each time the row is a neighbour, a path each time a diff or a row names it), kept for any thread. A
 * bound, not an LRU: when full it starts again empty, so what is asked often is soon back. The function's results
 * must be immutable: every caller shares them.
 */
final class Memo<V> {
    private final ConcurrentHashMap<String, V> values = new ConcurrentHashMap<>();
    private final Function<String, V> function;
    private final int max;

    Memo(Function<String, V> function, int max) {
        this.function = function;
        this.max = max;
    }

    V get(String key) {
        V v = values.get(key);
        if (v == null) {
            v = function.apply(key);
            if (values.size() >= max) {
                values.clear();
            }
            values.put(key, v);
        }
        return v;
    }

    int size() {
        return values.size();
    }
}
