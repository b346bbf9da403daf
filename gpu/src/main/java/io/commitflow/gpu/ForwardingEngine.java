package io.commitflow.gpu;

/** An engine that forwards every call to another: extend it to change a few (a fault, a wrapper). */
public abstract class ForwardingEngine implements RetrievalEngine {
    protected final RetrievalEngine inner;

    protected ForwardingEngine(RetrievalEngine inner) {
        this.inner = inner;
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public int dimension() {
        return inner.dimension();
    }

    @Override
    public int size() {
        return inner.size();
    }

    @Override
    public long capacity() {
        return inner.capacity();
    }

    @Override
    public int add(int group, long stamp, float[] vector) {
        return inner.add(group, stamp, vector);
    }

    @Override
    public void remove(int slot) {
        inner.remove(slot);
    }

    @Override
    public Neighbors[] search(Tier tier, int[] groups, long[] from, long[] to, float[][] queries, int k) {
        return inner.search(tier, groups, from, to, queries, k);
    }

    @Override
    public void close() {
        inner.close();
    }
}
