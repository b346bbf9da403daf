package io.commitflow.cli;

import io.commitflow.git.History;
import io.commitflow.replay.Events;
import io.commitflow.replay.RateProfile;
import io.commitflow.replay.Replayer;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a load test sends, in order: one history replayed under many repository names (copies that share the
 * original's objects through linked packs and alternates, so that dedup drops nothing), round-robin over the copies,
 * and, when asked, new repositories of a new tenant joining at the start of each step after the profile's first.
 *
 * <pre>{@code
 * LoadSchedule s = LoadSchedule.plan(commits, Events.Mode.COMMIT, 3, profile, warmup, backlog, 4, 2);
 * s.makeCopies(objects, mirrorRoot);
 * List<Replayer.Event> events = s.events(topic);
 * }</pre>
 */
final class LoadSchedule {
    /** A repository copy: its directory name under the mirror root, its tenant, and the step it joins at (0: from the start). */
    record Copy(String name, String tenant, int joinsAtStep) {}

    private final List<History.Commit> commits;
    private final Events.Mode mode;
    private final int perPush;
    private final RateProfile profile;
    private final int backlog;
    private final List<Copy> copies;

    private LoadSchedule(List<History.Commit> commits, Events.Mode mode, int perPush, RateProfile profile, int backlog,
                         List<Copy> copies) {
        this.commits = commits;
        this.mode = mode;
        this.perPush = perPush;
        this.profile = profile;
        this.backlog = backlog;
        this.copies = copies;
    }

    /**
     * Enough copies over {@code tenants} tenants that the profile never runs out of history (dedup would drop a commit
     * replayed under the same name), at least one per tenant, at most 10,000; then {@code newRepos} copies of one new
     * tenant for each step after the profile's first measured step (the warm-up step, when there is one, is not
     * measured).
     */
    static LoadSchedule plan(List<History.Commit> commits, Events.Mode mode, int perPush, RateProfile profile,
                             boolean warmup, int backlog, int tenants, int newRepos) {
        int base;
        if (Double.isInfinite(profile.events())) {
            base = tenants;
        } else {
            int perCopy = mode == Events.Mode.PUSH ? Math.max(1, (commits.size() - 1 + perPush - 1) / perPush) : commits.size();
            base = (int) Math.max(tenants, Math.min(10_000,
                    Math.ceil(Math.min(profile.events() + backlog, 1e9) / perCopy)));
        }
        List<Copy> copies = new ArrayList<>();
        for (int i = 0; i < base; i++) {
            copies.add(new Copy("t" + (i % tenants) + "-r" + i + ".git", "tenant-" + (i % tenants), 0));
        }
        int tenant = tenants;
        for (int step = warmup ? 2 : 1; newRepos > 0 && step < profile.steps().size(); step++, tenant++) {
            for (int j = 0; j < newRepos; j++) {
                copies.add(new Copy("t" + tenant + "-r" + copies.size() + ".git", "tenant-" + tenant, step));
            }
        }
        return new LoadSchedule(commits, mode, perPush, profile, backlog, List.copyOf(copies));
    }

    List<Copy> copies() {
        return copies;
    }

    /** The tenant whose repositories first appear in each step (by the step's index in the profile). */
    Map<Integer, String> newTenants() {
        Map<Integer, String> m = new LinkedHashMap<>();
        copies.stream().filter(c -> c.joinsAtStep() > 0).forEach(c -> m.put(c.joinsAtStep(), c.tenant()));
        return m;
    }

    /**
     * Makes each copy under {@code mirrors}: a bare repository whose {@code objects/pack} holds links to the original's
     * pack files (hard links, else symbolic ones) and whose {@code objects/info/alternates} points at {@code objects}
     * for anything else (loose objects). Each copy then reads its own packs, as a mirror of a distinct repository
     * does: through alternates alone, every object read first missed the copy's empty pack directory, and JGit
     * answers a miss by checking whether that directory changed, a file-system call per object (a tenth of the
     * diff task's CPU in a load test), which no mirror with its own packs pays. Links take no space.
     *
     * @return how the packs were shared: {@code "hard links"}, {@code "symbolic links"}, or {@code "alternates"} when
     *         the original has no pack or neither kind of link could be made
     */
    String makeCopies(Path objects, Path mirrors) throws IOException {
        List<Path> packFiles = new ArrayList<>();
        Path packDir = objects.resolve("pack");
        if (Files.isDirectory(packDir)) {
            try (var files = Files.list(packDir)) {
                files.filter(f -> Files.isRegularFile(f) && f.getFileName().toString().startsWith("pack-"))
                        .sorted().forEach(packFiles::add);
            }
        }
        Sharing shared = packFiles.isEmpty() ? Sharing.ALTERNATES : Sharing.HARD_LINKS;
        for (Copy c : copies) {
            Path dir = mirrors.resolve(c.name());
            try (Repository r = new FileRepositoryBuilder().setGitDir(dir.toFile()).setBare().build()) {
                r.create(true);
            }
            Files.writeString(dir.resolve("objects/info/alternates"), objects + "\n");
            shared = shared.link(packFiles, dir.resolve("objects/pack"));
        }
        return shared.label;
    }

    /** How a copy shares the original's packs, the first that works on the file systems at hand. */
    private enum Sharing {
        HARD_LINKS("hard links"), SYMBOLIC_LINKS("symbolic links"), ALTERNATES("alternates");

        final String label;

        Sharing(String label) {
            this.label = label;
        }

        /**
         * Links {@code files} into {@code dir} this way or, where it fails, the next way down; returns the way used.
         * A way that fails on one file leaves none of its links: a copy's packs are all linked one way, or all read
         * through its alternates.
         */
        Sharing link(List<Path> files, Path dir) throws IOException {
            for (Sharing way = this; way != ALTERNATES; way = values()[way.ordinal() + 1]) {
                try {
                    for (Path f : files) {
                        Path to = dir.resolve(f.getFileName());
                        if (way == HARD_LINKS) {
                            Files.createLink(to, f);
                        } else {
                            Files.createSymbolicLink(to, f.toAbsolutePath());
                        }
                    }
                    return way;
                } catch (IOException | UnsupportedOperationException e) {
                    // another file system, or one without this kind of link
                    for (Path f : files) {
                        Files.deleteIfExists(dir.resolve(f.getFileName()));
                    }
                }
            }
            return ALTERNATES;
        }
    }

    /**
     * The backlog's events, then as many as the profile offers: round-robin over the copies that have joined, each
     * replaying the history oldest first; a copy joins when the events sent reach the start of its step.
     */
    List<Replayer.Event> events(String topic) {
        List<List<Replayer.Event>> perCopy = new ArrayList<>();
        for (Copy c : copies) {
            perCopy.add(mode.events(commits, new Replayer.Target(topic, c.tenant(), c.name()), perPush));
        }
        long wanted = (long) Math.min(profile.events() + backlog, Integer.MAX_VALUE - 8);
        List<Replayer.Event> events = new ArrayList<>();
        int[] cursor = new int[copies.size()];
        List<Integer> active = new ArrayList<>();
        int next = 0; // the next copy to join, in the order they join
        int turn = 0;
        while (events.size() < wanted) {
            while (next < copies.size() && joinIndex(copies.get(next).joinsAtStep()) <= events.size()) {
                active.add(next++);
            }
            if (active.isEmpty()) {
                if (next == copies.size()) {
                    break; // every history is replayed
                }
                active.add(next++); // nothing left before the next step: it starts early
            }
            turn %= active.size();
            int c = active.get(turn);
            if (cursor[c] < perCopy.get(c).size()) {
                events.add(perCopy.get(c).get(cursor[c]++));
                turn++;
            } else {
                active.remove(turn);
            }
        }
        return events;
    }

    /** The number of events sent before {@code step} starts: the backlog and the steps before it. */
    private long joinIndex(int step) {
        double before = backlog;
        for (int i = 0; i < step && i < profile.steps().size(); i++) {
            before += profile.steps().get(i).events();
        }
        return (long) Math.ceil(before);
    }
}
