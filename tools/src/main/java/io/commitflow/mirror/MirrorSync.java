package io.commitflow.mirror;

import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Validation;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Keeps the mirror root's bare mirrors up to date with their servers, on demand: {@link #ensure} a commit, and the
 * repository is cloned on first sight ({@code git clone --mirror} into a temporary folder, then moved into place, so
 * that the job never reads half a clone) or fetched ({@code git fetch --prune}) when the commit is not there yet.
 *
 * <ul>
 *   <li>One clone or fetch per repository at a time: the requests of one repository run one after another (each
 *   first looks whether an earlier fetch brought its commit), different repositories in parallel; a file lock per
 *   repository under {@code .commitflow-locks} keeps other instances sharing the root in step.</li>
 *   <li>A run that fails is retried with backoff (doubling up to a maximum) for a bounded number of attempts; a
 *   repository the server says it does not have is not retried ({@code missing}); a run longer than the timeout is
 *   killed and counts as a failure.</li>
 *   <li>Names are confined to the root as the job confines them ({@code ..}, absolute paths, symbolic links out are
 *   refused). Git never prompts ({@code GIT_TERMINAL_PROMPT=0}; ssh in batch mode unless {@code GIT_SSH_COMMAND}
 *   says otherwise).</li>
 * </ul>
 */
public final class MirrorSync implements AutoCloseable {
    public enum Outcome {
        PRESENT, CLONED, FETCHED, MISSING, FAILED, REFUSED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * @param attempts     runs of a failing clone or fetch before giving up, at least 1
     * @param firstBackoff the wait after the first failure; doubled after each further one, up to {@code maxBackoff}
     */
    public record Settings(Path root, MirrorSources sources, Duration timeout, int attempts, Duration firstBackoff,
                           Duration maxBackoff, int threads) {
        public Settings {
            if (attempts < 1 || threads < 1) {
                throw new IllegalArgumentException("attempts and threads must be at least 1");
            }
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("the git timeout must be positive");
            }
        }
    }

    /** What git said when the server has no such repository (git daemon, http-backend, Gerrit, Gitea, GitLab). */
    private static final Pattern NO_SUCH_REPOSITORY = Pattern.compile("(?i)(not exported|not found|does not exist|"
            + "does not appear to be a git repository|repository .* not found|no such repository)");

    private static final String TMP = ".commitflow-tmp";
    private static final String LOCKS = ".commitflow-locks";

    private final Settings s;
    private final Path root;
    private final MirrorMetrics metrics;
    private final Consumer<String> log;
    private final ExecutorService pool;
    private final Map<String, CompletableFuture<Outcome>> lanes = new ConcurrentHashMap<>();

