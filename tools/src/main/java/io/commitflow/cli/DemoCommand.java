package io.commitflow.cli;

import io.commitflow.git.History;
import io.commitflow.job.PipelineSettings;
import org.eclipse.jgit.lib.Repository;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code commitflow demo}: the whole pipeline on this machine, on a real repository's history. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Starts a Kafka broker (KRaft, its own JVM) and the job on a local Flink with the web UI and "
                + "the Prometheus endpoint, replays a repository's history as commit events, and prints each "
                + "suggestion next to the real subject. Stops by itself after --max commits, or on Ctrl-C, and "
                + "leaves nothing behind.",
        footer = {"", "It takes every pipeline option of 'commitflow job' (engine, --llm, tiers, budgets, SLA windows); "
                + "Kafka's are its own.", "",
                "Example: ./commitflow demo --repo ~/src/flink --max 200 --rate 50",
                "         ./commitflow demo --llm demo=openai:qwen2.5-coder@http://localhost:11434 --max 50"})
public final class DemoCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--repo", paramLabel = "PATH",
            description = "Repository to replay: a work tree or a bare repository (default: this checkout).")
    Path repo;

    @Option(names = "--max", paramLabel = "N", description = "Replay the first N commits, oldest first (default: all).")
    int max = Integer.MAX_VALUE;

    @Option(names = "--rate", paramLabel = "N", defaultValue = "20",
            description = "Commits sent per second; 0 sends as fast as Kafka takes them (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--stay", description = "After the replay, keep the job running until Ctrl-C, so that "
            + "'commitflow suggest' and the prepare-commit-msg hook can ask it (see the line it prints).")
    boolean stay;

    @Option(names = "--tenant", defaultValue = "demo", paramLabel = "NAME", description = "Tenant of the events (default: ${DEFAULT-VALUE}).")
    String tenant;

    @picocli.CommandLine.Mixin
    LocalRunOptions local = new LocalRunOptions();

    /** Every pipeline option of the job (engine, LLMs, tiers, budgets, SLA windows, …), so that one line tries them. */
    @picocli.CommandLine.Mixin
    io.commitflow.job.PipelineOptions pipeline = new io.commitflow.job.PipelineOptions();

    @picocli.CommandLine.Mixin
    CheckpointOption checkpoint = new CheckpointOption();

    @Option(names = "--idle-timeout", defaultValue = "120s", paramLabel = "DURATION",
            converter = io.commitflow.job.DurationConverter.class,
            description = "Give up when no output arrives for this long (default: ${DEFAULT-VALUE}).")
    Duration idleTimeout;

    @Override
    public Integer call() throws Exception {
        if (max < 1) {
            throw new UserError("--max must be at least 1");
        }
        if (rate < 0) {
            throw new UserError("--rate must be 0 or more");
        }
        PipelineSettings settings = pipeline.forLocalRun(); // the job's options, refused before anything starts
        local.check();
        Path path = repo != null ? repo : LocalFlink.home();
        List<History.Commit> commits;
        History.Location location;
        try (Repository r = History.open(path)) {
            location = History.location(r);
            commits = History.oldestFirst(r, "HEAD", max);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        if (commits.isEmpty()) {
            throw new UserError(path + " has no commits");
        }
        DemoRun.Settings s = new DemoRun.Settings(location, tenant, rate, local.flink(checkpoint.interval), idleTimeout,
                settings.withMirrorRoot(location.root().toString()), stay);
        return new DemoRun(s, commits, spec.commandLine().getOut()).run();
    }
}
