package io.commitflow.keys;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.PushEvent;
import io.commitflow.event.RepoKeys;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.util.function.SerializableFunction;

/**
 * Keys a stream by repository, or by (repository, commit), named as {@link RepoKeys} names them: {@code repo} where
 * every tenant shares the topics, {@code tenant/repo} where each has its own.
 *
 * @param <T> what the stream carries
 */
public final class RepoKeySelector<T> implements KeySelector<T, String> {
    private static final long serialVersionUID = 1L;
    private final SerializableFunction<T, String> key;

    private RepoKeySelector(SerializableFunction<T, String> key) {
        this.key = key;
    }

    /** A push's repository. */
    public static KeySelector<PushEvent, String> pushes(RepoKeys keys) {
        return new RepoKeySelector<>(keys::of);
    }

    /** A commit: its repository and sha, the dedup key. */
    public static KeySelector<CommitEvent, String> commits(RepoKeys keys) {
        return new RepoKeySelector<>(keys::commit);
    }

    /** The repository of what {@code commit} finds in each element. */
    public static <T> KeySelector<T, String> repository(RepoKeys keys, SerializableFunction<T, CommitEvent> commit) {
        return new RepoKeySelector<>(t -> keys.of(commit.apply(t)));
    }

    @Override
    public String getKey(T value) {
        return key.apply(value);
    }
}
