package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;
import io.commitflow.gpu.Neighbors;
import io.commitflow.gpu.RetrievalEngine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One repository's memory: its rows in a retrieval engine (as one group), the rows' metadata by running number,
 * and its {@link RepoModel}. Answers "which earlier commits are nearest" and learns a commit once its real message
 * is known. At most {@code maxRows} rows: the oldest go first. Not thread-safe.
 */
public final class RepoKnowledge {
    /** A neighbour and its cosine similarity. */
    public record Neighbor(IndexedCommit commit, float score) {}

    /** What learning changed, for the caller to persist: the new row and the rows evicted. */
    public record Learned(IndexedCommit added, List<Long> evicted) {}

    private static final int TIE_MARGIN = 8;

    private final RetrievalEngine engine;
    private final int group;
    private final RepoModel model;
    private final int maxRows;
    private final TreeMap<Long, IndexedCommit> rows = new TreeMap<>();
    private final Map<Long, Integer> slotOf = new HashMap<>();
    private final Map<Long, Integer> bagSlotOf = new HashMap<>();
    private final Map<Integer, IndexedCommit> bySlot = new HashMap<>();
    private final Map<Integer, IndexedCommit> byBagSlot = new HashMap<>();
    /** Rows by their (added, removed) line fingerprints, newest wins: how a revert finds what it reverts. */
    private final Map<List<Long>, IndexedCommit> byLines = new HashMap<>();

    private RepoKnowledge(RetrievalEngine engine, int group, RepoModel model, int maxRows) {
        if (maxRows < 1 || group < 0) {
            throw new IllegalArgumentException("maxRows must be positive and group not negative: " + maxRows + ", " + group);
        }
        this.engine = engine;
        this.group = group;
        this.model = model;
        this.maxRows = maxRows;
    }

    /** @param group the repository's engine group, zero or more (its complement holds the bag-of-words rows) */
    public static RepoKnowledge fresh(RetrievalEngine engine, int group, int maxRows) {
        return new RepoKnowledge(engine, group, new RepoModel(engine.dimension()), maxRows);
    }

    /** Rebuilds the memory from persisted state (rows in any order). */
    public static RepoKnowledge restore(RetrievalEngine engine, int group, RepoModel model, Iterable<IndexedCommit> saved,
                                        int maxRows) {
        RepoKnowledge k = new RepoKnowledge(engine, group, model, maxRows);
        List<IndexedCommit> sorted = new ArrayList<>();
        saved.forEach(sorted::add);
        sorted.sort(Comparator.comparingLong(IndexedCommit::seq));
        sorted.forEach(k::insert);
        return k;
    }

    public RepoModel model() {
        return model;
    }

    public int size() {
        return rows.size();
    }

    /** The query vector of a diff, under the repository's current IDF. */
    public float[] vector(Map<String, Integer> terms) {
        return model.features.vector(terms);
    }

    /**
     * The nearest earlier commits: the {@code k} nearest by TF-IDF, joined by the {@code kBag} nearest by bag of
     * words; each with its TF-IDF similarity, by (similarity desc, age asc). Rows of events later than
     * {@code notAfter} are left out: when a repository's commits reach this stage out of order (they travel on
     * several subtasks), a commit is still described from earlier ones only.
     */
    public List<Neighbor> neighbors(float[] query, float[] bagQuery, int k, int kBag, long notAfter) {
        if (rows.isEmpty()) {
            return List.of();
        }
        Neighbors[] nn = engine.search(new int[] {group, bagGroup()}, new float[][] {query, bagQuery},
                Math.max(k, kBag) + TIE_MARGIN);
        List<Neighbor> out = earlier(nn[0], bySlot, notAfter, k);
        List<Neighbor> bag = earlier(nn[1], byBagSlot, notAfter, kBag);
        java.util.Set<Long> have = new java.util.HashSet<>();
        out.forEach(n -> have.add(n.commit().seq()));
        for (Neighbor b : bag) {
            if (have.add(b.commit().seq())) {
                out.add(new Neighbor(b.commit(), dot(query, b.commit())));
            }
        }
        out.sort(BEST_FIRST);
        return out;
    }

