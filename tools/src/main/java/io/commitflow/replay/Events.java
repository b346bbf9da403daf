package io.commitflow.replay;

import io.commitflow.event.PushEvent;
import io.commitflow.event.WireFormat;
import io.commitflow.git.History;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/** The events a replay publishes: one commit event per commit, or push events of a few commits each. */
public final class Events {
    /** The branch pushes go to. */
    public static final String REF = "refs/heads/main";

    private Events() {}

    /** What a replay publishes: a commit event per commit, or push events of a few commits each. */
    public enum Mode {
        COMMIT, PUSH;

        /** {@code commit} or {@code push}. */
        public static Mode parse(String name) {
            return switch (name) {
                case "commit" -> COMMIT;
                case "push" -> PUSH;
                default -> throw new IllegalArgumentException("--mode must be commit or push, not '" + name + "'");
            };
        }

        /** The events of {@code commits} in this mode ({@code perPush} commits a push). */
        public List<Replayer.Event> events(List<History.Commit> commits, Replayer.Target target, int perPush) {
            return this == PUSH ? pushes(commits, target, perPush) : commits(commits, target);
        }
    }

    /** A commit event per commit, oldest first. */
    public static List<Replayer.Event> commits(List<History.Commit> commits, Replayer.Target target) {
        List<Replayer.Event> out = new ArrayList<>(commits.size());
        byte[] key = target.repo().getBytes(StandardCharsets.UTF_8);
        for (History.Commit c : commits) {
            out.add(event(target.topic(), key, at -> WireFormat.commit(target.tenant(), target.repo(), c.sha(),
                    c.parents(), c.author(), at, c.message(), null)));
        }
        return out;
    }

    /**
     * Push events to {@link #REF}, as a server sends them: each moves the branch from the previous push's head to
     * {@code perPush} commits later in the (first-parent, oldest-first) history; the job reads the commits in between
     * from its mirror. The first push starts from the first commit's parent; a root commit has none, so it is the
     * base and not pushed (a branch created from nothing would bring no commits the mirror's other refs lack).
     */
    public static List<Replayer.Event> pushes(List<History.Commit> commits, Replayer.Target target, int perPush) {
        if (perPush < 1) {
            throw new IllegalArgumentException("commits per push must be at least 1: " + perPush);
        }
        List<Replayer.Event> out = new ArrayList<>();
        if (commits.isEmpty()) {
            return out;
        }
        byte[] key = target.repo().getBytes(StandardCharsets.UTF_8);
        boolean root = commits.get(0).parents().isEmpty();
        String before = root ? commits.get(0).sha() : commits.get(0).parents().get(0);
        for (int i = root ? 1 : 0; i < commits.size(); i += perPush) {
            String from = before;
            String to = commits.get(Math.min(i + perPush, commits.size()) - 1).sha();
            out.add(event(target.topic(), key,
                    at -> WireFormat.push(target.tenant(), target.repo(), REF, from, to, "replay", at)));
            before = to;
        }
        return out;
    }

    /** An event whose value is made when it is sent, so that it carries its send time. */
    private static Replayer.Event event(String topic, byte[] key, LongFunction<byte[]> value) {
        return new Replayer.Event() {
            public String topic() {
                return topic;
            }

            public byte[] key() {
                return key;
            }

            public byte[] value(long sentAtMillis) {
                return value.apply(sentAtMillis);
            }
        };
    }
}
