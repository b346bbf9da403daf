package io.commitflow.gpu;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An engine that can be lost: after a sticky CUDA error ({@link GpuException#sticky}) every later call would fail
 * too, so the first one marks the engine lost, logs once why, and from then on nothing reaches the device. A search
 * throws {@link EngineLostException} at once (the caller answers by the CPU scan, without retries and their
 * sleeps); an add throws {@link EngineFullException}, so each repository leaves the engine the way it does when the
 * budget is full and keeps its rows for the scan; a remove only forgets. A failure that is not sticky passes through
 * as it is, to be retried.
 */
public final class LosableEngine extends ForwardingEngine {
    private static final Logger LOG = LoggerFactory.getLogger(LosableEngine.class);

    private volatile String lost;

    public LosableEngine(RetrievalEngine inner) {
        super(inner);
    }

    /** Why the engine was lost (the sticky error), or null while it works. */
    public String lost() {
        return lost;
    }

    private RuntimeException check(RuntimeException e) {
        String code = GpuException.sticky(e);
        if (code == null) {
            return e;
        }
        synchronized (this) {
            if (lost == null) {
                lost = code;
                LOG.error("the {} engine is lost for the life of this task ({}): every search is answered by the exact "
                        + "CPU scan from now on; restart the TaskManager to use the device again", inner.name(), code, e);
            }
        }
        return gone(e);
    }

    private String lostMessage() {
        return "the " + inner.name() + " engine was lost (" + lost + ")";
    }

    private EngineLostException gone(Throwable cause) {
        return new EngineLostException(lostMessage(), cause);
    }

    @Override
    public int add(int group, long stamp, float[] vector) {
        if (lost != null) {
            throw new EngineFullException(lostMessage());
        }
        try {
            return inner.add(group, stamp, vector);
        } catch (RuntimeException e) {
            if (check(e) instanceof EngineLostException) {
                throw new EngineFullException(lostMessage());
            }
            throw e; // a full budget or any other failure that is not sticky, as it is
        }
    }

    @Override
    public void remove(int slot) {
        if (lost != null) {
            return; // nothing on a lost device needs freeing slot by slot
        }
        try {
            inner.remove(slot);
        } catch (RuntimeException e) {
            RuntimeException r = check(e);
            if (!(r instanceof EngineLostException)) {
                throw r;
            }
        }
    }

    @Override
    public Neighbors[] search(Tier tier, int[] groups, long[] from, long[] to, float[][] queries, int k) {
        if (lost != null) {
            throw gone(null);
        }
        try {
            return inner.search(tier, groups, from, to, queries, k);
        } catch (RuntimeException e) {
            throw check(e);
        }
    }
}
