package io.commitflow.suggest;

import io.commitflow.event.CommitEvent;
import io.commitflow.generate.DiffFeatures;
import io.commitflow.generate.ExemplarRanker;
import io.commitflow.generate.FeatureSpace;
import io.commitflow.generate.IndexedCommit;
import io.commitflow.generate.RepoKnowledge;
import io.commitflow.generate.RepoModel;
import io.commitflow.generate.RetrievalGenerator;
import io.commitflow.git.DiffedCommit;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fleet memory, keyed by tenant: every commit a tenant's repositories teach the job, in one memory per tenant
 * (its newest {@code maxRows}), so that a young repository — fewer than {@value RetrievalGenerator#YOUNG} commits
 * learned — has exemplars before its own history has any. For a commit of a young repository it attaches the nearest
 * earlier commits of the tenant's <em>other</em> repositories that changed a file of the same name or whose diff is
 * much alike ({@link RetrievalGenerator#carryOver}); the suggest stage lets them compete with the repository's own
 * neighbours, while only its own neighbours vote on its form, as {@code commitflow eval --fleet} does.
 *
 * <p>Keyed state (RocksDB in the job): the tenant's model, its rows, each row's repository, and how many commits each
 * repository has learned (counted up to {@value RetrievalGenerator#YOUNG}). The memory of a tenant is loaded from that
 * state the first time one of its commits reaches the task, so it follows its key group through a rescale. Lookups
 * are the exact scan (no engine): only young repositories' commits make one.
 *
 * <p>What a young repository's commit finds depends on which of its tenant's other commits reached this stage first:
 * commits of different repositories have no order between them. A repository's own suggestions stop depending on
 * that after its first {@value RetrievalGenerator#YOUNG} commits.
 *
 * <p>Metrics: {@code fleetLookups} (commits of young repositories looked up), {@code fleetExemplars} (fleet
 * neighbours attached), {@code fleetRowsLearned} (counts).
 */
public final class FleetMemory extends KeyedProcessFunction<String, DiffedCommit, CommitWithFleet> {
    private static final long serialVersionUID = 1L;
    /** The stage's uid. */
    public static final String UID = "fleet";
    public static final KeySelector<DiffedCommit, String> BY_TENANT = new ByTenant();

    private final int maxRows;
    private final ExemplarRanker.Weights weights;

    private transient RepoStore store;
    private transient MapState<Long, String> rowRepo;
    private transient MapState<String, Integer> learnedByRepo;
    private transient Map<String, Tenant> tenants;
    private transient Counter lookups;
    private transient Counter exemplars;
    private transient Counter learned;

    /** A tenant's memory in the task and the repository of each of its rows. */
    private record Tenant(RepoKnowledge memory, Map<Long, String> repoOf) {}

    /** @param maxRows the tenant's newest commits kept (the suggest stage's history per repository) */
    public FleetMemory(int maxRows) {
        this(maxRows, new RetrievalGenerator().weights());
    }

    FleetMemory(int maxRows, ExemplarRanker.Weights weights) {
        if (maxRows < 1) {
            throw new IllegalArgumentException("the fleet memory must keep at least 1 commit: " + maxRows);
        }
        this.maxRows = maxRows;
        this.weights = weights;
    }

    @Override
    public void open(OpenContext openContext) {
        var context = getRuntimeContext();
        store = new RepoStore(context, "fleet-model", "fleet-rows");
        rowRepo = context.getMapState(new MapStateDescriptor<>("fleet-row-repo", Types.LONG, Types.STRING));
        learnedByRepo = context.getMapState(new MapStateDescriptor<>("fleet-learned", Types.STRING, Types.INT));
        tenants = new HashMap<>();
        var metrics = context.getMetricGroup();
        lookups = metrics.counter("fleetLookups");
        exemplars = metrics.counter("fleetExemplars");
        learned = metrics.counter("fleetRowsLearned");
    }

    @Override
    public void processElement(DiffedCommit d, Context ctx, Collector<CommitWithFleet> out) throws Exception {
        CommitEvent c = d.commit();
        Tenant t = tenant(ctx.getCurrentKey());
        String repo = c.repo();
        Integer count = learnedByRepo.get(repo);
        int own = count == null ? 0 : count;
        String message = c.message();
        boolean learns = !c.draft() && message != null && !message.isBlank();
        // what the diff reads as, computed once here for the lookup, the learning and the suggest stage after this one
        DiffFeatures features = null;
        float[] query = null;
        List<RepoKnowledge.Neighbor> fleet = List.of();
        boolean young = own < RetrievalGenerator.YOUNG && t.memory.size() > own;
        if (young || learns) {
            features = DiffFeatures.of(d);
        }
        if (young) {
            query = t.memory.vector(features.terms());
            fleet = nearest(t.memory, d, features, query, weights, row -> !repo.equals(t.repoOf.get(row.seq())));
            lookups.inc();
            exemplars.inc(fleet.size());
        }
        out.collect(new CommitWithFleet(d, features, fleet));
        if (!learns) {
            return;
        }
        if (query == null) {
            query = t.memory.vector(features.terms());
        }
        RepoKnowledge.Learned l = t.memory.learn(d, features, query, message);
        store.save(l, t.memory.model());
        long seq = l.added().seq();
        rowRepo.put(seq, repo);
        t.repoOf.put(seq, repo);
        for (long gone : l.evicted()) {
            rowRepo.remove(gone);
            t.repoOf.remove(gone);
        }
        if (own < RetrievalGenerator.YOUNG) {
            learnedByRepo.put(repo, own + 1);
        }
        learned.inc();
    }

    /**
     * A young repository's exemplars in its tenant's {@code memory}: the nearest rows that {@code include} accepts
     * (the tenant's other repositories), of events not later than this commit's, that changed a file of the same
     * name or whose diff is much alike ({@link RetrievalGenerator#carryOver}). {@code query} is {@code features}'
     * vector under the memory's IDF.
     */
    public static List<RepoKnowledge.Neighbor> nearest(RepoKnowledge memory, DiffedCommit d, DiffFeatures features,
                                                       float[] query, ExemplarRanker.Weights weights,
                                                       java.util.function.Predicate<IndexedCommit> include) {
        long ts = d.commit().ts();
        List<RepoKnowledge.Neighbor> theirs = memory.scan(query, memory.bag(features.signature()), weights.k(),
                weights.kBag(), ts, memory.window(), row -> row.ts() <= ts && include.test(row));
        return RetrievalGenerator.carryOver(d, theirs);
    }

    /** The tenant's memory, loaded from keyed state the first time the task meets it. */
    private Tenant tenant(String tenant) throws Exception {
        Tenant t = tenants.get(tenant);
        if (t != null) {
            return t;
        }
        RepoModel saved = store.model();
        RepoKnowledge memory;
        Map<Long, String> repoOf = new HashMap<>();
        if (saved == null) {
            memory = RepoKnowledge.withoutEngine(FeatureSpace.DEFAULT_DIMENSION, maxRows);
        } else {
            memory = RepoKnowledge.restore(null, 0, saved, store.rows(), maxRows, 0);
            for (Map.Entry<Long, String> e : rowRepo.entries()) {
                repoOf.put(e.getKey(), e.getValue());
            }
        }
        t = new Tenant(memory, repoOf);
        tenants.put(tenant, t);
        return t;
    }

    private static final class ByTenant implements KeySelector<DiffedCommit, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(DiffedCommit d) {
            return d.commit().tenant();
        }
    }
}
