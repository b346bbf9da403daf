package io.commitflow.suggest;

import io.commitflow.generate.IndexedCommit;
import io.commitflow.generate.RepoKnowledge;
import io.commitflow.generate.RepoModel;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

import java.util.ArrayList;
import java.util.List;

/**
 * The repositories' memory in keyed state (RocksDB in the job), for the current repository: its {@link RepoModel}
 * and its rows by running number (the {@link FleetMemory} keeps a tenant's memory the same way, under its own names).
 * Written as each commit is learned; read only when a task starts, to build its {@link RetrievalIndex}. A row lives
 * until its repository has learned {@code maxRows + capacity} newer ones ({@link RepoKnowledge#learn} evicts it); a
 * model lives as long as the job.
 */
final class RepoStore {
    /** The state each learning repository has: the repositories of a task are listed by it. */
    static final String MODEL = "repo-model";

    private final ValueState<RepoModel> model;
    private final MapState<Long, IndexedCommit> rows;

    RepoStore(RuntimeContext context) {
        this(context, MODEL, "repo-rows");
    }

    /** A memory under these state names. */
    RepoStore(RuntimeContext context, String modelState, String rowsState) {
        model = context.getState(new ValueStateDescriptor<>(modelState, TypeInformation.of(RepoModel.class)));
        rows = context.getMapState(new MapStateDescriptor<>(rowsState, Types.LONG, TypeInformation.of(IndexedCommit.class)));
    }

    /** What learning a commit changed: the new row, the rows it evicted, the model. */
    void save(RepoKnowledge.Learned learned, RepoModel m) throws Exception {
        rows.put(learned.added().seq(), learned.added());
        for (long gone : learned.evicted()) {
            rows.remove(gone);
        }
        model.update(m);
    }

    /** The current repository's model, or null when it never learned a commit. */
    RepoModel model() throws Exception {
        return model.value();
    }

    List<IndexedCommit> rows() throws Exception {
        List<IndexedCommit> out = new ArrayList<>();
        rows.values().forEach(out::add);
        return out;
    }
}