    /** @param log told one line per clone, fetch, give-up and refusal (never a credential: URLs carry none) */
    public MirrorSync(Settings s, MirrorMetrics metrics, Consumer<String> log) throws IOException {
        this.s = s;
        this.root = Files.createDirectories(s.root()).toRealPath();
        this.metrics = metrics;
        this.log = log;
        Files.createDirectories(root.resolve(TMP));
        Files.createDirectories(root.resolve(LOCKS));
        this.pool = Executors.newFixedThreadPool(s.threads(), r -> {
            Thread t = new Thread(r, "commitflow-mirror-git");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Makes {@code sha} of {@code repo} present in its mirror, after whatever this repository has queued already.
     * Never completes exceptionally: every way out is an {@link Outcome}, counted.
     */
    public CompletableFuture<Outcome> ensure(String tenant, String repo, String sha) {
        CompletableFuture<Outcome> mine = new CompletableFuture<>();
        lanes.compute(repo, (name, tail) -> {
            CompletableFuture<Outcome> before = tail == null ? CompletableFuture.completedFuture(Outcome.PRESENT) : tail;
            before.handle((o, e) -> null).thenRunAsync(() -> mine.complete(counted(run(tenant, repo, sha))), pool);
            return mine;
        });
        mine.whenComplete((o, e) -> lanes.remove(repo, mine));
        return mine;
    }

    private Outcome counted(Outcome o) {
        metrics.outcome(o);
        return o;
    }

    private Outcome run(String tenant, String repo, String sha) {
        Path target;
        try {
            target = confined(repo);
        } catch (InvalidEventException | IOException e) {
            log.accept("refused " + repo + ": " + e.getMessage());
            return Outcome.REFUSED;
        }
        ObjectId id;
        try {
            id = ObjectId.fromString(sha);
        } catch (IllegalArgumentException e) {
            log.accept("refused " + repo + ": " + sha + " is not a SHA-1 commit id");
            return Outcome.REFUSED;
        }
        if (has(target, id)) {
            return Outcome.PRESENT;
        }
        String url = s.sources().url(tenant, repo);
        if (url == null) {
            log.accept("refused " + repo + ": no --mirror-source for tenant " + tenant);
            return Outcome.REFUSED;
        }
        try (FileChannel ch = FileChannel.open(root.resolve(LOCKS).resolve(lockName(repo)), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock lock = ch.lock()) {
            if (has(target, id)) {
                return Outcome.PRESENT; // another instance fetched it meanwhile
            }
            return sync(repo, url, target, id);
        } catch (IOException e) {
            log.accept("failed " + repo + ": " + e.getMessage());
            return Outcome.FAILED;
        }
    }

    /** Clones or fetches with retries; the lock is held. */
    private Outcome sync(String repo, String url, Path target, ObjectId id) {
        Duration backoff = s.firstBackoff();
        String last = "";
        for (int attempt = 1; attempt <= s.attempts(); attempt++) {
            boolean clone = !Files.exists(target);
            long start = System.nanoTime();
            Git r = clone ? cloneInto(url, target) : git(target, "fetch", "--prune", "--quiet", "origin");
            long nanos = System.nanoTime() - start;
            metrics.gitRan(nanos);
            if (r.exit == 0) {
                log.accept(String.format(Locale.ROOT, "%s %s in %.1f s%s", clone ? "cloned" : "fetched", repo, nanos / 1e9,
                        has(target, id) ? "" : ", but the server does not have " + id.name() + " (yet)"));
                return clone ? Outcome.CLONED : Outcome.FETCHED;
            }
            last = r.err;
            if (NO_SUCH_REPOSITORY.matcher(r.err).find()) {
                log.accept("missing " + repo + ": the server has no such repository (" + firstLine(r.err) + ")");
                return Outcome.MISSING;
            }
            if (attempt < s.attempts()) {
                log.accept(String.format(Locale.ROOT, "retrying %s in %d ms (attempt %d of %d): %s", repo,
                        backoff.toMillis(), attempt, s.attempts(), firstLine(r.err)));
                try {
                    Thread.sleep(backoff.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Outcome.FAILED;
                }
                backoff = backoff.multipliedBy(2).compareTo(s.maxBackoff()) > 0 ? s.maxBackoff() : backoff.multipliedBy(2);
            }
        }
        log.accept("failed " + repo + " after " + s.attempts() + " attempts: " + firstLine(last));
        return Outcome.FAILED;
    }

    /** {@code git clone --mirror} into a temporary folder beside the mirrors, then moved into place in one step. */
    private Git cloneInto(String url, Path target) {
        Path tmp = root.resolve(TMP).resolve(UUID.randomUUID().toString());
        Git r = git(root, "clone", "--mirror", "--quiet", url, tmp.toString());
        try {
            if (r.exit == 0) {
                Files.createDirectories(target.getParent());
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            }
            return r;
        } catch (IOException e) {
            return new Git(1, "moving the clone into place: " + e.getMessage());
        } finally {
            deleteRecursively(tmp);
        }
    }

    /**
     * The mirror's folder, inside the root whatever the name says: {@code root/repo} or {@code root/repo.git} where one
     * exists (the job's mirror root finds either), else {@code root/repo.git}, created bare on first sight. Names come
     * without their {@code .git} ({@link Validation#repo}), so {@code app} and {@code app.git} share one mirror.
     */
    private Path confined(String repo) throws InvalidEventException, IOException {
        String name = Validation.repo(repo);
        Path plain = root.resolve(name).normalize();
        Path named = Files.isDirectory(plain) ? plain : root.resolve(name + ".git").normalize();
        if (!named.startsWith(root) || named.equals(root) || named.startsWith(root.resolve(TMP))
                || named.startsWith(root.resolve(LOCKS))) {
            throw new InvalidEventException(io.commitflow.event.Reason.BAD_REPO_NAME, "resolves outside the mirror root");
        }
        // every existing folder on the way must stay inside the root once symbolic links are followed
        for (Path p = named; p != null && p.startsWith(root); p = p.getParent()) {
            if (Files.exists(p) && !p.toRealPath().startsWith(root)) {
                throw new InvalidEventException(io.commitflow.event.Reason.BAD_REPO_NAME,
                        "leads outside the mirror root through a symbolic link");
            }
        }
        return named;
    }

    private static boolean has(Path gitDir, ObjectId id) {
        if (!Files.isDirectory(gitDir)) {
            return false;
        }
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build()) {
            return r.getObjectDatabase().has(id);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static String lockName(String repo) {
        return repo.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + Integer.toHexString(repo.hashCode()) + ".lock";
    }

    private record Git(int exit, String err) {}

    private Git git(Path dir, String... args) {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("GIT_TERMINAL_PROMPT", "0");
        pb.environment().putIfAbsent("GIT_SSH_COMMAND", "ssh -o BatchMode=yes");
        metrics.gitStarted();
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
            if (!p.waitFor(s.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                return new Git(124, "git " + args[0] + " took longer than " + s.timeout().toSeconds() + " s and was stopped");
            }
            return new Git(p.exitValue(), err.join());
        } catch (IOException e) {
            return new Git(127, "cannot run git: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Git(130, "interrupted");
        } finally {
            metrics.gitEnded();
        }
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static String firstLine(String s) {
        return s.strip().lines().filter(l -> !l.isBlank()).findFirst().orElse("no message").strip();
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // a leftover in the temporary folder: the next start does not read it
        }
    }

    @Override
    public void close() throws InterruptedException {
        pool.shutdownNow();
        pool.awaitTermination(30, TimeUnit.SECONDS);
    }
}
