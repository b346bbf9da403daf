package io.commitflow.cli;

import io.commitflow.job.KafkaSettings;
import io.commitflow.replay.History;
import io.commitflow.replay.Replayer;
import org.eclipse.jgit.lib.Repository;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** {@code commitflow replay}: a repository's history into Kafka as commit events, at a steady rate. */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Publishes a repository's commits, oldest first, to Kafka as native commit events.",
        footer = {"", "Example: ./commitflow replay --repo ~/src/flink --bootstrap localhost:9092 --rate 500 --max 10000"})
public final class ReplayCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--repo", required = true, paramLabel = "PATH", description = "Repository to replay (work tree or bare).")
    Path repo;

    @Option(names = "--bootstrap", required = true, paramLabel = "HOST:PORT", description = "Kafka bootstrap servers.")
    String bootstrap;

    @Option(names = "--topic", defaultValue = KafkaSettings.EVENTS_TOPIC, paramLabel = "TOPIC",
            description = "Topic to publish to (default: ${DEFAULT-VALUE}).")
    String topic;

    @Option(names = "--rate", defaultValue = "100", paramLabel = "N",
            description = "Events per second; 0 for as fast as possible (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--max", paramLabel = "N", description = "Publish at most N commits (default: all).")
    int max = Integer.MAX_VALUE;

    @Option(names = "--tenant", defaultValue = "default", paramLabel = "NAME", description = "Tenant of the events (default: ${DEFAULT-VALUE}).")
    String tenant;

    @Option(names = "--name", paramLabel = "REPO",
            description = "Repository name in the events, relative to the job's mirror root (default: the folder's name).")
    String name;

    @Option(names = {"-X", "--kafka-property"}, paramLabel = "KEY=VALUE", description = "Extra Kafka producer property. Repeatable.")
    Map<String, String> properties = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        if (rate < 0 || max < 1) {
            throw new UserError("--rate must be 0 or more and --max at least 1");
        }
        List<History.Commit> commits;
        String repoName;
        try (Repository r = History.open(repo)) {
            repoName = name != null ? name : History.location(r).name();
            commits = History.oldestFirst(r, "HEAD", max);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.set(true);
            try {
                done.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Runtime.getRuntime().addShutdownHook(hook);
        java.io.PrintWriter out = spec.commandLine().getOut();
        out.printf("replaying %d commits of %s as %s to %s at %s%n", commits.size(), repo, repoName, topic,
                rate <= 0 ? "full speed" : rate + "/s");
        try (Replayer replayer = new Replayer(bootstrap, properties)) {
            Replayer.Progress p = replayer.replay(commits, new Replayer.Target(topic, tenant, repoName), rate,
                    pr -> out.printf("  sent %d/%d  acked %d  errors %d  %.1f/s%n", pr.sent(), commits.size(),
                            pr.acked(), pr.failed(), pr.ratePerSecond()),
                    stop::get);
            out.printf("%s: %d sent, %d acknowledged, %d errors in %.1f s%s%n", stop.get() ? "stopped" : "done",
                    p.sent(), p.acked(), p.failed(), p.elapsedSeconds(), p.firstError() == null ? "" : "; first error: " + p.firstError());
            return p.failed() == 0 ? (stop.get() ? 130 : 0) : 1;
        } finally {
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down
            }
        }
    }
}
