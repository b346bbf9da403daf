package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;
import io.commitflow.gpu.EngineFullException;
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
 * is known.
 *
 * <p>Rows are numbered (their {@code seq}, also their engine stamp). A lookup names the {@link Window} of rows it
 * may see: {@link #window()} at the time a request is made is the newest {@code maxRows} rows learned so far, and the
 * same request answered later (after more rows were learned, or replayed after a failover from restored state) sees
 * exactly those rows again. Rows older than {@code maxRows + retainExtra} learned rows are deleted: the extra rows
 * keep the window of a request still in flight complete. Not thread-safe: the caller locks.
 *
 * <p>When the engine is full ({@link EngineFullException}: a CUDA engine's device budget), the repository leaves the
 * engine: its rows stay here and every lookup is answered by {@link #scan}, the exact CPU computation of the
 * engine's answer. Nothing fails and no row is forgotten; only the speed of this repository's lookups changes.
 */
public final class RepoKnowledge {
    /** A neighbour and its cosine similarity. */
    public record Neighbor(IndexedCommit commit, float score) {}

    /**
     * The neighbours' subjects, parsed, in their order: once per request, for the ranker and for the style votes,
     * which read each of them several times.
     */
    static List<Subject> subjects(List<Neighbor> nn) {
        List<Subject> out = new ArrayList<>(nn.size());
        for (Neighbor n : nn) {
            out.add(PARSED.get(n.commit().subject()));
        }
        return out;
    }

    /**
     * Parsed subjects of rows: a row is a neighbour of many commits, and parsing its subject (five regular
     * expressions) each time was a visible share of a suggestion. {@link Subject} is immutable.
     */
    private static final Memo<Subject> PARSED = new Memo<>(Subject::parse, 16_384);

    /** What learning changed, for the caller to persist: the new row and the rows evicted. */
    public record Learned(IndexedCommit added, List<Long> evicted) {}

    /** The rows a lookup may see: running numbers in {@code [from, to)}. */
    public record Window(long from, long to) implements java.io.Serializable {
        public boolean contains(long seq) {
            return seq >= from && seq < to;
        }
    }

    private static final int TIE_MARGIN = 8;

    private final RetrievalEngine engine;
    private final int group;
    private final RepoModel model;
    private final int maxRows;
    private final int retainExtra;
    private final TreeMap<Long, IndexedCommit> rows = new TreeMap<>();
    private final Map<Long, Integer> slotOf = new HashMap<>();
    private final Map<Long, Integer> bagSlotOf = new HashMap<>();
    private final Map<Integer, IndexedCommit> bySlot = new HashMap<>();
    private final Map<Integer, IndexedCommit> byBagSlot = new HashMap<>();
    /**
     * Rows by their net line fingerprint ({@link #net}), oldest first: how a revert finds what it reverts. The net
     * change, not the added and removed lines apart: a diff algorithm aligns a change and its revert differently (JGit's
     * histogram diff matched a closing brace in vuejs/core's "cleanup component effect scopes after SSR render" that
     * it left changed in the revert), but what the two do to the files is exactly opposite whatever the alignment.
     */
    private final Map<Long, List<IndexedCommit>> byLines = new HashMap<>();
    /**
     * False once the engine had no room for a row, or from the start without an engine: lookups are then answered by
     * {@link #scan}.
     */
    private boolean onEngine;

    private RepoKnowledge(RetrievalEngine engine, int group, RepoModel model, int maxRows, int retainExtra) {
        if (maxRows < 1 || group < 0 || retainExtra < 0) {
            throw new IllegalArgumentException("maxRows must be positive, group and retainExtra not negative: "
                    + maxRows + ", " + group + ", " + retainExtra);
        }
        this.engine = engine;
        this.onEngine = engine != null;
        this.group = group;
        this.model = model;
        this.maxRows = maxRows;
        this.retainExtra = retainExtra;
    }

    /** @param group the repository's engine group, zero or more (its complement holds the bag-of-words rows) */
    public static RepoKnowledge fresh(RetrievalEngine engine, int group, int maxRows) {
        return fresh(engine, group, maxRows, 0);
    }

    /** @param retainExtra rows kept beyond {@code maxRows} for windows of requests in flight */
    public static RepoKnowledge fresh(RetrievalEngine engine, int group, int maxRows, int retainExtra) {
        return new RepoKnowledge(engine, group, new RepoModel(engine.dimension()), maxRows, retainExtra);
    }

    /**
     * A memory on no engine ({@code dimension} wide): its rows stay here and every lookup is {@link #scan} — for a
     * tenant's fleet memory, which only young repositories look into.
     */
    public static RepoKnowledge withoutEngine(int dimension, int maxRows) {
        return new RepoKnowledge(null, 0, new RepoModel(dimension), maxRows, 0);
    }

    /** Rebuilds the memory from persisted state (rows in any order); a null {@code engine}: as {@link #withoutEngine}. */
    public static RepoKnowledge restore(RetrievalEngine engine, int group, RepoModel model, Iterable<IndexedCommit> saved,
                                        int maxRows, int retainExtra) {
        RepoKnowledge k = new RepoKnowledge(engine, group, model, maxRows, retainExtra);
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

    public int group() {
        return group;
    }

    /** The rows a lookup made now may see: the newest {@code maxRows} learned so far. */
    public Window window() {
        return new Window(Math.max(0, model.nextSeq - maxRows), model.nextSeq);
    }

    /** The query vector of a diff, under the repository's current IDF. */
    public float[] vector(Map<String, Integer> terms) {
        return model.features.vector(terms);
    }

    /**
     * The nearest earlier commits in {@code window}: the {@code k} nearest by TF-IDF, joined by the {@code kBag}
     * nearest by bag of words; each with its TF-IDF similarity, by (similarity desc, age asc). Rows of events later
     * than {@code notAfter} are left out: when a repository's commits reach this stage out of order (they travel on
     * several subtasks), a commit is still described from earlier ones only.
     */
    public List<Neighbor> neighbors(float[] query, float[] bagQuery, int k, int kBag, long notAfter, Window window) {
        if (rows.isEmpty()) {
            return List.of();
        }
        if (!onEngine) {
            return scan(query, bagQuery, k, kBag, notAfter, window);
        }
        Neighbors[] nn;
        try {
            nn = engine.search(io.commitflow.gpu.Tier.SILVER, new int[] {group, bagGroup()},
                    new long[] {window.from(), window.from()}, new long[] {window.to(), window.to()},
                    new float[][] {query, bagQuery}, engineK(k, kBag));
        } catch (io.commitflow.gpu.EngineLostException e) {
            return scan(query, bagQuery, k, kBag, notAfter, window);
        }
        return neighbors(nn[0], nn[1], query, k, kBag, notAfter);
    }

    /** How many rows to ask the engine for, per query: the margin leaves room for rows of later events. */
    public static int engineK(int k, int kBag) {
        return Math.max(k, kBag) + TIE_MARGIN;
    }

    /** The engine group of the bag-of-words rows of this repository. */
    public int bagGroup() {
        return ~group;
    }

    /** Whether the repository's rows are in the engine; false once the engine had no room for one of them. */
    public boolean onEngine() {
        return onEngine;
    }

    /**
     * {@link #neighbors(float[], float[], int, int, long, Window)} from the engine's answers to the two queries (asked
     * elsewhere, for example in a batch with other repositories' queries).
     */
    public List<Neighbor> neighbors(Neighbors byTfIdf, Neighbors byBag, float[] query, int k, int kBag, long notAfter) {
        return joined(resolve(byTfIdf, bySlot), resolve(byBag, byBagSlot), query, k, kBag, notAfter);
    }

    /**
     * The same answer as the engine's, computed here from the rows' sparse vectors: for a request whose engine call
     * timed out or failed, and for every lookup once the repository has left a full engine. The scores are equal bit
     * for bit (a sparse dot product skips only zero terms); equal scores are ordered by slot, as the engine orders
     * them, or by row number off the engine.
     */
    public List<Neighbor> scan(float[] query, float[] bagQuery, int k, int kBag, long notAfter, Window window) {
        return scan(query, bagQuery, k, kBag, notAfter, window, row -> true);
    }

    /**
     * {@link #scan(float[], float[], int, int, long, Window)} over the rows that {@code include} accepts only (a
     * tenant's fleet memory leaves out the asking repository's own rows).
     */
    public List<Neighbor> scan(float[] query, float[] bagQuery, int k, int kBag, long notAfter, Window window,
                               java.util.function.Predicate<IndexedCommit> include) {
        int n = engineK(k, kBag);
        return joined(scanTop(query, window, n, false, include), scanTop(bagQuery, window, n, true, include), query,
                k, kBag, notAfter);
    }

    /** The TF-IDF neighbours joined by the bag-of-words ones, each with its TF-IDF similarity, best first. */
    private List<Neighbor> joined(List<Neighbor> byTfIdf, List<Neighbor> byBag, float[] query, int k, int kBag,
                                 long notAfter) {
        List<Neighbor> out = earlier(byTfIdf, notAfter, k);
        List<Neighbor> bag = earlier(byBag, notAfter, kBag);
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

    /** The engine's answer as rows, in the engine's order. */
    private static List<Neighbor> resolve(Neighbors nn, Map<Integer, IndexedCommit> rowsBySlot) {
        List<Neighbor> out = new ArrayList<>(nn.size());
        for (int i = 0; i < nn.size(); i++) {
            out.add(new Neighbor(rowsBySlot.get(nn.slots()[i]), nn.scores()[i]));
        }
        return out;
    }

    /** The engine's top {@code n} in {@code window}, computed here, in the engine's order. */
    private List<Neighbor> scanTop(float[] q, Window window, int n, boolean bag,
                                   java.util.function.Predicate<IndexedCommit> include) {
        record Hit(IndexedCommit row, long order, float score) {}
        List<Hit> hits = new ArrayList<>();
        for (IndexedCommit row : rows.subMap(window.from(), true, window.to(), false).values()) {
            if (!include.test(row)) {
                continue;
            }
            float s;
            if (bag) {
                float[] b = model.features.bag(row.signature());
                s = 0;
                for (int i = 0; i < b.length; i++) {
                    s += q[i] * b[i];
                }
            } else {
                s = dot(q, row);
            }
            long order = !onEngine ? row.seq() : bag ? bagSlotOf.get(row.seq()) : slotOf.get(row.seq());
            hits.add(new Hit(row, order, s));
        }
        hits.sort((a, b) -> a.score() != b.score() ? Float.compare(b.score(), a.score()) : Long.compare(a.order(), b.order()));
        List<Neighbor> out = new ArrayList<>(Math.min(n, hits.size()));
        for (int i = 0; i < Math.min(n, hits.size()); i++) {
            out.add(new Neighbor(hits.get(i).row(), hits.get(i).score()));
        }
        return out;
    }

    /** The best {@code k} of ranked rows whose events are not later than {@code notAfter}. */
    private static List<Neighbor> earlier(List<Neighbor> ranked, long notAfter, int k) {
        List<Neighbor> out = new ArrayList<>();
        for (Neighbor n : ranked) {
            if (n.commit().ts() <= notAfter) {
                out.add(n);
            }
        }
        out.sort(BEST_FIRST);
        return out.size() > k ? new ArrayList<>(out.subList(0, k)) : out;
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

    public float[] bag(int[] signature) {
        return model.features.bag(signature);
    }

    /**
     * Learns a commit whose real message is known: it joins the index with {@code vector} (computed before this
     * commit counted in the IDF), and the model counts its terms and subject.
     */
    public Learned learn(DiffedCommit d, DiffFeatures features, float[] vector, String message) {
        String subject = Subject.headline(message);
        List<String> files = fileNames(d);
        IndexedCommit row = IndexedCommit.of(model.nextSeq++, d.commit().sha(), subject, files, vector,
                features.signature(), features.lines(), d.commit().ts(), features.versionShape(),
                d.commit().parents().size() > 1, d.commit().author());
        insert(row);
        model.features.learn(features.terms());
        // a bot's type for a diff of one kind ("ci(deps)" for a workflow bump) is no habit of the repository's people
        PathKind kind = Authors.isBot(d.commit().author()) ? null : PathKind.of(d);
        FileChange main = StyleApplier.mainFile(d);
        Subject parsed = Subject.parse(subject);
        model.style.learn(parsed, files, kind, folders(d), main == null ? null : main.path());
        Changelog.Entry entry = Changelog.added(d.patch());
        if (entry != null) {
            model.style.learnChangelog(entry.text(), entry.issue(), subject, Changelog.onlyLogs(d));
        }
        model.style.learnRelease(d.patch(), subject);
        model.style.learnOwnTicket(parsed, d.patch());
        List<Long> evicted = new ArrayList<>();
        while (rows.size() > maxRows + retainExtra) {
            long oldest = rows.firstKey();
            if (onEngine) {
                removeFromEngine(oldest);
            }
            IndexedCommit gone = rows.remove(oldest);
            Long key = net(gone.added(), gone.removed());
            List<IndexedCommit> same = byLines.get(key);
            same.remove(gone);
            if (same.isEmpty()) {
                byLines.remove(key);
            }
            evicted.add(oldest);
        }
        return new Learned(row, evicted);
    }

    /**
     * The newest commit in {@code window}, of an event not later than {@code notAfter}, that a diff with these line
     * fingerprints reverts.
     */
    public IndexedCommit reverted(long[] lines, long notAfter, Window window) {
        long net = net(lines[0], lines[1]);
        if (net == 0) {
            return null; // no change to the files' lines, or lines only moved: nothing a revert could be told by
        }
        List<IndexedCommit> same = byLines.getOrDefault(-net, List.of());
        for (int i = same.size() - 1; i >= 0; i--) {
            IndexedCommit r = same.get(i);
            if (window.contains(r.seq()) && r.ts() <= notAfter) {
                return r;
            }
        }
        return null;
    }

    /**
     * The newest {@code n} commits in {@code window}, of events not later than {@code notAfter}, whose diffs only
     * moved lines ({@link #onlyMoves}), newest first: how this history titles such a diff ("Sort members", 80 times in
     * commons-lang).
     */
    public List<IndexedCommit> moves(int n, long notAfter, Window window) {
        List<IndexedCommit> same = byLines.getOrDefault(0L, List.of());
        List<IndexedCommit> out = new ArrayList<>();
        for (int i = same.size() - 1; i >= 0 && out.size() < n; i--) {
            IndexedCommit r = same.get(i);
            if (window.contains(r.seq()) && r.ts() <= notAfter && r.added() != 0 && !r.merge()) {
                out.add(r);
            }
        }
        return out;
    }

    /** A diff with these line fingerprints only moves lines: it changes some, and removes each line it adds. */
    public static boolean onlyMoves(long[] lines) {
        return lines[0] != 0 && net(lines[0], lines[1]) == 0;
    }

    /** The newest {@code n} rows in {@code window}, oldest first. */
    public List<IndexedCommit> newest(int n, Window window) {
        List<IndexedCommit> out = new ArrayList<>();
        for (IndexedCommit r : rows.subMap(window.from(), true, window.to(), false).descendingMap().values()) {
            if (out.size() == n) {
                break;
            }
            out.add(0, r);
        }
        return out;
    }

    private void insert(IndexedCommit row) {
        if (onEngine) {
            try {
                placeOnEngine(row);
            } catch (EngineFullException e) {
                leaveEngine();
            }
        }
        rows.put(row.seq(), row);
        byLines.computeIfAbsent(net(row.added(), row.removed()), x -> new ArrayList<>()).add(row);
    }

    /** Every folder name of {@code d}'s changed paths ({@code packages}, {@code runtime-core}, {@code src}). */
    static java.util.Set<String> folders(DiffedCommit d) {
        java.util.Set<String> folders = new java.util.HashSet<>();
        for (FileChange f : d.files()) {
            String[] parts = f.path().split("/");
            folders.addAll(List.of(parts).subList(0, parts.length - 1));
        }
        return folders;
    }

    /**
     * What a diff does to its files' lines, whatever lines its alignment calls changed: the sum of the added lines'
     * hashes less the removed lines' (a line the diff keeps as context, or removes and adds back, counts for nothing).
     * A revert's is exactly the negative of the reverted commit's.
     */
    static long net(long added, long removed) {
        return added - removed;
    }

    /** Both of the row's vectors into the engine, or neither. */
    private void placeOnEngine(IndexedCommit row) {
        int slot = engine.add(group, row.seq(), row.dense(engine.dimension()));
        int bagSlot;
        try {
            bagSlot = engine.add(bagGroup(), row.seq(), model.features.bag(row.signature()));
        } catch (RuntimeException e) {
            engine.remove(slot);
            throw e;
        }
        slotOf.put(row.seq(), slot);
        bySlot.put(slot, row);
        bagSlotOf.put(row.seq(), bagSlot);
        byBagSlot.put(bagSlot, row);
    }

    private void removeFromEngine(long seq) {
        int slot = slotOf.remove(seq);
        engine.remove(slot);
        bySlot.remove(slot);
        int bagSlot = bagSlotOf.remove(seq);
        engine.remove(bagSlot);
        byBagSlot.remove(bagSlot);
    }

    /** The engine is full: free this repository's slots for the others and answer its lookups by {@link #scan}. */
    private void leaveEngine() {
        for (long seq : new ArrayList<>(slotOf.keySet())) {
            removeFromEngine(seq);
        }
        onEngine = false;
    }

    /** Changed files' names without extension, most lines changed first, at most eight. */
    public static List<String> fileNames(DiffedCommit d) {
        return fileNames(d, f -> true);
    }

    /** {@link #fileNames(DiffedCommit)} of the changed files that {@code keep} accepts. */
    static List<String> fileNames(DiffedCommit d, java.util.function.Predicate<FileChange> keep) {
        List<FileChange> files = new ArrayList<>(d.files());
        files.sort(Comparator.comparingInt((FileChange f) -> -(f.added() + f.deleted())).thenComparing(FileChange::path));
        List<String> out = new ArrayList<>();
        for (FileChange f : files) {
            if (!keep.test(f)) {
                continue;
            }
            String p = f.path();
            String base = Faithfulness.stem(p.substring(p.lastIndexOf('/') + 1));
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
