package io.commitflow.cli;

import io.commitflow.job.BootstrapOption;
import io.commitflow.job.DurationConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.Callable;

/** {@code commitflow install-hook}: the prepare-commit-msg hook that asks the running job for each commit's message. */
@Command(name = "install-hook", mixinStandardHelpOptions = true,
        description = {"Installs a prepare-commit-msg hook into a repository (its hooks folder, or core.hooksPath when "
                + "set) that puts the running job's suggestion for the staged change at the top of the commit message, "
                + "and stores the hook's settings in the repository's git config (commitflow.*).",
                "With --url the hook asks the gateway (commitflow gateway) over HTTPS with curl and the tenant's API "
                        + "key: no JVM and no Kafka access on the commit path. With --bootstrap it runs this "
                        + "launcher, which asks Kafka directly. One of them is needed unless git config has it already.",
                "The hook leaves merges, squashes, amends, -m/-F/-c/-C and templates alone, and never fails a commit: "
                        + "when the job does not answer within the timeout, the message stays as it was and one line "
                        + "on stderr says why. COMMITFLOW_HOOK=0 git commit skips it once. Files matching the "
                        + "repository's .commitflowignore (gitignore patterns) are left out of the diff it sends. A "
                        + "hook that was there before (--force) keeps running, first."},
        footer = {"", "Example: ./commitflow install-hook -C ~/src/app --url https://commitflow.example.com:8443 "
                + "--key-file ~/acme.key --repo team/app.git",
                "         ./commitflow install-hook -C ~/src/app --bootstrap kafka:9092 --tenant acme --repo team/app.git",
                "         ./commitflow install-hook -C ~/src/app --remove"})
public final class InstallHookCommand implements Callable<Integer> {
    static final String HOOK = "prepare-commit-msg";
    static final String MARKER = "commitflow-hook-version:";
    static final String BEFORE = HOOK + ".before-commitflow";
    /** What an API key may hold: the hook hands it to curl inside a quoted configuration line. */
    private static final java.util.regex.Pattern KEY = java.util.regex.Pattern.compile("[A-Za-z0-9._~+/=:-]{16,512}");

