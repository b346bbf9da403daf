package io.commitflow.cli;

import io.commitflow.git.History;
import io.commitflow.job.BootstrapOption;
import io.commitflow.job.KafkaPropertiesOption;
import io.commitflow.replay.Events;
import io.commitflow.replay.RateProfile;
import io.commitflow.replay.Replayer;
import org.eclipse.jgit.lib.Repository;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** {@code commitflow replay}: a repository's history into Kafka as commit or push events, at a rate profile. */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Publishes a repository's history (first parents, oldest first) to Kafka as native commit or push "
                + "events at a rate profile, until the history or the profile ends, or Ctrl-C.",
                "Rate profiles: N (events/s; 0: full speed), constant:N/T, ramp:A..B/T, steps:A,B,C/T (T per step); "
                        + "T like 500ms, 30s, 2m."},
        footer = {"", "Examples: ./commitflow replay --repo ~/src/flink --bootstrap localhost:9092 --rate 500 --max 10000",
                "          ./commitflow replay --repo jgit.git --bootstrap localhost:9092 --mode push --rate ramp:10..200/60s"})
public final class ReplayCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    RepositoryPath repository = new RepositoryPath();

    @Mixin
    BootstrapOption bootstrapOption = new BootstrapOption();

    @Mixin
    EventsTopicOption topic = new EventsTopicOption();

    @Option(names = "--rate", defaultValue = "100", paramLabel = "PROFILE",
            description = "Rate profile: N, constant:N/T, ramp:A..B/T or steps:A,B,C/T (default: ${DEFAULT-VALUE}).")
    String rate;

    @Mixin
    EventShape shape = new EventShape();

    @Option(names = "--max", paramLabel = "N", description = "Publish at most N commits (default: all).")
    int max = Integer.MAX_VALUE;

    @Option(names = "--tenant", defaultValue = "default", paramLabel = "NAME", description = "Tenant of the events (default: ${DEFAULT-VALUE}).")
    String tenant;

    @Option(names = "--name", paramLabel = "REPO",
            description = "Repository name in the events, relative to the job's mirror root (default: the folder's name).")
    String name;

    @Mixin
    KafkaPropertiesOption kafkaProperties = new KafkaPropertiesOption();

    @Override
    public Integer call() throws Exception {
        String bootstrap = bootstrapOption.required(spec);
        String eventsTopic = topic.name(); // a name it cannot use is refused before Kafka is asked
        Map<String, String> properties = kafkaProperties.properties();
        Path repo = repository.path;
        RateProfile profile;
        try {
            profile = RateProfile.parse(rate);
        } catch (IllegalArgumentException e) {
            throw new UserError("--rate: " + e.getMessage());
        }
        if (max < 1) {
            throw new UserError("--max must be at least 1");
        }
        Events.Mode as = shape.mode();
        List<History.Commit> commits;
        String repoName;
        try (Repository r = History.open(repo)) {
            repoName = name != null ? name : History.location(r).name();
            commits = History.oldestFirst(r, "HEAD", max);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        KafkaReach.require(bootstrap, properties, KafkaReach.DEFAULT_WAIT);
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
        Replayer.Target target = new Replayer.Target(eventsTopic, tenant, repoName);
        List<Replayer.Event> events = as.events(commits, target, shape.perPush);
        out.printf("replaying %d commits of %s as %d %s events of %s to %s at %s%n", commits.size(), repo, events.size(),
                shape.mode, repoName, eventsTopic, rate.equals("0") ? "full speed" : profile);
        if (profile.events() < events.size()) {
            out.printf("  the profile offers %.0f events over %.0f s: the rest of the history is not sent%n",
                    profile.events(), profile.seconds());
        }
        try (Replayer replayer = new Replayer(bootstrap, properties)) {
            Replayer.Progress p = replayer.replay(events, profile,
                    pr -> out.printf("  %6.1f s  offered %7.1f/s  sent %d/%d  acked %d  errors %d  (%.1f/s so far)%n",
                            pr.elapsedSeconds(), pr.offeredPerSecond(), pr.sent(), events.size(), pr.acked(), pr.failed(),
                            pr.ratePerSecond()),
                    stop::get, (n, at) -> { });
            out.printf("%s: %d sent, %d acknowledged, %d errors in %.1f s (%.1f events/s)%s%n",
                    stop.get() ? "stopped" : "done", p.sent(), p.acked(), p.failed(), p.elapsedSeconds(), p.ratePerSecond(),
                    p.firstError() == null ? "" : "; first error: " + p.firstError());
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
