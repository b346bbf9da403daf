package io.commitflow.mirror;

import io.commitflow.git.MirrorRoot;
import io.commitflow.testing.Git;
import io.commitflow.testing.GitDaemon;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link MirrorSync} against a real Git server process on the loopback ({@code git daemon}): a repository seen for the
 * first time, pushes that arrive together, a server that is down and comes back, a repository deleted on the server,
 * and names that would leave the mirror root.
 */
class MirrorSyncITCase {
    @TempDir
    Path dir;

    private Path server;
    private Path mirrors;
    private GitDaemon daemon;
    private MirrorSync sync;
    private final MirrorMetrics metrics = new MirrorMetrics();
    private final List<String> log = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        server = Files.createDirectories(dir.resolve("server"));
        mirrors = dir.resolve("mirrors");
        daemon = new GitDaemon(server).start();
        sync = new MirrorSync(new MirrorSync.Settings(mirrors, MirrorSources.parse(List.of("*=" + daemon.urlTemplate())),
                Duration.ofSeconds(60), 3, Duration.ofMillis(200), Duration.ofSeconds(1), 4), metrics, log::add);
    }

    @AfterEach
    void stop() throws Exception {
        sync.close();
        daemon.close();
    }

    @Test
    void clonesARepositoryOnFirstSightAndLeavesItWhenItHasTheCommit() throws Exception {
        List<String> commits = serverRepo("team/app.git", 3);

        assertThat(sync.ensure("acme", "team/app.git", commits.get(2)).get(60, TimeUnit.SECONDS))
                .isEqualTo(MirrorSync.Outcome.CLONED);
        assertThat(sync.ensure("acme", "team/app.git", commits.get(0)).get(60, TimeUnit.SECONDS))
                .isEqualTo(MirrorSync.Outcome.PRESENT);
        assertThat(sync.ensure("acme", "team/app", commits.get(1)).get(60, TimeUnit.SECONDS))
                .as("app and app.git are one mirror").isEqualTo(MirrorSync.Outcome.PRESENT);
        assertThat(mirrors.resolve("team/app")).doesNotExist();

        // where the job looks for it, with every commit
        var gitDir = new MirrorRoot(mirrors).resolve("team/app.git");
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir).setMustExist(true).build()) {
            for (String c : commits) {
                assertThat(r.getObjectDatabase().has(ObjectId.fromString(c))).isTrue();
            }
        }
        assertThat(metrics.attempts()).isEqualTo(1);
        try (var left = Files.list(mirrors.resolve(".commitflow-tmp"))) {
            assertThat(left).as("no half clone left behind").isEmpty();
        }
        assertThat(log).anyMatch(l -> l.startsWith("cloned team/app.git"));
    }

    @Test
    void pushesArrivingTogetherFetchOncePerRepositoryAtATime() throws Exception {
        List<String> first = serverRepo("app.git", 1);
        assertThat(sync.ensure("acme", "app.git", first.get(0)).get(60, TimeUnit.SECONDS)).isEqualTo(MirrorSync.Outcome.CLONED);
        List<String> pushed = push("app.git", 5);

        List<CompletableFuture<MirrorSync.Outcome>> all = new ArrayList<>();
        for (String c : pushed) {
            all.add(sync.ensure("acme", "app.git", c)); // five push events at once
        }
        List<MirrorSync.Outcome> outcomes = new ArrayList<>();
        for (var f : all) {
            outcomes.add(f.get(60, TimeUnit.SECONDS));
        }

        assertThat(outcomes).as("the first fetch brings all five; the others find their commit")
                .containsExactly(MirrorSync.Outcome.FETCHED, MirrorSync.Outcome.PRESENT, MirrorSync.Outcome.PRESENT,
                        MirrorSync.Outcome.PRESENT, MirrorSync.Outcome.PRESENT);
        assertThat(metrics.attempts()).isEqualTo(2);
    }

    @Test
    void aServerThatIsDownIsRetriedWithBackoffThenGivenUpAndFetchedOnceItIsBack() throws Exception {
        List<String> first = serverRepo("app.git", 1);
        sync.ensure("acme", "app.git", first.get(0)).get(60, TimeUnit.SECONDS);
        List<String> pushed = push("app.git", 1);
        daemon.stop();

        long start = System.nanoTime();
        assertThat(sync.ensure("acme", "app.git", pushed.get(0)).get(60, TimeUnit.SECONDS)).isEqualTo(MirrorSync.Outcome.FAILED);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(metrics.attempts()).as("the clone, then three fetches").isEqualTo(4);
        assertThat(ms).as("backoff 200 ms, then 400 ms").isGreaterThanOrEqualTo(600);
        assertThat(log).anyMatch(l -> l.startsWith("retrying app.git in 200 ms (attempt 1 of 3)"))
                .anyMatch(l -> l.startsWith("failed app.git after 3 attempts"));
        assertThat(metrics.count(MirrorSync.Outcome.FAILED)).isEqualTo(1);

        daemon.start();
        assertThat(sync.ensure("acme", "app.git", pushed.get(0)).get(60, TimeUnit.SECONDS)).isEqualTo(MirrorSync.Outcome.FETCHED);
    }

    @Test
    void aRepositoryDeletedOnTheServerIsMissingAtOnceAndTheMirrorIsKept() throws Exception {
        List<String> first = serverRepo("gone.git", 1);
        sync.ensure("acme", "gone.git", first.get(0)).get(60, TimeUnit.SECONDS);
        deleteRecursively(server.resolve("gone.git"));

        assertThat(sync.ensure("acme", "gone.git", "e".repeat(40)).get(60, TimeUnit.SECONDS))
                .isEqualTo(MirrorSync.Outcome.MISSING);
        assertThat(metrics.attempts()).as("not retried").isEqualTo(2);
        assertThat(sync.ensure("acme", "never.git", "e".repeat(40)).get(60, TimeUnit.SECONDS))
                .isEqualTo(MirrorSync.Outcome.MISSING);
        assertThat(mirrors.resolve("gone.git")).as("what the job knows stays").isDirectory();
        assertThat(mirrors.resolve("never.git")).doesNotExist();
        assertThat(metrics.prometheusText()).contains("commitflow_mirror_syncs_total{outcome=\"missing\"} 2");
    }

    @Test
    void refusesNamesOutsideTheRootAndTenantsWithoutASource() throws Exception {
        Files.createDirectories(dir.resolve("outside"));
        Files.createDirectories(mirrors);
        Files.createSymbolicLink(mirrors.resolve("link"), dir.resolve("outside"));
        MirrorSync onlyAcme = new MirrorSync(new MirrorSync.Settings(mirrors,
                MirrorSources.parse(List.of("acme=" + daemon.urlTemplate())), Duration.ofSeconds(60), 1, Duration.ZERO,
                Duration.ZERO, 1), metrics, log::add);
        try {
            String sha = "a".repeat(40);
            assertThat(onlyAcme.ensure("acme", "../escape.git", sha).get(10, TimeUnit.SECONDS)).isEqualTo(MirrorSync.Outcome.REFUSED);
            assertThat(onlyAcme.ensure("acme", "link/app.git", sha).get(10, TimeUnit.SECONDS)).isEqualTo(MirrorSync.Outcome.REFUSED);
            assertThat(onlyAcme.ensure("other", "app.git", sha).get(10, TimeUnit.SECONDS)).isEqualTo(MirrorSync.Outcome.REFUSED);
            assertThat(dir.resolve("escape.git")).doesNotExist();
            try (var inside = Files.list(dir.resolve("outside"))) {
                assertThat(inside).isEmpty();
            }
            assertThat(metrics.attempts()).isZero();
        } finally {
            onlyAcme.close();
        }
    }

    /** A bare repository on the server with {@code n} commits on main; their ids, oldest first. */
    private List<String> serverRepo(String name, int n) throws Exception {
        git(dir, "init", "-q", "--bare", "-b", "main", server.resolve(name).toString());
        return push(name, n);
    }

    /** {@code n} new commits pushed to the server's repository (over the file system, as a developer's push lands). */
    private List<String> push(String name, int n) throws Exception {
        Path work = dir.resolve("work-" + name.replace('/', '-'));
        if (!Files.exists(work)) {
            git(dir, "clone", "-q", server.resolve(name).toString(), work.toString());
            git(work, "checkout", "-q", "-B", "main");
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Path f = work.resolve("file.txt");
            Files.writeString(f, (Files.exists(f) ? Files.readString(f) : "") + "line " + System.nanoTime() + "\n");
            git(work, "add", "file.txt");
            git(work, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "Change " + i);
            out.add(git(work, "rev-parse", "HEAD").strip());
        }
        git(work, "push", "-q", "origin", "main");
        return out;
    }

    private static String git(Path in, String... args) throws Exception {
        return Git.run(in, args);
    }

    private static void deleteRecursively(Path p) throws Exception {
        try (var paths = Files.walk(p)) {
            for (Path x : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(x);
            }
        }
    }
}
