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
                + "and stores the hook's settings in the repository's git config (commitflow.*); --bootstrap is needed "
                + "unless git config commitflow.bootstrap is set already.",
                "The hook leaves merges, squashes, amends, -m/-F/-c/-C and templates alone, and never fails a commit: "
                        + "when the job does not answer within the timeout, the message stays as it was and one line "
                        + "on stderr says why. COMMITFLOW_HOOK=0 git commit skips it once."},
        footer = {"", "Example: ./commitflow install-hook -C ~/src/app --bootstrap kafka:9092 --tenant acme --repo team/app.git",
                "         ./commitflow install-hook -C ~/src/app --remove"})
public final class InstallHookCommand implements Callable<Integer> {
    static final String HOOK = "prepare-commit-msg";
    static final String MARKER = "commitflow-hook-version:";

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
            description = "The commitflow launcher the hook runs (default: this checkout's ./commitflow).")
    Path launcher;

    @Option(names = "--force", description = "Replace a prepare-commit-msg hook that is not commitflow's (it is kept "
            + "beside it as prepare-commit-msg.before-commitflow).")
    boolean force;

    @Option(names = "--remove", description = "Remove commitflow's hook (and only it) and its git config section.")
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
        if (remove) {
            if (ours) {
                Files.delete(hook);
            }
            GitCli.exec(top, "config", "--local", "--remove-section", "commitflow");
            out.println(ours ? "removed " + hook : "no commitflow hook at " + hook + "; nothing removed");
            return 0;
        }
        if (Files.exists(hook) && !ours) {
            if (!force) {
                throw new UserError(hook + " exists and is not commitflow's; chain it yourself, or pass --force to "
                        + "replace it (it is kept as " + HOOK + ".before-commitflow)");
            }
            Files.move(hook, hooks.resolve(HOOK + ".before-commitflow"), StandardCopyOption.REPLACE_EXISTING);
        }
        if (bootstrap == null && GitCli.config(top, "commitflow.bootstrap") == null) {
            throw new UserError("--bootstrap HOST:PORT is required: the Kafka of the running job");
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
        Path launch = launcher != null ? launcher.toAbsolutePath().normalize() : LocalFlink.home().resolve("commitflow");
        if (!Files.isExecutable(launch)) {
            throw new UserError("the launcher " + launch + " is not an executable file; pass --launcher PATH");
        }
        Files.createDirectories(hooks);
        try (InputStream in = InstallHookCommand.class.getResourceAsStream(HOOK)) {
            if (in == null) {
                throw new IllegalStateException("the hook script is missing from the build");
            }
            Path tmp = hooks.resolve(HOOK + ".commitflow-new");
            Files.write(tmp, in.readAllBytes());
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.move(tmp, hook, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        set(top, "commitflow.launcher", launch.toString());
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
        out.printf("installed %s%n  asks %s for tenant %s, repository %s, waiting at most %s%n", hook,
                GitCli.config(top, "commitflow.bootstrap"), orDefault(GitCli.config(top, "commitflow.tenant"), "default"),
                GitCli.config(top, "commitflow.repo"), orDefault(GitCli.config(top, "commitflow.timeout"), "2s"));
        out.println("  try it: git commit (COMMITFLOW_HOOK=0 git commit skips it once; --remove uninstalls)");
        return 0;
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
