package io.commitflow.cli;

import io.commitflow.git.History;
import io.commitflow.job.BootstrapOption;
import io.commitflow.job.KafkaSettings;
import io.commitflow.job.PipelineSettings;
import io.commitflow.replay.Events;
import io.commitflow.replay.RateProfile;
import io.commitflow.replay.Replayer;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code commitflow loadtest}: the job under a rate profile of a real repository's history, measured from outside
 * through Kafka, with a JSON and an HTML report.
 */
@Command(name = "loadtest", mixinStandardHelpOptions = true,
        description = {"Starts Kafka (or uses --bootstrap) and the job on a local Flink, replays a repository's history at "
                + "a rate profile, reads the suggestions (read_committed) and dead letters, and measures per step of the "
                + "profile: offered rate, achieved TPS, P50/P95/P99/P999 latency from each event's Kafka timestamp to its "
                + "suggestion's, error rate, peak memory (RSS of this JVM, which runs the job). Writes DIR/report.json "
                + "and DIR/report.html (plots, viewable offline).",
                "Load beyond the history replays it again under other repository names (one copy of the repository per "
                        + "name, its packs linked, spread over --tenants tenants), so dedup drops nothing."},
        footer = {"", "It takes every pipeline option of 'commitflow job' (engine, --llm, tiers, budgets, SLA windows).", "",
                "Example: ./commitflow loadtest --repo ~/src/jgit --rate steps:150,300,600/40s --new-repos 2 --report out/load"})
