package io.commitflow.suggest;

import io.commitflow.git.DiffedCommit;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.stream.Stream;

/**
 * Runs {@link IndexCommits} and, when it opens, loads every repository this task owns from keyed state into the
 * task's index before the first record — a plain keyed function could only do that lazily, one repository at a
 * time, which would leave requests Flink replays after a restore without their rows. With RocksDB this reads each
 * repository's rows once, at start.
 */
public final class IndexOperator extends KeyedProcessOperator<String, DiffedCommit, SuggestRequest> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(IndexOperator.class);

    public IndexOperator(IndexCommits function) {
        super(function);
    }

    @Override
    public void open() throws Exception {
        super.open();
        IndexCommits fn = (IndexCommits) userFunction;
        List<String> repos;
        org.apache.flink.runtime.state.KeyedStateBackend<String> backend = getKeyedStateBackend();
        try (Stream<String> keys = backend.getKeys(IndexCommits.MODEL_STATE, VoidNamespace.INSTANCE)) {
            repos = keys.toList();
        }
        long start = System.nanoTime();
        for (String repo : repos) {
            setCurrentKey(repo);
            fn.restoreCurrentKey(repo);
        }
        fn.indexReady();
        if (!repos.isEmpty()) {
            LOG.info("rebuilt the retrieval index of {} repositories ({} rows) in {} ms", repos.size(),
                    fn.index().engine().size() / 2, (System.nanoTime() - start) / 1_000_000);
        }
    }
}
