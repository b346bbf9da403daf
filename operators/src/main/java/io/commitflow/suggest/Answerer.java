package io.commitflow.suggest;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.Suggestion;
import io.commitflow.generate.DiffFeatures;
import io.commitflow.generate.Draft;
import io.commitflow.generate.ExemplarRanker;
import io.commitflow.generate.RepoKnowledge;
import io.commitflow.generate.RetrievalGenerator;
import io.commitflow.git.DiffedCommit;
import io.commitflow.gpu.Neighbors;
import io.commitflow.gpu.Tier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Answers requests against a {@link TaskIndex}: a batch in one engine call (retried after failures, then the exact
 * CPU scan), or one request by the scan alone. No Flink here: {@link SuggestAsync} runs it in its workers and its
 * timeout, tests call it directly.
 */
final class Answerer {
    private static final Logger LOG = LoggerFactory.getLogger(Answerer.class);

    /**
     * What a batch came to: per request a suggestion or the error that stopped it, the nearest earlier commits it
     * was written from (for an LLM's prompt), and how the engine fared.
     */
    record Outcome(List<Object> results, List<List<io.commitflow.llm.Prompts.Exemplar>> exemplars, int retries,
                   boolean scanned) {}

    static final int PROMPT_EXEMPLARS = 8;

    private static List<io.commitflow.llm.Prompts.Exemplar> exemplars(List<RepoKnowledge.Neighbor> nn) {
        List<io.commitflow.llm.Prompts.Exemplar> out = new ArrayList<>();
        for (RepoKnowledge.Neighbor n : nn) {
            if (out.size() == PROMPT_EXEMPLARS) {
                break;
            }
            out.add(new io.commitflow.llm.Prompts.Exemplar(n.commit().subject(), n.commit().files()));
        }
        return out;
    }

    private final TaskIndex index;
    private final RetrievalGenerator generator;
    private final int maxRetries;

    Answerer(TaskIndex index, RetrievalGenerator generator, int maxRetries) {
        this.index = index;
        this.generator = generator;
        this.maxRetries = maxRetries;
    }

    /** Answers a batch under the index's read lock. */
    Outcome answer(Tier tier, List<SuggestRequest> batch) {
        int dim = index.engine().dimension();
        ExemplarRanker.Weights w = generator.weights();
        List<Object> results = new ArrayList<>(batch.size());
        List<List<io.commitflow.llm.Prompts.Exemplar>> prompts = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            prompts.add(List.of());
        }
        index.lock().readLock().lock();
        try {
            List<Integer> known = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                String repo = batch.get(i).repo();
                if (index.repo(repo) == null) {
                    results.add(notIndexed(repo));
                } else {
                    results.add(null);
                    known.add(i);
                }
            }
            int n = known.size();
            int[] groups = new int[2 * n];
            long[] from = new long[2 * n];
            long[] to = new long[2 * n];
            float[][] queries = new float[2 * n][];
            for (int j = 0; j < n; j++) {
                SuggestRequest r = batch.get(known.get(j));
                RepoKnowledge memory = index.repo(r.repo());
                groups[2 * j] = memory.group();
                groups[2 * j + 1] = memory.bagGroupId();
                from[2 * j] = from[2 * j + 1] = r.windowFrom();
                to[2 * j] = to[2 * j + 1] = r.windowTo();
                queries[2 * j] = r.query(dim);
                queries[2 * j + 1] = memory.bag(r.signature());
            }
            int[] retries = {0};
            Neighbors[] nn = n == 0 ? new Neighbors[0] : search(tier, groups, from, to, queries, RepoKnowledge.engineK(w.k(), w.kBag()), retries);
            long now = System.currentTimeMillis();
            for (int j = 0; j < n; j++) {
                int i = known.get(j);
                SuggestRequest r = batch.get(i);
                try {
                    if (nn == null) {
                        results.set(i, scan(r));
                    } else {
                        RepoKnowledge memory = index.repo(r.repo());
                        List<RepoKnowledge.Neighbor> neighbours = memory.neighbors(nn[2 * j], nn[2 * j + 1], queries[2 * j],
                                w.k(), w.kBag(), r.diff().commit().ts());
                        prompts.set(i, exemplars(neighbours));
                        results.set(i, suggestion(r.diff(), generator.compose(r.diff(), features(r), memory, r.window(),
                                r.conventions(), neighbours), "miss", now));
                    }
                } catch (RuntimeException e) {
                    results.set(i, e);
                }
            }
            return new Outcome(results, prompts, retries[0], nn == null);
        } finally {
            index.lock().readLock().unlock();
        }
    }

    /** The engine's answer, retried after failures (backoff 5 ms × 4ⁿ); null when every try failed. */
    private Neighbors[] search(Tier tier, int[] groups, long[] from, long[] to, float[][] queries, int k, int[] retries) {
        long backoff = 5;
        for (int attempt = 0; ; attempt++) {
            try {
                return index.engine().search(tier, groups, from, to, queries, k);
            } catch (RuntimeException e) {
                if (attempt >= maxRetries) {
                    LOG.warn("the {} engine failed {} times; answering {} requests from the CPU scan",
                            index.engine().name(), attempt + 1, queries.length / 2, e);
                    return null;
                }
                retries[0]++;
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return null;
                }
                backoff *= 4;
            }
        }
    }

    /** One request answered by the exact CPU scan over its repository's rows, under the read lock. */
    Suggestion scanLocked(SuggestRequest r) {
        index.lock().readLock().lock();
        try {
            return scan(r);
        } finally {
            index.lock().readLock().unlock();
        }
    }

    private Suggestion scan(SuggestRequest r) {
        RepoKnowledge memory = index.repo(r.repo());
        if (memory == null) {
            throw notIndexed(r.repo());
        }
        ExemplarRanker.Weights w = generator.weights();
        float[] query = r.query(index.engine().dimension());
        List<RepoKnowledge.Neighbor> nn = memory.scan(query, memory.bag(r.signature()), w.k(), w.kBag(),
                r.diff().commit().ts(), r.window());
        return suggestion(r.diff(), generator.compose(r.diff(), features(r), memory, r.window(), r.conventions(), nn), "miss",
                System.currentTimeMillis());
    }

    private static IllegalStateException notIndexed(String repo) {
        return new IllegalStateException("repository " + repo + " is not in this task's retrieval index: the index and "
                + "suggest operators must run in one task (keep pipeline.operator-chaining enabled)");
    }

    private static DiffFeatures features(SuggestRequest r) {
        return new DiffFeatures(Map.of(), r.signature(), r.lines(), r.newVersions());
    }

    /** The output record; latency runs from the event's Kafka timestamp to {@code now}. */
    static Suggestion suggestion(DiffedCommit diff, Draft d, String cacheFlag, long now) {
        CommitEvent c = diff.commit();
        return new Suggestion(c.repo(), c.sha(), d.subject(), d.body(), d.type(), d.scope(), d.backend(), d.similarity(),
                d.exemplars(), cacheFlag, Math.max(0, now - c.origin().kafkaTs()), c.traceId(), c.tenant(),
                diff.truncation(), c.ts(), c.origin().kafkaTs(), "");
    }
}