    /** Reads the key given as {@code -}; a test replaces it. */
    java.util.function.Supplier<InputStream> stdin = () -> System.in;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = {"-C", "--dir"}, defaultValue = ".", paramLabel = "PATH",
            description = "The repository (default: the current folder).")
    Path dir;

    @Mixin
    BootstrapOption bootstrapOption = new BootstrapOption();

    @Option(names = "--tenant", paramLabel = "NAME", description = "Tenant (default: left as configured, else default).")
    String tenant;

    @Option(names = "--repo", paramLabel = "NAME", description = "The repository's name as the Git server publishes it "
            + "(default: left as configured, else the path of the origin remote's URL).")
    String repo;

    @Option(names = "--timeout", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "How long a commit waits for the job (default: left as configured, else 2s).")
    Duration timeout;

    @Option(names = "--fallback", paramLabel = "none|local",
            description = "Without an answer: none leaves the message empty, local writes the diff's own description "
                    + "(default: left as configured, else none).")
    String fallback;

    @Option(names = "--kafka-secret-file", paramLabel = "FILE",
            description = "A secured Kafka: a Java properties file of its client settings (security.protocol, sasl.*, "
                    + "ssl.*), read by each commit; stored as its path (git config commitflow.kafkaSecretFile), never "
                    + "its contents (default: left as configured).")
    Path kafkaSecretFile;

    @Mixin
    DraftTopicOptions topics = new DraftTopicOptions();

    @Option(names = "--kafka-secret-env", paramLabel = "VAR",
            description = "The same, from an environment variable holding the properties text (git config "
                    + "commitflow.kafkaSecretEnv) (default: left as configured).")
    String kafkaSecretEnv;

    @Option(names = "--launcher", paramLabel = "PATH",
            description = "The commitflow launcher the hook runs (default: the one running this command).")
    Path launcher;

    @Option(names = "--url", paramLabel = "URL", description = "The gateway (https://HOST:PORT): the hook asks it with "
            + "curl instead of running the launcher (git config commitflow.url).")
    String url;

    @Option(names = "--key-file", paramLabel = "FILE", description = "With --url: the file holding the tenant's API "
            + "key, or - to read it from stdin. The key is copied into the repository's git folder "
            + "(commitflow/api-key, readable by you only) and read from there by each commit.")
    String keyFile;

    @Option(names = "--ca-file", paramLabel = "PEM", description = "With --url: the CA certificate to check the "
            + "gateway's certificate against (default: the system's trusted ones).")
    Path caFile;

    @Option(names = "--candidates", paramLabel = "N", description = "With --url: how many other subjects the hook "
            + "lists below the suggestion, as comment lines git strips from the message (default: left as configured, "
            + "else 3; 0: none).")
    Integer candidates;

    @Option(names = "--force", description = "Install over a prepare-commit-msg hook that is not commitflow's: it is "
            + "kept beside it as prepare-commit-msg.before-commitflow and still runs, before the suggestion.")
    boolean force;

    @Option(names = "--remove", description = "Remove commitflow's hook (and only it), its stored key and its git "
            + "config section; a hook kept by --force is put back.")
    boolean remove;

    @Override
    public Integer call() throws Exception {
        String bootstrap = bootstrapOption.servers();
        PrintWriter out = spec.commandLine().getOut();
        Path top = Path.of(GitCli.run(dir, "rev-parse", "--show-toplevel").strip());
        // core.hooksPath when set, else the repository's hooks folder (a worktree's common one)
        Path hooks = top.resolve(GitCli.run(top, "rev-parse", "--git-path", "hooks").strip()).normalize();
        Path hook = hooks.resolve(HOOK);
        boolean ours = Files.isRegularFile(hook) && Files.readString(hook).contains(MARKER);
        Path stored = top.resolve(GitCli.run(top, "rev-parse", "--git-common-dir").strip()).resolve("commitflow").normalize();
        if (remove) {
            if (!ours) {
                out.println("no commitflow hook at " + hook + "; nothing removed");
                return 0;
            }
            Files.delete(hook);
            if (Files.exists(hooks.resolve(BEFORE))) {
                Files.move(hooks.resolve(BEFORE), hook);
            }
            if (Files.isDirectory(stored)) {
                try (var keys = Files.newDirectoryStream(stored, "api-key*")) {
                    for (Path k : keys) {
                        Files.deleteIfExists(k); // the key, and any left by an interrupted write
                    }
                }
                try {
                    Files.deleteIfExists(stored);
                } catch (java.nio.file.DirectoryNotEmptyException e) {
                    // something else of the user's lives there: the folder stays
                }
            }
            GitCli.exec(top, "config", "--local", "--remove-section", "commitflow");
            out.println("removed " + hook + (Files.exists(hook) ? "; the hook it ran first is back" : ""));
            return 0;
        }
        if (Files.exists(hook) && !ours) {
            if (!force) {
                throw new UserError(hook + " exists and is not commitflow's; pass --force to install over it (it is "
                        + "kept as " + BEFORE + " and still runs, first)");
            }
            if (Files.exists(hooks.resolve(BEFORE))) {
                throw new UserError(hooks.resolve(BEFORE) + " holds the hook kept at an earlier install; move one of "
                        + "the two away first, so that neither is lost");
            }
        }
        if (url != null && bootstrap != null) {
            throw new UserError("--url and --bootstrap exclude each other: the hook asks the gateway or Kafka");
        }
        boolean gateway = url != null || (bootstrap == null && GitCli.config(top, "commitflow.url") != null);
        if (!gateway && bootstrap == null && GitCli.config(top, "commitflow.bootstrap") == null) {
            throw new UserError("--url URL (the gateway) or --bootstrap HOST:PORT (the job's Kafka) is required");
        }
        if (!gateway && (keyFile != null || caFile != null || candidates != null)) {
            throw new UserError("--key-file, --ca-file and --candidates go with --url: the hook asks Kafka");
        }
        String key = null;
        if (gateway) {
            if (url != null) {
                checkUrl(url);
            }
            if (keyFile == null && GitCli.config(top, "commitflow.keyFile") == null) {
                throw new UserError("--key-file FILE is required with --url: the tenant's API key");
            }
            key = keyFile == null ? null : readKey(keyFile);
            if (caFile != null && !Files.isReadable(caFile)) {
                throw new UserError("--ca-file " + caFile + " cannot be read");
            }
            if (candidates != null && (candidates < 0 || candidates > 5)) {
                throw new UserError("--candidates must be from 0 to 5, got " + candidates);
            }
            if ("local".equals(fallback)) {
                throw new UserError("--fallback local needs the launcher: with --url the hook runs no JVM");
            }
            if (kafkaSecretFile != null || kafkaSecretEnv != null) {
                throw new UserError("--kafka-secret-file and --kafka-secret-env go with --bootstrap: with --url the "
                        + "gateway holds Kafka's credentials");
            }
        }
        if (fallback != null && !fallback.equals("none") && !fallback.equals("local")) {
            throw new UserError("--fallback must be none or local, got " + fallback);
        }
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new UserError("--timeout must be positive, got " + timeout);
        }
        topics.resolve(tenant == null ? "default" : tenant, java.util.Map.of()); // refuses what suggest would
        if (kafkaSecretFile != null && !Files.isReadable(kafkaSecretFile)) {
            throw new UserError("--kafka-secret-file " + kafkaSecretFile + " cannot be read");
        }
        if (kafkaSecretEnv != null && !kafkaSecretEnv.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new UserError("--kafka-secret-env takes the name of an environment variable, not '" + kafkaSecretEnv + "'");
        }
        Path launch = launcher != null ? launcher.toAbsolutePath().normalize() : defaultLauncher();
        if (!gateway && !Files.isExecutable(launch)) {
            throw new UserError("the launcher " + launch + " is not an executable file; pass --launcher PATH");
        }
        Files.createDirectories(hooks);
        if (Files.exists(hook) && !ours) {
            Files.move(hook, hooks.resolve(BEFORE), StandardCopyOption.REPLACE_EXISTING);
        }
        try (InputStream in = InstallHookCommand.class.getResourceAsStream(HOOK)) {
            if (in == null) {
                throw new IllegalStateException("the hook script is missing from the build");
            }
            Path tmp = hooks.resolve(HOOK + ".commitflow-new");
            Files.write(tmp, in.readAllBytes());
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.move(tmp, hook, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        if (gateway) {
            if (key != null) {
                set(top, "commitflow.keyFile", storeKey(stored, key).toString());
            }
            set(top, "commitflow.url", url);
            set(top, "commitflow.candidates", candidates == null ? null : candidates.toString());
            set(top, "commitflow.caFile", caFile == null ? null : caFile.toAbsolutePath().normalize().toString());
        } else {
            for (String k : new String[] {"commitflow.url", "commitflow.keyFile", "commitflow.caFile"}) {
                GitCli.exec(top, "config", "--local", "--unset", k);
            }
            Files.deleteIfExists(stored.resolve("api-key"));
            set(top, "commitflow.launcher", launch.toString());
        }
        set(top, "commitflow.bootstrap", bootstrap);
        set(top, "commitflow.tenant", tenant);
        set(top, "commitflow.repo", repo != null ? repo
                : GitCli.config(top, "commitflow.repo") == null
                        ? SuggestCommand.nameFromRemote(GitCli.config(top, "remote.origin.url"), top) : null);
        set(top, "commitflow.timeout", timeout == null ? null : timeout.toMillis() + "ms");
        set(top, "commitflow.fallback", fallback);
        set(top, "commitflow.kafkaSecretFile", kafkaSecretFile == null ? null
                : kafkaSecretFile.toAbsolutePath().normalize().toString());
        set(top, "commitflow.kafkaSecretEnv", kafkaSecretEnv);
        for (var e : topics.gitConfig().entrySet()) {
            set(top, e.getKey(), e.getValue());
        }
        if (gateway) {
            out.printf("installed %s%n  asks the gateway %s with the key in %s, repository %s, waiting at most %s%n",
                    hook, GitCli.config(top, "commitflow.url"), GitCli.config(top, "commitflow.keyFile"),
                    GitCli.config(top, "commitflow.repo"), orDefault(GitCli.config(top, "commitflow.timeout"), "2s"));
            if (!onPath("curl")) {
                out.println("  warning: curl is not on this PATH; the hook needs it");
            }
        } else {
            out.printf("installed %s%n  asks %s for tenant %s, repository %s, waiting at most %s%n", hook,
                    GitCli.config(top, "commitflow.bootstrap"), orDefault(GitCli.config(top, "commitflow.tenant"), "default"),
                    GitCli.config(top, "commitflow.repo"), orDefault(GitCli.config(top, "commitflow.timeout"), "2s"));
        }
        if (Files.exists(hooks.resolve(BEFORE))) {
            out.println("  the hook that was there before runs first: " + hooks.resolve(BEFORE));
        }
        out.println("  try it: git commit (COMMITFLOW_HOOK=0 git commit skips it once; --remove uninstalls)");
        return 0;
    }

    /** The launcher this command was started by (the distribution's bin/commitflow says so), else the checkout's. */
    static Path defaultLauncher() {
        String own = System.getProperty("commitflow.launcher");
        return own != null ? Path.of(own).toAbsolutePath().normalize() : LocalFlink.home().resolve("commitflow");
    }

    private static void checkUrl(String url) {
        java.net.URI u;
        try {
            u = new java.net.URI(url);
        } catch (java.net.URISyntaxException e) {
            throw new UserError("--url " + url + " is not a URL: " + e.getReason());
        }
        if (!"https".equals(u.getScheme()) && !"http".equals(u.getScheme()) || u.getHost() == null) {
            throw new UserError("--url takes the gateway as https://HOST[:PORT], got " + url);
        }
        if (u.getQuery() != null || u.getFragment() != null || u.getUserInfo() != null) {
            throw new UserError("--url takes the gateway's address alone (no user, query or fragment), got " + url);
        }
        if ("http".equals(u.getScheme()) && !java.util.Set.of("localhost", "127.0.0.1", "[::1]").contains(u.getHost())) {
            throw new UserError("--url " + url + " would send the API key in clear text; use https (plain http only "
                    + "for localhost)");
        }
    }

    private String readKey(String file) throws IOException {
        byte[] raw;
        if (file.equals("-")) {
            raw = stdin.get().readNBytes(4096);
        } else {
            Path p = Path.of(file);
            if (!Files.isReadable(p) || !Files.isRegularFile(p)) {
                throw new UserError("--key-file " + file + " cannot be read");
            }
            raw = Files.readAllBytes(p);
        }
        String key = new String(raw, java.nio.charset.StandardCharsets.UTF_8).strip();
        if (!KEY.matcher(key).matches()) {
            throw new UserError("--key-file " + file + " does not hold an API key: one line of 16 to 512 characters "
                    + "from A-Z a-z 0-9 . _ ~ + / = : -");
        }
        return key;
    }

    /** Writes the key where only its owner can read it: a folder of mode 700, a file of mode 600 written atomically. */
    private static Path storeKey(Path folder, String key) throws IOException {
        if (!Files.isDirectory(folder)) {
            Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
        Path tmp = Files.createTempFile(folder, "api-key", ".new",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, key + "\n");
        return Files.move(tmp, folder.resolve("api-key"), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }

    /** Whether {@code program} is an executable file in a folder of this process's PATH. */
    static boolean onPath(String program) {
        String path = System.getenv("PATH");
        return path != null && java.util.Arrays.stream(path.split(java.io.File.pathSeparator))
                .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, program)));
    }

    private static void set(Path top, String key, String value) throws IOException {
        if (value != null) {
            GitCli.run(top, "config", "--local", key, value);
        }
    }

    private static String orDefault(String v, String d) {
        return v == null ? d : v;
    }
}
