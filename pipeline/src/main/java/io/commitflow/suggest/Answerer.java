package io.commitflow.suggest;

import io.commitflow.event.RepoKeys;
import io.commitflow.event.Suggestion;
import io.commitflow.generate.Draft;
import io.commitflow.generate.ExemplarRanker;
import io.commitflow.generate.RepoKnowledge;
import io.commitflow.generate.RetrievalGenerator;
import io.commitflow.gpu.EngineLostException;
import io.commitflow.gpu.Neighbors;
import io.commitflow.gpu.Tier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Answers requests from a {@link RetrievalIndex}: a batch in one engine call (retried after failures, then the exact
 * CPU scan), or one request by the scan alone. Each answer is the built-in generator's suggestion from the request's
 * neighbours. No Flink here: {@link SuggestOperator}'s workers and its timeout call it; tests call it directly.
 */
final class Answerer {
    private static final Logger LOG = LoggerFactory.getLogger(Answerer.class);
    /** The most alternatives a draft's suggestion lists. */
    static final int ALTERNATIVES = 4;

    /** A batch's answers, in the order of its requests, and how the engine fared: retries, and whether the scan answered. */
    record Batch(List<Answer> answers, int retries, boolean scanned) {}

    /** The engine's neighbours for each query, or null when every try failed; and the failed tries before it. */
    private record Search(Neighbors[] neighbours, int retries) {}

    private final RetrievalIndex index;
    private final RetrievalGenerator generator;
    private final int maxRetries;
    private final RepoKeys keys;

    /** @param keys how the index names repositories */
    Answerer(RetrievalIndex index, RetrievalGenerator generator, int maxRetries, RepoKeys keys) {
        this.index = index;
        this.generator = generator;
        this.maxRetries = maxRetries;
        this.keys = keys;
    }

    /**
     * Answers a batch under the index's read lock: the requests of repositories on the engine in one engine call of
     * two queries each (TF-IDF and bag of words), the others by the scan.
     */
    Batch answer(Tier tier, List<SuggestRequest> batch) {
        ExemplarRanker.Weights w = generator.weights();
        index.readLock().lock();
        try {
            // the j-th searched request asks queries 2j (TF-IDF) and 2j + 1 (bag of words); -1: not on the engine
            int[] place = new int[batch.size()];
            int n = 0;
            for (int i = 0; i < batch.size(); i++) {
                place[i] = memoryOf(batch.get(i)).onEngine() ? n++ : -1;
            }
            int[] groups = new int[2 * n];
            long[] from = new long[2 * n];
            long[] to = new long[2 * n];
            float[][] queries = new float[2 * n][];
            for (int i = 0; i < batch.size(); i++) {
                int j = place[i];
                if (j >= 0) {
                    SuggestRequest r = batch.get(i);
                    RepoKnowledge memory = memoryOf(r);
                    groups[2 * j] = memory.group();
                    groups[2 * j + 1] = memory.bagGroup();
                    from[2 * j] = from[2 * j + 1] = r.window().from();
                    to[2 * j] = to[2 * j + 1] = r.window().to();
                    queries[2 * j] = r.query();
                    queries[2 * j + 1] = memory.bag(r.features().signature());
                }
            }
            Search s = n == 0 ? new Search(new Neighbors[0], 0)
                    : search(tier, groups, from, to, queries, RepoKnowledge.engineK(w.k(), w.kBag()));
            List<Answer> answers = new ArrayList<>(batch.size());
            long now = System.currentTimeMillis();
            for (int i = 0; i < batch.size(); i++) {
                SuggestRequest r = batch.get(i);
                int j = place[i];
                if (j >= 0 && s.neighbours() != null) {
                    answers.add(write(r, memory -> memory.neighbors(s.neighbours()[2 * j], s.neighbours()[2 * j + 1],
                            r.query(), w.k(), w.kBag(), r.diff().commit().ts()), now));
                } else {
                    answers.add(scanLocked(r));
                }
            }
            return new Batch(answers, s.retries(), s.neighbours() == null);
        } finally {
            index.readLock().unlock();
        }
    }

    /** The engine's answer, retried after failures (backoff 5 ms × 4ⁿ); null neighbours when every try failed. */
    private Search search(Tier tier, int[] groups, long[] from, long[] to, float[][] queries, int k) {
        long backoff = 5;
        for (int attempt = 0; ; attempt++) {
            try {
                return new Search(index.engine().search(tier, groups, from, to, queries, k), attempt);
            } catch (EngineLostException e) {
                return new Search(null, attempt); // the device is gone for good: no retries, no sleeps
            } catch (RuntimeException e) {
                if (attempt >= maxRetries) {
                    LOG.warn("the {} engine failed {} times; answering {} requests from the CPU scan",
                            index.engine().name(), attempt + 1, queries.length / 2, e);
                    return new Search(null, attempt);
                }
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return new Search(null, attempt);
                }
                backoff *= 4;
            }
        }
    }

    /** One request answered by the exact CPU scan over its repository's rows, under the read lock. */
    Answer scan(SuggestRequest r) {
        index.readLock().lock();
        try {
            return scanLocked(r);
        } finally {
            index.readLock().unlock();
        }
    }

    private Answer scanLocked(SuggestRequest r) {
        ExemplarRanker.Weights w = generator.weights();
        return write(r, memory -> memory.scan(r.query(), memory.bag(r.features().signature()), w.k(), w.kBag(),
                r.diff().commit().ts(), r.window()), System.currentTimeMillis());
    }

    /** The request's suggestion from its neighbours, or the error that stopped it (this request's alone). */
    private Answer write(SuggestRequest r, Function<RepoKnowledge, List<RepoKnowledge.Neighbor>> neighbours, long now) {
        try {
            RepoKnowledge memory = memoryOf(r);
            List<RepoKnowledge.Neighbor> nn = neighbours.apply(memory);
            RetrievalGenerator.Composed composed = generator.composed(r.diff(), r.features(), memory, r.window(),
                    r.conventions(), r.ranker(), nn, r.fleet());
            Draft d = composed.draft();
            // an LLM tenant's prompt shows the candidates the draft was chosen from: a young repository's fleet too
            List<RepoKnowledge.Neighbor> shown = nn;
            if (!r.fleet().isEmpty()) {
                shown = new ArrayList<>(nn);
                shown.addAll(r.fleet());
            }
            Suggestion s = d.suggestion(r.diff(), "miss", now);
            if (r.diff().commit().draft()) {
                // someone waits at git commit and may prefer another: the other subjects it could take
                try {
                    s = s.withAlternatives(composed.others(ALTERNATIVES));
                } catch (RuntimeException e) {
                    LOG.warn("no alternatives for draft {} of {}; the suggestion goes without", r.diff().commit().sha(),
                            r.repo(), e);
                }
            }
            return new Answer.Written(s, shown);
        } catch (RuntimeException e) {
            return new Answer.Failed(e);
        }
    }

    /** A request's repository: in the index since the request was made (it is made after the repository is loaded). */
    private RepoKnowledge memoryOf(SuggestRequest r) {
        RepoKnowledge memory = index.repo(r.key(keys));
        if (memory == null) {
            throw new IllegalStateException("repository " + r.repo() + " has a request but is not in the index");
        }
        return memory;
    }
}