    /** The best {@code k} of an engine answer whose rows are of events not later than {@code notAfter}. */
    private static List<Neighbor> earlier(Neighbors nn, Map<Integer, IndexedCommit> rowsBySlot, long notAfter, int k) {
        List<Neighbor> out = new ArrayList<>();
        for (int i = 0; i < nn.size(); i++) {
            IndexedCommit row = rowsBySlot.get(nn.slots()[i]);
            if (row.ts() <= notAfter) {
                out.add(new Neighbor(row, nn.scores()[i]));
            }
        }
        out.sort(BEST_FIRST);
        return out.size() > k ? new ArrayList<>(out.subList(0, k)) : out;
    }

    /** The {@code k} nearest earlier commits by TF-IDF alone. */
    public List<Neighbor> neighbors(float[] query, int k) {
        return neighbors(query, new float[engine.dimension()], k, 0, Long.MAX_VALUE);
    }

    private static final Comparator<Neighbor> BEST_FIRST =
            Comparator.comparingDouble((Neighbor n) -> -n.score()).thenComparingLong(n -> n.commit().seq());

    private static float dot(float[] dense, IndexedCommit row) {
        float s = 0;
        for (int i = 0; i < row.index().length; i++) {
            s += dense[row.index()[i]] * row.value()[i];
        }
        return s;
    }

    /** The engine group of the bag-of-words rows: the complement of the TF-IDF group, never another repository's. */
    private int bagGroup() {
        return ~group;
    }

    public float[] bag(int[] signature) {
        return model.features.bag(signature);
    }

    /**
     * Learns a commit whose real message is known: it joins the index with {@code vector} (computed before this
     * commit counted in the IDF), and the model counts its terms and subject.
     */
    public Learned learn(DiffedCommit d, DiffFeatures features, float[] vector, String message) {
        String subject = Subject.firstLine(message);
        List<String> files = fileNames(d);
        IndexedCommit row = IndexedCommit.of(model.nextSeq++, d.commit().sha(), subject, files, vector,
                features.signature(), features.lines(), d.commit().ts(), features.versionShape(),
                d.commit().parents().size() > 1);
        insert(row);
        model.features.learn(features.terms());
        model.style.learn(Subject.parse(subject), files);
        List<Long> evicted = new ArrayList<>();
        while (rows.size() > maxRows) {
            long oldest = rows.firstKey();
            int slot = slotOf.remove(oldest);
            engine.remove(slot);
            bySlot.remove(slot);
            int bagSlot = bagSlotOf.remove(oldest);
            engine.remove(bagSlot);
            byBagSlot.remove(bagSlot);
            IndexedCommit gone = rows.remove(oldest);
            byLines.remove(List.of(gone.added(), gone.removed()), gone);
            evicted.add(oldest);
        }
        return new Learned(row, evicted);
    }

    /** The commit, of an event not later than {@code notAfter}, that a diff with these line fingerprints reverts. */
    public IndexedCommit reverted(long[] lines, long notAfter) {
        if (lines[0] == 0 && lines[1] == 0) {
            return null;
        }
        IndexedCommit r = byLines.get(List.of(lines[1], lines[0]));
        return r != null && r.ts() <= notAfter ? r : null;
    }

    /** The most recently learned commit of an event not later than {@code notAfter}, or null. */
    public IndexedCommit latest(long notAfter) {
        for (IndexedCommit r : rows.descendingMap().values()) {
            if (r.ts() <= notAfter) {
                return r;
            }
        }
        return null;
    }

    private void insert(IndexedCommit row) {
        int slot = engine.add(group, row.dense(engine.dimension()));
        int bagSlot = engine.add(bagGroup(), model.features.bag(row.signature()));
        rows.put(row.seq(), row);
        slotOf.put(row.seq(), slot);
        bySlot.put(slot, row);
        bagSlotOf.put(row.seq(), bagSlot);
        byBagSlot.put(bagSlot, row);
        byLines.put(List.of(row.added(), row.removed()), row);
    }

    /** Changed files' names without extension, most lines changed first, at most eight. */
    public static List<String> fileNames(DiffedCommit d) {
        List<FileChange> files = new ArrayList<>(d.files());
        files.sort(Comparator.comparingInt((FileChange f) -> -(f.added() + f.deleted())).thenComparing(FileChange::path));
        List<String> out = new ArrayList<>();
        for (FileChange f : files) {
            String p = f.path();
            String name = p.substring(p.lastIndexOf('/') + 1);
            int dot = name.lastIndexOf('.');
            String base = dot > 0 ? name.substring(0, dot) : name;
            if (!base.isEmpty() && !out.contains(base)) {
                out.add(base);
            }
            if (out.size() == 8) {
                break;
            }
        }
        return out;
    }
}
