package io.commitflow.llm;

import io.commitflow.event.Suggestion;
import io.commitflow.generate.RepoKnowledge;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * Has a tenant's LLM rewrite the built-in generator's suggestion from the same exemplars: the repository's prompt
 * prefix ({@link PromptPrefixes}), then the nearest earlier commits and the diff fitted to the prompt budget. Every
 * fault ends in the built-in suggestion with the reason in its {@code note}, so the future never fails. One
 * {@link ResilientBackend} per endpoint (retries, circuit breaker, per-tenant limits), shared by its tenants.
 *
 * <p>What it counts goes to a {@link Meter}: the suggest stage reports {@code llmAnswers}, {@code llmFallbacks}
 * (counts) and {@code kv_reuse_ratio} (gauge, 0–1: reused prefix tokens / prompt tokens of the last answer — the
 * server's own count where it reports one, else our estimate).
 */
public final class LlmWriter implements AutoCloseable {
    /** The nearest commits a prompt shows beside its prefix. */
    static final int NEAREST = 8;

    private final Map<String, LlmSettings> settings;
    private final Map<String, ResilientBackend> byTenant = new HashMap<>();
    private final Duration deadline;
    private final Meter meter;

    /** What the writer's answers and fallbacks are counted by. */
    public interface Meter {
        /** An LLM answer went out; {@code kvReuse} is its reused prefix tokens / prompt tokens (0–1). */
        void answered(double kvReuse);

        /** The built-in suggestion went out instead of an LLM answer. */
        void fellBack();
    }

    /**
     * @param deadline how long a request may take, retries included
     * @param meter    counts answers and fallbacks
     */
    public LlmWriter(Map<String, LlmSettings> settings, Duration deadline, Meter meter) {
        this.settings = Map.copyOf(settings);
        this.deadline = deadline;
        this.meter = meter;
        if (!settings.isEmpty()) {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            Map<LlmSettings, ResilientBackend> byEndpoint = new HashMap<>();
            settings.forEach((tenant, s) -> byTenant.put(tenant, byEndpoint.computeIfAbsent(s,
                    x -> new ResilientBackend(x.create(http, System::getenv), x.breaker(), x.perTenant(),
                            Duration.ofMillis(100), Duration.ofSeconds(2), tenant.hashCode()))));
        }
    }

    public boolean writesFor(String tenant) {
        return byTenant.containsKey(tenant);
    }

    /**
     * The tenant's LLM's message in place of {@code builtIn}'s subject and body, or {@code builtIn} with a note
     * saying why not.
     *
     * @param patch   the commit's diff
     * @param prefix  the repository's prompt prefix for this request
     * @param nearest the nearest earlier commits, best first
     */
    public CompletableFuture<Suggestion> write(Suggestion builtIn, String patch, PromptPrefixes.Use prefix,
                                               List<RepoKnowledge.Neighbor> nearest) {
        return write(builtIn, patch, prefix, nearest, call -> { });
    }

    /**
     * One call to the tenant's LLM, as a trace shows it.
     *
     * @param provider     {@code openai} or {@code anthropic} (the API spoken)
     * @param model        the model asked
     * @param url          the endpoint
     * @param startMs      when the call began (epoch ms), retries included
     * @param endMs        when its answer (or failure) came
     * @param promptTokens the prompt's tokens as the server counted them (our estimate when it did not say)
     * @param kvReuse      reused prefix tokens / prompt tokens ({@code kv_reuse_ratio})
     * @param error        why the built-in suggestion went out instead, or null
     */
    public record Call(String provider, String model, String url, long startMs, long endMs, int promptTokens,
                       int cachedTokens, double kvReuse, String error) {}

    /** As {@link #write(Suggestion, String, PromptPrefixes.Use, List)}, telling {@code observer} about the call. */
    public CompletableFuture<Suggestion> write(Suggestion builtIn, String patch, PromptPrefixes.Use prefix,
                                               List<RepoKnowledge.Neighbor> nearest, Consumer<Call> observer) {
        long startMs = System.currentTimeMillis();
        ResilientBackend llm = byTenant.get(builtIn.tenant());
        LlmSettings s = settings.get(builtIn.tenant());
        List<Prompts.Exemplar> exemplars = exemplars(nearest);
        String system = Prompts.system(prefix.text(), s.instructions());
        int prefixTokens = Prompts.tokens(system);
        int room = Math.max(64, s.promptTokens() - prefixTokens - Prompts.tokens(Prompts.user(exemplars, "")));
        String user = Prompts.user(exemplars, Prompts.fitDiff(patch, room));
        int promptEstimate = prefixTokens + Prompts.tokens(user);
        int reusedEstimate = prefix.reused() ? prefixTokens : 0;
        return llm.complete(builtIn.tenant(), new LlmRequest(system, user, s.maxTokens()), deadline)
                .handle((reply, error) -> {
                    long endMs = System.currentTimeMillis();
                    if (error != null) {
                        meter.fellBack();
                        observer.accept(new Call(s.kind(), s.model(), s.url(), startMs, endMs, promptEstimate, 0, 0,
                                reason(error)));
                        return builtIn.withNote("llm fallback: " + reason(error));
                    }
                    double reuse = reply.promptTokens() > 0 && reply.cachedTokens() > 0
                            ? Prompts.kvReuseRatio(reply.cachedTokens(), reply.promptTokens())
                            : Prompts.kvReuseRatio(reusedEstimate, promptEstimate);
                    var m = CommitMessages.clean(reply.text());
                    observer.accept(new Call(s.kind(), s.model(), s.url(), startMs, endMs,
                            reply.promptTokens() > 0 ? reply.promptTokens() : promptEstimate, reply.cachedTokens(),
                            reuse, m.isEmpty() ? "the reply is not a commit message" : null));
                    if (m.isEmpty()) {
                        meter.fellBack();
                        return builtIn.withNote("llm fallback: the reply is not a commit message");
                    }
                    meter.answered(reuse);
                    long latency = Math.max(0, System.currentTimeMillis() - builtIn.kafkaTs());
                    return builtIn.writtenBy(llm.name(), m.get().subject(), m.get().body(), latency);
                });
    }

    /** Counts a request its LLM did not answer in time (the CPU scan's suggestion went out instead). */
    public Suggestion timedOut(Suggestion builtIn) {
        meter.fellBack();
        return builtIn.withNote("llm fallback: no answer within the async timeout");
    }

    private static List<Prompts.Exemplar> exemplars(List<RepoKnowledge.Neighbor> nearest) {
        List<Prompts.Exemplar> out = new ArrayList<>();
        for (RepoKnowledge.Neighbor n : nearest.subList(0, Math.min(NEAREST, nearest.size()))) {
            out.add(new Prompts.Exemplar(n.commit().subject(), n.commit().files()));
        }
        return out;
    }

    private static String reason(Throwable error) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return e instanceof LlmException l ? l.kind() + ": " + l.getMessage() : e.toString();
    }

    @Override
    public void close() {
        new HashSet<>(byTenant.values()).forEach(ResilientBackend::close);
    }
}
