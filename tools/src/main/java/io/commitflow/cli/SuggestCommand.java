package io.commitflow.cli;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Origin;
import io.commitflow.generate.Draft;
import io.commitflow.generate.TemplateGenerator;
import io.commitflow.git.DiffBudget;
import io.commitflow.git.IgnoreFile;
import io.commitflow.git.InlinePatch;
import io.commitflow.job.BootstrapOption;
import io.commitflow.job.DurationConverter;
import io.commitflow.job.KafkaPropertiesOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code commitflow suggest}: the running job's suggestion for the staged change, as the prepare-commit-msg hook
 * asks for it.
 */
@Command(name = "suggest", mixinStandardHelpOptions = true,
        description = {"Sends the staged change (git diff --cached) to the running job as a draft with a fresh trace id, "
                + "waits for the job's suggestion on the replies topic, and prints it: the subject, then the body after "
                + "a blank line. The job answers drafts ahead of its learning traffic and does not learn from them.",
                "Each option falls back to the repository's git config (commitflow.bootstrap, commitflow.tenant, "
                        + "commitflow.repo, commitflow.timeout, commitflow.fallback, commitflow.kafkaSecretFile, "
                        + "commitflow.kafkaSecretEnv), which 'commitflow install-hook' "
                        + "sets.",
                "Exit status: 0 with a suggestion, 3 when there is nothing staged, 4 when the job did not answer in "
                        + "time (or refused the draft) and there is no fallback, 2 for bad options or an unreachable "
                        + "Kafka."},
        footer = {"", "Example: git add -p && ./commitflow suggest --bootstrap kafka:9092 --tenant acme --repo team/app.git"})
