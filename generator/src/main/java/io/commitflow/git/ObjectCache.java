package io.commitflow.git;

import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The trees and blobs of the last commits diffed, inflated, least recently used first out. A commit's old side is
 * mostly the new side of the commit diffed just before it (its parent, or, walking back, its child): the same
 * root and directory trees, and the old version of each file it changes is the new version of the last commit that
 * changed it. Reading them again from the pack means an index search, inflating and applying deltas; about 40% of
 * the trees and blobs a run of consecutive commits opens were opened by one of the commits just before.
 *
 * <p>Entries are keyed by the repository (its Git directory) and the object id, so that no tenant's objects are
 * ever served for another's mirror. Only objects of at most {@link #MAX_ENTRY_BYTES} (and the blob budget) are
 * kept. Objects are content addressed: a cached copy is the object, so the diff does not change. Not thread-safe:
 * one per {@link CommitDiffer}.
 */
final class ObjectCache {
    /** Bytes of object content kept by default. */
    static final long DEFAULT_BYTES = 16L << 20;
    /** Larger objects pass through uncached. */
    static final int MAX_ENTRY_BYTES = 1 << 20;
    private static final int ENTRY_OVERHEAD = 96;

    private final long maxBytes;
    private final int maxEntryBytes;
    private long bytes;
    private long hits;
    private long misses;
    private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(1024, 0.75f, true);

    private record Key(Object repository, AnyObjectId id) {} // AnyObjectId: equal by value, whatever its class

    private record Entry(int type, byte[] data) {}

    /**
     * @param maxBytes      bytes of content kept (0: no cache)
     * @param maxEntryBytes larger objects pass through uncached (and are not inflated here); at most
     *                      {@link #MAX_ENTRY_BYTES}
     */
    ObjectCache(long maxBytes, int maxEntryBytes) {
        this.maxBytes = maxBytes;
        this.maxEntryBytes = Math.min(maxEntryBytes, MAX_ENTRY_BYTES);
    }

    /**
     * A reader that serves trees and blobs of {@code repository} (any key naming one repository, compared with
     * {@code equals}) from this cache, else from {@code reader}.
     */
    ObjectReader reader(Object repository, ObjectReader reader) {
        return maxBytes <= 0 ? reader : new Reader(repository, reader);
    }

    long hits() {
        return hits;
    }

    long misses() {
        return misses;
    }

    long bytes() {
        return bytes;
    }

    private Entry get(Object repository, AnyObjectId id) {
        return entries.get(new Key(repository, id));
    }

    private void put(Object repository, AnyObjectId id, Entry e) {
        Entry old = entries.put(new Key(repository, id.copy()), e);
        if (old != null) {
            bytes -= old.data.length + ENTRY_OVERHEAD;
        }
        bytes += e.data.length + ENTRY_OVERHEAD;
        var it = entries.entrySet().iterator();
        while (bytes > maxBytes && it.hasNext()) {
            Map.Entry<Key, Entry> eldest = it.next();
            bytes -= eldest.getValue().data.length + ENTRY_OVERHEAD;
            it.remove();
        }
    }

    /** Delegates everything but the opening (and sizing) of trees and blobs. Closing it closes the delegate. */
    private final class Reader extends ObjectReader.Filter {
        private final Object repository;
        private final ObjectReader delegate;

        Reader(Object repository, ObjectReader delegate) {
            this.repository = repository;
            this.delegate = delegate;
        }

        @Override
        protected ObjectReader delegate() {
            return delegate;
        }

        @Override
        public ObjectLoader open(AnyObjectId objectId, int typeHint)
                throws MissingObjectException, IncorrectObjectTypeException, IOException {
            if (typeHint != Constants.OBJ_BLOB && typeHint != Constants.OBJ_TREE) {
                return delegate.open(objectId, typeHint);
            }
            Entry e = get(repository, objectId);
            if (e != null && e.type == typeHint) {
                hits++;
                return new ObjectLoader.SmallObject(e.type, e.data);
            }
            // a type other than the hint: the delegate reports it as it would have
            ObjectLoader loader = delegate.open(objectId, typeHint);
            if (loader.isLarge() || loader.getSize() > maxEntryBytes) {
                return loader;
            }
            misses++;
            byte[] data = loader.getCachedBytes();
            put(repository, objectId, new Entry(loader.getType(), data));
            return new ObjectLoader.SmallObject(loader.getType(), data);
        }

        @Override
        public long getObjectSize(AnyObjectId objectId, int typeHint)
                throws MissingObjectException, IncorrectObjectTypeException, IOException {
            if (typeHint == Constants.OBJ_BLOB || typeHint == Constants.OBJ_TREE) {
                Entry e = get(repository, objectId);
                if (e != null && e.type == typeHint) {
                    return e.data.length;
                }
            }
            return delegate.getObjectSize(objectId, typeHint);
        }
    }
}
