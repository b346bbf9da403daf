package io.commitflow.suggest;

import io.commitflow.event.RepoKeys;
import io.commitflow.llm.LlmWriter;
import org.apache.flink.api.common.state.ListState;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The suggest stage's requests in flight, oldest first, each with its deadline. Touched by the task thread only:
 * workers hand their answers back through the mailbox, where {@link #complete} takes each entry out once.
 *
 * <p>At a checkpoint the pending requests are written to keyed state under their repository ({@link #snapshot}),
 * so that they move with their repository's key group when the job is restored at another parallelism, and a
 * repository's list is cleared at the first checkpoint that finds nothing of it in flight. The state therefore lives
 * from the checkpoint that wrote it until the next one.
 */
final class InFlight {
    /** A request and when it times out. {@code done} once answered (by a batch, the scan or the LLM). */
    static final class Entry {
        final SuggestRequest request;
        final long deadline;
        boolean done;
        /** For its trace (epoch ns, 0 when not traced): when it came, and the engine batch that answered it. */
        long startNs;
        long batchStartNs;
        long batchEndNs;
        int batchSize;
        boolean timedOut;
        LlmWriter.Call llmCall;

        Entry(SuggestRequest request, long deadline) {
            this.request = request;
            this.deadline = deadline;
        }
    }

    private final ArrayDeque<Entry> byAge = new ArrayDeque<>();
    private final RepoKeys keys;
    private int pending;
    /** Repositories whose list the last snapshot wrote (or a restore found): the next snapshot updates or clears them. */
    private Set<String> written = new HashSet<>();

    /** @param keys how keyed state names repositories: the keys the lists are written under */
    InFlight(RepoKeys keys) {
        this.keys = keys;
    }

    Entry add(SuggestRequest request, long deadline) {
        Entry e = new Entry(request, deadline);
        byAge.addLast(e);
        pending++;
        return e;
    }

    /** Marks the entry answered; false when it was answered already (a late batch after a timeout). */
    boolean complete(Entry e) {
        if (e.done) {
            return false;
        }
        e.done = true;
        pending--;
        dropAnsweredHead();
        return true;
    }

    int pending() {
        return pending;
    }

    /** The deadline of the oldest pending request, or {@link Long#MAX_VALUE} when none is pending. */
    long nextDeadline() {
        dropAnsweredHead();
        return byAge.isEmpty() ? Long.MAX_VALUE : byAge.peekFirst().deadline;
    }

    /** The pending entries whose deadline is {@code now} or earlier, oldest first (still pending: the caller answers them). */
    List<Entry> expired(long now) {
        List<Entry> out = new ArrayList<>();
        for (Entry e : byAge) {
            if (e.deadline > now) {
                break;
            }
            if (!e.done) {
                out.add(e);
            }
        }
        return out;
    }

    private void dropAnsweredHead() {
        while (!byAge.isEmpty() && byAge.peekFirst().done) {
            byAge.pollFirst();
        }
    }

    /**
     * Writes the pending requests to {@code state}, one list per repository; {@code setKey} makes a repository the
     * current key.
     */
    void snapshot(ListState<SuggestRequest> state, Consumer<String> setKey) throws Exception {
        Map<String, List<SuggestRequest>> now = new LinkedHashMap<>();
        for (Entry e : byAge) {
            if (!e.done) {
                now.computeIfAbsent(e.request.key(keys), r -> new ArrayList<>()).add(e.request);
            }
        }
        for (String repo : written) {
            if (!now.containsKey(repo)) {
                setKey.accept(repo);
                state.clear();
            }
        }
        for (Map.Entry<String, List<SuggestRequest>> e : now.entrySet()) {
            setKey.accept(e.getKey());
            state.update(e.getValue());
        }
        written = new HashSet<>(now.keySet());
    }

    /**
     * The requests a restored checkpoint held for these repositories (the ones this task now owns), in their order;
     * the next snapshot rewrites or clears their lists.
     */
    List<SuggestRequest> restore(ListState<SuggestRequest> state, Iterable<String> repos, Consumer<String> setKey)
            throws Exception {
        List<SuggestRequest> out = new ArrayList<>();
        for (String repo : repos) {
            setKey.accept(repo);
            Iterable<SuggestRequest> saved = state.get();
            if (saved != null) {
                saved.forEach(out::add);
            }
            written.add(repo);
        }
        return out;
    }
}