public final class SuggestCommand implements Callable<Integer> {
    static final int NOTHING_STAGED = 3;
    static final int NO_ANSWER = 4;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = {"-C", "--dir"}, defaultValue = ".", paramLabel = "PATH",
            description = "The repository whose staged change is described (default: the current folder).")
    Path dir;

    @Mixin
    BootstrapOption bootstrapOption = new BootstrapOption();
    /** --bootstrap as given, else from git config (resolveFromGitConfig). */
    private String bootstrap;

    @Option(names = "--tenant", paramLabel = "NAME", description = "Tenant (default: git config commitflow.tenant, else "
            + "default).")
    String tenant;

    @Option(names = "--repo", paramLabel = "NAME", description = "The repository's name as the Git server publishes it, "
            + "so that the job answers from its history (default: git config commitflow.repo, else the path of the "
            + "origin remote's URL, else the folder's name).")
    String repo;

    @Option(names = "--timeout", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "How long to wait for the job, Kafka's connection included (default: git config "
                    + "commitflow.timeout, else 2s).")
    Duration timeout;

    @Option(names = "--fallback", paramLabel = "none|local",
            description = "Without an answer in time: none prints nothing and exits 4; local prints the diff's own "
                    + "description (paths and change kinds, no history) (default: git config commitflow.fallback, "
                    + "else none).")
    String fallback;

    @Mixin
    DraftTopicOptions topicOptions = new DraftTopicOptions();
    /** The tenant's topics (resolveFromGitConfig). */
    private DraftClient.Topics topics;

    @Option(names = "--candidates", defaultValue = "1", paramLabel = "N",
            description = "Print up to N subjects to choose from, numbered, best first: the job's suggestion and the "
                    + "others its neighbours would give the change (default: ${DEFAULT-VALUE}: the message alone).")
    int candidates;

    @Option(names = {"-v", "--verbose"}, description = "Say on stderr how long each step took.")
    boolean verbose;

    @Mixin
    KafkaPropertiesOption kafkaProperties = new KafkaPropertiesOption();

    /** Patches beyond this are cut at a file boundary (the job's own diff budget keeps far less). */
    static final int MAX_PATCH_CHARS = 1 << 20;

    @Override
    public Integer call() throws Exception {
        bootstrap = bootstrapOption.servers();
        long start = System.nanoTime();
        resolveFromGitConfig();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String patch = stagedPatch(dir);
        if (patch.isBlank()) {
            err.println("commitflow suggest: nothing staged to describe");
            return NOTHING_STAGED;
        }
        String traceId = DraftClient.newTraceId();
        String why;
        Duration left = remaining(start);
        step(err, start, "staged diff read (" + patch.length() + " characters)");
        try (DraftClient client = new DraftClient(bootstrap, kafkaProperties.properties(),
                topics, left, what -> step(err, start, what))) {
            step(err, start, "connected to Kafka at " + bootstrap);
            var pending = client.ask(tenant, repo, patch, traceId);
            step(err, start, "draft sent, trace " + traceId);
            DraftClient.Reply reply = pending.get(Math.max(1, remaining(start).toMillis()), TimeUnit.MILLISECONDS);
            step(err, start, "reply received");
            if (reply instanceof DraftClient.Reply.Suggested s) {
                if (candidates > 1) {
                    printCandidates(out, s.suggestion(), candidates);
                } else {
                    print(out, s.suggestion().path("subject").asText(), s.suggestion().path("body").asText());
                }
                return 0;
            }
            DraftClient.Reply.Refused r = (DraftClient.Reply.Refused) reply;
            why = "the job refused the draft: " + r.reason() + ": " + r.detail();
        } catch (TimeoutException e) {
            why = "no suggestion from the job within " + timeout.toMillis() + " ms" + " (trace " + traceId + ")";
        } catch (ExecutionException e) {
            why = e.getCause() instanceof UserError u ? u.getMessage() : "asking the job failed: " + e.getCause();
        } catch (UserError e) {
            why = e.getMessage();
        }
        if (fallback.equals("local")) {
            Draft d = local(patch);
            err.println("commitflow suggest: " + why + "; this is the diff's own description");
            print(out, d.subject(), d.body());
            return 0;
        }
        err.println("commitflow suggest: " + why);
        return NO_ANSWER;
    }

    private void step(PrintWriter err, long startNanos, String what) {
        if (verbose) {
            err.printf("commitflow suggest: %5d ms  %s%n", (System.nanoTime() - startNanos) / 1_000_000, what);
            err.flush();
        }
    }

    private Duration remaining(long startNanos) {
        return timeout.minusNanos(System.nanoTime() - startNanos);
    }

    /** The suggestion's subject and its alternatives, numbered: {@code 1. Fix …}. */
    static void printCandidates(PrintWriter out, com.fasterxml.jackson.databind.JsonNode suggestion, int max) {
        List<String> subjects = new ArrayList<>(List.of(suggestion.path("subject").asText()));
        suggestion.path("alternatives").forEach(a -> subjects.add(a.asText()));
        for (int i = 0; i < Math.min(max, subjects.size()); i++) {
            out.println((i + 1) + ". " + subjects.get(i));
        }
        out.flush();
    }

    private static void print(PrintWriter out, String subject, String body) {
        out.println(subject);
        if (body != null && !body.isBlank()) {
            out.println();
            out.println(body.strip());
        }
        out.flush();
    }

    /** Options not given come from git config, then from the defaults; all are checked here. */
    private void resolveFromGitConfig() {
        Path top = Path.of(GitCli.run(dir, "rev-parse", "--show-toplevel").strip());
        dir = top;
        // one git run for all of them: the hook waits for every one
        java.util.Map<String, String> config = GitCli.configs(top, "^(commitflow\\..*|remote\\.origin\\.url)$");
        if (bootstrap == null) {
            bootstrap = config.get("commitflow.bootstrap");
            if (bootstrap == null || bootstrap.isBlank()) {
                throw new UserError("no Kafka to ask: pass --bootstrap HOST:PORT, or git config commitflow.bootstrap HOST:PORT");
            }
        }
        if (tenant == null) {
            tenant = orElse(config.get("commitflow.tenant"), "default");
        }
        topics = topicOptions.resolve(tenant, config);
        if (repo == null) {
            repo = config.get("commitflow.repo");
            if (repo == null) {
                repo = nameFromRemote(config.get("remote.origin.url"), top);
            }
        }
        if (candidates < 1 || candidates > 5) {
            throw new UserError("--candidates must be from 1 to 5, got " + candidates);
        }
        if (timeout == null) {
            String t = orElse(config.get("commitflow.timeout"), "2s");
            try {
                timeout = DurationConverter.parse(t);
            } catch (IllegalArgumentException e) {
                throw new UserError("git config commitflow.timeout: " + e.getMessage());
            }
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new UserError("--timeout must be positive, got " + timeout);
        }
        if (fallback == null) {
            fallback = orElse(config.get("commitflow.fallback"), "none");
        }
        // a secured Kafka: the client properties (security.protocol, sasl.*, ssl.*) in a file or a variable that git
        // config names; git prints variable names in lower case
        String secretFile = config.get("commitflow.kafkasecretfile");
        kafkaProperties.secretsUnlessGiven(secretFile == null || secretFile.isBlank() ? null
                : top.resolve(secretFile.replaceFirst("^~(?=/|$)", System.getProperty("user.home"))),
                config.get("commitflow.kafkasecretenv"));
        if (!List.of("none", "local").contains(fallback)) {
            throw new UserError("--fallback must be none or local, got " + fallback);
        }
    }

    private static String orElse(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value.strip();
    }

    /**
     * The path a Git server knows the repository by: {@code team/app.git} from {@code git@host:team/app.git},
     * {@code https://host/team/app.git} or {@code ssh://host:29418/team/app}; the folder's name without a remote.
     */
    static String nameFromRemote(String url, Path top) {
        if (url == null || url.isBlank()) {
            return top.getFileName().toString();
        }
        String u = url.strip();
        int scheme = u.indexOf("://");
        String path;
        if (scheme >= 0) {
            String rest = u.substring(scheme + 3);
            int slash = rest.indexOf('/');
            path = slash < 0 ? "" : rest.substring(slash + 1);
        } else if (u.matches("^[^/]+:.*") && !u.startsWith("/")) {
            path = u.substring(u.indexOf(':') + 1); // scp-like: user@host:path
        } else {
            path = Path.of(u).getFileName() == null ? "" : Path.of(u).getFileName().toString(); // a local path
        }
        while (path.startsWith("/") || path.startsWith("~")) {
            path = path.substring(1);
        }
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return path.isEmpty() ? top.getFileName().toString() : path;
    }

    /**
     * {@code git diff --cached} in git's own format whatever the user's diff settings (prefixes, colour, external
     * diff tools, relative paths), cut at a file boundary beyond {@link #MAX_PATCH_CHARS}, without the files the
     * work tree's {@code .commitflowignore} names unless it names every staged file (as the hook does).
     */
    static String stagedPatch(Path dir) {
        Path top = Path.of(GitCli.run(dir, "rev-parse", "--show-toplevel").strip());
        List<String> excluded = new ArrayList<>();
        Path ignore = top.resolve(IgnoreFile.NAME);
        List<String> staged = Files.isRegularFile(ignore) ? nulSeparated(GitCli.run(top, "diff", "--cached",
                "--name-only", "-z", "--no-renames")) : List.of();
        if (!staged.isEmpty()) {
            // of the staged files (deletions too), those the patterns name, as they are spelled (not C-quoted)
            List<String> ls = new ArrayList<>(List.of("-c", "core.quotePath=false", "ls-files", "-z", "--cached",
                    "--ignored", "--exclude-from=" + ignore));
            if (GitCli.exec(top, "rev-parse", "-q", "--verify", "HEAD").exit() == 0) {
                ls.add("--with-tree=HEAD");
            }
            ls.add("--");
            staged.forEach(f -> ls.add(":(literal)" + f));
            nulSeparated(GitCli.run(top, ls.toArray(String[]::new)))
                    .forEach(path -> excluded.add(":(exclude,literal)" + path));
        }
        String patch = diff(top, excluded);
        if (patch.isBlank() && !excluded.isEmpty()) {
            patch = diff(top, List.of());
        }
        if (patch.length() <= MAX_PATCH_CHARS) {
            return patch;
        }
        int cut = patch.lastIndexOf("\ndiff --git ", MAX_PATCH_CHARS);
        return cut > 0 ? patch.substring(0, cut + 1) : patch.substring(0, patch.indexOf('\n', MAX_PATCH_CHARS) + 1);
    }

    private static List<String> nulSeparated(String out) {
        return java.util.Arrays.stream(out.split("\0")).filter(f -> !f.isEmpty()).toList();
    }

    private static String diff(Path top, List<String> excluded) {
        List<String> args = new ArrayList<>(List.of("-c", "core.quotePath=true", "diff", "--cached", "--no-color",
                "--no-ext-diff", "--no-textconv", "--no-relative", "--src-prefix=a/", "--dst-prefix=b/", "--find-renames",
                "--", "."));
        args.addAll(excluded);
        return GitCli.run(top, args.toArray(String[]::new));
    }

    /** The diff's description from its paths and change kinds alone, as the job's template writes it. */
    static Draft local(String patch) {
        CommitEvent e = new CommitEvent("local", "local", DraftClient.draftId(patch), List.of(), "", System.currentTimeMillis(),
                null, patch, "local", Origin.synthetic(System.currentTimeMillis()), true);
        try {
            return new TemplateGenerator().generate(new InlinePatch(DiffBudget.DEFAULT).parse(e));
        } catch (InvalidEventException ex) {
            return new Draft("Update the staged files", "", "chore", "", TemplateGenerator.BACKEND, 0, List.of());
        }
    }
}