public final class LoadTestCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    RepositoryPath repository = new RepositoryPath();

    @Option(names = "--rate", defaultValue = "steps:100,200/40s", paramLabel = "PROFILE",
            description = "constant:N/T, ramp:A..B/T, steps:A,B,C/T (T per step), or N events/s until the history ends "
                    + "(default: ${DEFAULT-VALUE}: rates that two cores hold in a steady state, after the warm-up).")
    String rate;

    @Mixin
    EventShape shape = new EventShape();

    @Mixin
    BootstrapOption bootstrapOption = new BootstrapOption();

    @Option(names = "--report", defaultValue = "loadtest-report", paramLabel = "DIR",
            description = "Where report.json and report.html go (default: ${DEFAULT-VALUE}).")
    Path report;

    @Option(names = "--tenants", defaultValue = "4", paramLabel = "N",
            description = "Tenants the repository copies are spread over (default: ${DEFAULT-VALUE}).")
    int tenants;

    @Option(names = "--history", defaultValue = "5000", paramLabel = "N",
            description = "Commits of the history to use, oldest first (default: ${DEFAULT-VALUE}).")
    int history;

    @Option(names = "--drain-timeout", defaultValue = "60s", converter = io.commitflow.job.DurationConverter.class,
            paramLabel = "DURATION", description = "After the profile, how long to wait for outstanding output "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration drainTimeout;

    @Mixin
    CheckpointOption checkpoint = new CheckpointOption();

    @Option(names = "--warmup", defaultValue = "60s", converter = io.commitflow.job.DurationConverter.class,
            paramLabel = "DURATION", description = "Before the profile, this long at its first rate, reported as a step of "
                    + "its own (warm-up) so that the profile's steps measure a warm job (the JIT, the caches, the indexes); "
                    + "0s: none; a plain rate (N) has none unless asked (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--backlog", defaultValue = "0", paramLabel = "N",
            description = "Queue N events before the job starts (as a deploy or a failover finds them), then measure "
                    + "the catch-up: the time to answer them all and the rate meanwhile, reported as the step 'backlog' "
                    + "(default: ${DEFAULT-VALUE}).")
    int backlog;

    /** The job's output delivery, with the job's own description and default ({@code commitflow.kafka.delivery}). */
    @Option(names = "--delivery", paramLabel = "exactly-once|at-least-once", descriptionKey = "commitflow.kafka.delivery")
    String delivery;

    @Option(names = "--new-repos", defaultValue = "0", paramLabel = "N",
            description = "At the start of each step after the profile's first (the warm-up does not count), N "
                    + "repositories of a new tenant that the job has not seen join the replay; the report gives each "
                    + "step's P99 against the step before and the new tenant's own P99 (default: ${DEFAULT-VALUE}).")
    int newRepos;

    @Option(names = "--reference-runs", defaultValue = "3", paramLabel = "N",
            description = "After the profile, time the diff code and C git's git log -p over the same history on one "
                    + "thread, N runs each (the median), so that the report has ratios that survive a noisy machine: CPU "
                    + "per commit against the diff code's, TPS against git log -p's rate; 0: skip (default: ${DEFAULT-VALUE}).")
    int referenceRuns;

    @Option(names = "--drafts", defaultValue = "0", paramLabel = "N",
            description = "Beside the profile's learning traffic, N drafts per second as 'commitflow suggest' sends them "
                    + "(staged diffs taken from the history, for the first tenant's first repository), each timed from "
                    + "its send to its reply on the replies topic: the round trip a prepare-commit-msg hook waits for, "
                    + "without its JVM's start; reported as P50/P95/P99 (default: ${DEFAULT-VALUE}: none).")
    double drafts;

    @picocli.CommandLine.Mixin
    LocalRunOptions local = new LocalRunOptions();

    /** Every pipeline option of the job (engine, LLMs, tiers, budgets, SLA windows, …). */
    @picocli.CommandLine.Mixin
    io.commitflow.job.PipelineOptions pipeline = new io.commitflow.job.PipelineOptions();

    // what every phase below uses, set once the options are checked
    private PipelineSettings pipelineSettings;
    private RateProfile profile;
    private DeliveryGuarantee guarantee;
    private Events.Mode as;
    private PrintWriter out;

    /** The history to replay, and the object folder the repository copies borrow from. */
    private record Source(List<History.Commit> commits, Path objects) {}

    @Override
    public Integer call() throws Exception {
        Path repo = repository.path;
        checkOptions();
        out = spec.commandLine().getOut();
        Source source = readHistory();
        LoadSchedule schedule = LoadSchedule.plan(source.commits(), as, shape.perPush, profile, !warmup.isZero(), backlog, tenants,
                newRepos);
        try (LocalStack stack = LocalStack.open("loadtest", out)) {
            Path mirrors = Files.createDirectories(stack.workDir().resolve("mirrors"));
            String shared = schedule.makeCopies(source.objects(), mirrors);
            out.printf("loadtest: %s, %d commits × %d repository copies (packs shared by %s) over %d tenants, %sprofile %s (%.0f events over %.0f s)%n",
                    repo, source.commits().size(), schedule.copies().size(), shared, tenants + schedule.newTenants().size(),
                    backlog > 0 ? "a backlog of " + backlog + " events, " : "", profile, profile.events(), profile.seconds());
            startKafka(stack);
            List<Replayer.Event> events = schedule.events(stack.kafkaSettings().eventsTopic());
            LoadMeasurement measurement = LoadMeasurement.start(stack, profile, !warmup.isZero(), backlog, events.size(),
                    spec.commandLine().getErr());
            try (Replayer replayer = new Replayer(stack.bootstrap(), Map.of())) {
                queueBacklog(replayer, stack, events, measurement);
                // the catch-up counts from the submission: startJob returns once every task runs, by when a small
                // backlog may be answered already
                measurement.jobStarted();
                job = stack.startJob(pipelineSettings.withMirrorRoot(mirrors.toString()), local.flink(checkpoint.interval));
                awaitBacklog(stack, measurement);
                DraftLoad.Figures draftFigures = null;
                if (drafts > 0) {
                    draftFigures = replayWithDrafts(replayer, stack, events.subList(backlog, events.size()), measurement,
                            schedule.copies().get(0), source);
                } else {
                    replayWhileConsuming(replayer, stack, events.subList(backlog, events.size()), measurement);
                }
                figures = draftFigures;
            }
            drain(stack, measurement);
            LoadReport result = measurement.report(schedule.newTenants()).withDrafts(figures);
            writeReport(result.withReference(measureReference(stack, source.commits())), measurement.sent());
            out.printf("suggestions failing the schema or the %d–%d character subject check (counted as errors): %d%n",
                    io.commitflow.generate.SubjectLength.SHORT_FLOOR, io.commitflow.generate.SubjectLength.MAX,
                    measurement.nonConforming());
            if (stack.stopRequested()) {
                return 130;
            }
            List<String> silent = result.unanswered();
            if (!silent.isEmpty()) {
                spec.commandLine().getErr().println("loadtest: no answer to any event of step " + String.join(", ", silent)
                        + ": " + whyUnanswered());
                return 1;
            }
            return 0;
        }
    }

    /** @throws UserError for an option that cannot work, or a port that is taken */
    private void checkOptions() {
        pipelineSettings = pipeline.forLocalRun(); // the job's options, refused now rather than once Kafka is up
        try {
            profile = RateProfile.parse(rate);
            if (profile.steps().isEmpty() && !spec.commandLine().getParseResult().hasMatchedOption("--warmup")) {
                warmup = Duration.ZERO; // the default warm-up is for profiles with steps
            }
            if (!warmup.isZero()) {
                profile = profile.withWarmup(warmup.toMillis() / 1000.0);
            }
        } catch (IllegalArgumentException e) {
            throw new UserError("--rate, --warmup: " + e.getMessage());
        }
        if (drafts < 0 || drafts > 1000) {
            throw new UserError("--drafts must be from 0 to 1000 a second, got " + drafts);
        }
        if (tenants < 1 || history < 1) {
            throw new UserError("--tenants and --history must be at least 1");
        }
        if (newRepos < 0 || referenceRuns < 0) {
            throw new UserError("--new-repos and --reference-runs must not be negative");
        }
        if (delivery == null) { // a command line built without the job's defaults
            delivery = io.commitflow.job.JobConfig.KAFKA_DELIVERY.defaultValue();
        }
        guarantee = switch (delivery) {
            case "exactly-once" -> DeliveryGuarantee.EXACTLY_ONCE;
            case "at-least-once" -> DeliveryGuarantee.AT_LEAST_ONCE;
            default -> throw new UserError("--delivery must be exactly-once or at-least-once, not '" + delivery + "'");
        };
        if (backlog < 0 || warmup.isNegative()) {
            throw new UserError("--backlog and --warmup must not be negative");
        }
        as = shape.mode();
        local.check();
    }

    private Source readHistory() throws IOException {
        List<History.Commit> commits;
        Path objects;
        try (Repository r = History.open(repository.path)) {
            commits = History.oldestFirst(r, "HEAD", history);
            objects = r.getObjectDatabase() instanceof org.eclipse.jgit.internal.storage.file.ObjectDirectory od
                    ? od.getDirectory().toPath().toAbsolutePath() : null;
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        if (objects == null) {
            throw new UserError(repository.path + " is not a repository on disk");
        }
        return new Source(commits, objects);
    }

    /** Kafka (ours, or --bootstrap) and this run's own topics; the job starts later, after any backlog. */
    private void startKafka(LocalStack stack) throws Exception {
        String bootstrap = bootstrapOption.servers();
        if (bootstrap == null) {
            stack.startKafka();
        } else {
            KafkaReach.require(bootstrap, Map.of(), KafkaReach.DEFAULT_WAIT);
            stack.useKafka(bootstrap);
        }
        // topics of their own, so that a run on a shared --bootstrap reads no other run's output
        String prefix = "commitflow.loadtest." + System.currentTimeMillis();
        KafkaSettings k = new KafkaSettings(stack.bootstrap(), prefix + ".events", prefix + ".suggestions", prefix + ".dlq",
                prefix + ".sla", prefix, true, guarantee, prefix, Duration.ofMinutes(10), Map.of(), prefix + ".replies", prefix + ".requests");
        stack.createTopics(k, Map.of(k.eventsTopic(), Math.max(2, local.parallelism()), k.suggestionsTopic(), 2,
                k.deadLetterTopic(), 1, k.slaTopic(), 1, k.repliesTopic(), 1, k.requestsTopic(), 1));
    }

    /** The first --backlog events, as fast as the producer takes them, before the job starts. */
    private void queueBacklog(Replayer replayer, LocalStack stack, List<Replayer.Event> events, LoadMeasurement m) {
        if (backlog == 0) {
            return;
        }
        Replayer.Progress queued = replayer.replay(events.subList(0, Math.min(backlog, events.size())),
                RateProfile.perSecond(0), p -> { }, stack::stopRequested, m::sent);
        out.printf("queued a backlog of %d events in %.1f s (%d failed); starting the job …%n", queued.sent(),
                queued.elapsedSeconds(), queued.failed());
    }

    /** Waits (up to --drain-timeout) until every backlog event is answered: the catch-up. */
    private void awaitBacklog(LocalStack stack, LoadMeasurement m) throws InterruptedException {
        if (backlog == 0) {
            return;
        }
        long started = System.nanoTime();
        long deadline = started + drainTimeout.toNanos();
        while (!stack.stopRequested() && m.answered() < backlog && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        m.backlogDrained();
        out.printf(Locale.ROOT, "the backlog: %d of %d answered %.1f s after the job was started%n", m.answered(), backlog,
                (System.nanoTime() - started) / 1e9);
    }

    private DraftLoad.Figures figures;
    private org.apache.flink.core.execution.JobClient job;

    /** Why a step got no answer: the job ended, or it ran and wrote nothing for those events in time. */
    private String whyUnanswered() {
        try {
            var status = job.getJobStatus().get(10, TimeUnit.SECONDS);
            if (status.isGloballyTerminalState()) {
                return "the job ended as " + status + " (see the log)";
            }
            return "the job is " + status + " but wrote no suggestion and no dead letter for them within --drain-timeout "
                    + drainTimeout.toSeconds() + " s (overloaded, or stuck: see the log and the web UI)";
        } catch (Exception e) {
            return "the job's status is unknown (" + e + ")";
        }
    }

    /** The replay with drafts sent beside it, at --drafts per second, to a repository that the replay teaches. */
    private DraftLoad.Figures replayWithDrafts(Replayer replayer, LocalStack stack, List<Replayer.Event> events,
                                               LoadMeasurement measurement, LoadSchedule.Copy copy, Source source)
            throws Exception {
        List<String> patches;
        try (Repository r = History.open(repository.path)) {
            patches = DraftLoad.patches(r, source.commits(), 200);
        }
        KafkaSettings k = stack.kafkaSettings();
        try (DraftClient client = new DraftClient(stack.bootstrap(), Map.of(),
                new DraftClient.Topics(k.requestsTopic(), k.repliesTopic(), k.deadLetterTopic()), Duration.ofSeconds(30))) {
            DraftLoad load = new DraftLoad(client, copy.tenant(), copy.name(), patches, drafts);
            load.start(warmup);
            DraftLoad.Figures f;
            try {
                replayWhileConsuming(replayer, stack, events, measurement);
            } finally {
                f = load.stop();
            }
            out.println(f.line());
            return f;
        }
    }

    /** Sends the events as the profile says, printing progress about once a second. */
    private void replayWhileConsuming(Replayer replayer, LocalStack stack, List<Replayer.Event> events,
                                      LoadMeasurement measurement) {
        Replayer.Progress done = replayer.replay(events, profile, p -> out.printf(Locale.ROOT,
                        "  %6.1f s  offered %7.1f/s  sent %7d  answered %7d  %s%n", p.elapsedSeconds(),
                        p.offeredPerSecond(), p.sent(), measurement.answered(), measurement.recentP99()),
                stack::stopRequested, (n, at) -> measurement.sent(n + backlog, at));
        out.printf("replayed %d events in %.1f s (%d failed); waiting for the output …%n", measurement.sent(),
                done.elapsedSeconds(), done.failed());
    }

    /**
     * Waits, up to --drain-timeout, for the output still on its way: in commit mode until every event is answered; in
     * push mode, where a push answers with as many commits as it expands to, until none arrived for 10 s.
     */
    private void drain(LocalStack stack, LoadMeasurement measurement) throws InterruptedException {
        long sent = measurement.sent();
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        int lastSize = -1;
        long quietSince = System.nanoTime();
        while (!stack.stopRequested() && System.nanoTime() < deadline) {
            int size = measurement.answered();
            if (as == Events.Mode.COMMIT && size >= sent) {
                break;
            }
            if (size != lastSize) {
                lastSize = size;
                quietSince = System.nanoTime();
            } else if (as == Events.Mode.PUSH && System.nanoTime() - quietSince > TimeUnit.SECONDS.toNanos(10)) {
                break;
            }
            Thread.sleep(200);
        }
    }

    /**
     * The diff code's and git log -p's rates on one thread over the replayed history, after the job has gone quiet;
     * null when --reference-runs is 0 or the run was stopped.
     */
    private DiffReference.Rates measureReference(LocalStack stack, List<History.Commit> commits) throws Exception {
        if (referenceRuns == 0 || stack.stopRequested()) {
            return null;
        }
        out.printf("reference: the diff code and git log -p over the %d commits, %d runs each, on one thread …%n",
                commits.size(), referenceRuns);
        try (Repository r = History.open(repository.path); RevWalk walk = new RevWalk(r)) {
            List<RevCommit> revs = new ArrayList<>();
            for (History.Commit c : commits) {
                revs.add(walk.parseCommit(ObjectId.fromString(c.sha())));
            }
            try (DiffReference reference = new DiffReference(r, "git")) {
                DiffReference.Rates rates = reference.measure(reference.complete(revs, null), referenceRuns, out);
                if (Double.isNaN(rates.gitCommitsPerS())) {
                    out.println("reference: git is not on the PATH; the report has no ratio against git log -p");
                }
                return rates;
            }
        }
    }

    /** Writes report.json and report.html, and prints the table. */
    private void writeReport(LoadReport r, long sent) throws IOException {
        r.write(report, "commitflow load test: " + profile + " (" + shape.mode + " events of " + repository.path.getFileName() + ")");
        out.printf("%d outcomes for %d events%s%n", r.outcomes(), sent,
                as == Events.Mode.COMMIT && r.outcomes() < sent ? " (some still outstanding at the drain timeout)" : "");
        out.println("step       offered/s      TPS   P50 ms   P95 ms   P99 ms  P999 ms   errors  peak RSS MB  CPU ms/commit"
                + "  visible P99 ms  backlog  lag s");
        for (LoadReport.Step s : r.steps()) {
            double[] lag = r.lag(s.name());
            out.printf(Locale.ROOT, "%-9s  %9.1f  %7.1f  %7.0f  %7.0f  %7.0f  %7.0f  %6.3f%%  %11.0f  %13.2f  %14.0f  %7.0f  %5.1f%s%n",
                    s.name(), s.offeredPerS(), s.tps(), s.p50Ms(), s.p95Ms(), s.p99Ms(), s.p999Ms(), s.errorRate() * 100,
                    s.peakRssMb(), s.cpuMsPerCommit(), s.visibleP99Ms(), lag[0], lag[1] / 1000, remarks(s));
        }
        DiffReference.Rates ref = r.reference();
        if (ref != null) {
            out.printf(Locale.ROOT, "reference, one thread, %d commits: the diff code %.0f commits/s (%.2f ms a commit), "
                    + "git log -p %.0f commits/s%n", ref.commits(), ref.diffCommitsPerS(), 1000 / ref.diffCommitsPerS(),
                    ref.gitCommitsPerS());
        }
        out.printf("report: %s, %s%n", report.resolve("report.json"), report.resolve("report.html"));
    }

    /** What a step's row adds after its columns: the catch-up, new tenants, the ratios to the reference. */
    private static String remarks(LoadReport.Step s) {
        List<String> r = new ArrayList<>();
        if (!Double.isNaN(s.drainSeconds())) {
            r.add(String.format(Locale.ROOT, "drained in %.1f s", s.drainSeconds()) + (Double.isNaN(s.steadyAfterSeconds())
                    ? "" : String.format(Locale.ROOT, ", steady rate after %.0f s", s.steadyAfterSeconds())));
        }
        if (!Double.isNaN(s.newTenantP99Ms())) {
            r.add(String.format(Locale.ROOT, "new tenant's P99 %.0f ms", s.newTenantP99Ms()));
        }
        if (!Double.isNaN(s.p99VsPrevious())) {
            r.add(String.format(Locale.ROOT, "P99 %.2f× the step before", s.p99VsPrevious()));
        }
        if (!Double.isNaN(s.cpuVsDiff())) {
            r.add(String.format(Locale.ROOT, "CPU %.1f× the diff code's", s.cpuVsDiff()));
        }
        if (!Double.isNaN(s.tpsVsGit())) {
            r.add(String.format(Locale.ROOT, "TPS %.2f× git log -p's", s.tpsVsGit()));
        }
        return r.isEmpty() ? "" : "  (" + String.join("; ", r) + ")";
    }
}
