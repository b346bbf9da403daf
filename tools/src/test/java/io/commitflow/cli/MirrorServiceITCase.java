package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.event.PushEvent;
import io.commitflow.event.WireFormat;
import io.commitflow.job.CommitMessageJob;
import io.commitflow.job.KafkaIO;
import io.commitflow.job.KafkaSettings;
import io.commitflow.job.PipelineSettings;
import io.commitflow.testing.Git;
import io.commitflow.testing.GitDaemon;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.MiniClusters;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A push to a repository that nobody prepared a mirror for: {@code commitflow mirror} clones it from a real Git
 * server ({@code git daemon}) when the push event arrives, and the job, waiting for the mirror meanwhile, describes
 * every pushed commit.
 */
class MirrorServiceITCase {
    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(1);

    @TempDir
    Path dir;

    @Test
    void aPushToARepositoryTheJobHasNeverSeenIsDescribed() throws Exception {
        Path server = Files.createDirectories(dir.resolve("server"));
        Path mirrors = Files.createDirectories(dir.resolve("mirrors"));
        List<String> pushed = serverRepo(server, "team/app.git", 6);
        KafkaSettings k = KafkaSettings.defaults(KAFKA.bootstrap());
        for (String t : List.of(k.eventsTopic(), k.suggestionsTopic(), k.deadLetterTopic(), k.slaTopic())) {
            KAFKA.createTopic(t, 1);
        }

        try (GitDaemon daemon = new GitDaemon(server).start()) {
            MirrorCommand mirror = new MirrorCommand();
            StringWriter mirrorOut = new StringWriter();
            CommandLine cli = Commitflow.configure(new CommandLine(mirror));
            cli.setOut(new PrintWriter(mirrorOut, true));
            cli.setErr(new PrintWriter(mirrorOut, true));
            Thread service = new Thread(() -> cli.execute("--bootstrap", KAFKA.bootstrap(), "--mirror-root", mirrors.toString(),
                    "--mirror-source", "*=" + daemon.urlTemplate(), "--metrics-port", "0", "--backoff", "200ms"),
                    "mirror-service");
            service.start();

            JobClient job = startJob(k, mirrors);
            try {
                KAFKA.produce(k.eventsTopic(), "team/app.git".getBytes(StandardCharsets.UTF_8), List.of(WireFormat.push("acme",
                        "team/app.git", "refs/heads/main", PushEvent.ZERO_SHA1, pushed.get(pushed.size() - 1), "ada", 1L)));

                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                Set<String> described = Set.of();
                while (!described.containsAll(pushed) && System.nanoTime() < deadline) {
                    Thread.sleep(250);
                    described = shas(k.suggestionsTopic());
                }
                List<String> dead = new ArrayList<>();
                KAFKA.readCommitted(k.deadLetterTopic()).forEach(r -> dead.add(new String(r.value(), StandardCharsets.UTF_8)));
                assertThat(described).as("mirror service said:\n" + mirrorOut + "\ndead letters: " + dead + "\njob: " + job.getJobStatus().get()
                        + ", SLA records: " + KAFKA.readCommitted(k.slaTopic()).size()).containsAll(pushed);
                assertThat(shas(k.deadLetterTopic())).isEmpty();
                assertThat(mirrorOut.toString()).contains("cloned team/app ");
                assertThat(cli.getCommandSpec().findOption("--group-id").getValue().toString())
                        .as("a consumer group of its own, not the job's").isEqualTo("commitflow-mirror");
                assertThat(mirrors.resolve("team/app.git")).isDirectory();
            } finally {
                mirror.stop();
                service.join(TimeUnit.SECONDS.toMillis(30));
                job.cancel().get(60, TimeUnit.SECONDS);
            }
            assertThat(service.isAlive()).as("the service stops when asked").isFalse();
            assertThat(mirrorOut.toString()).contains("stopped");
        }
    }

    private JobClient startJob(KafkaSettings k, Path mirrors) throws Exception {
        Configuration conf = MiniClusters.job(Duration.ofSeconds(1), Files.createDirectories(dir.resolve("checkpoints")));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        CommitMessageJob.build(env, KafkaIO.sourceBuilder(k).build(), KafkaIO.suggestionSink(k), KafkaIO.deadLetterSink(k),
                KafkaIO.slaSink(k), PipelineSettings.defaults(mirrors.toString()));
        return env.executeAsync("commitflow-mirror-itcase");
    }

    private Set<String> shas(String topic) throws Exception {
        List<String> out = new ArrayList<>();
        for (var r : KAFKA.readCommitted(topic)) {
            JsonNode n = Json.mapper().readTree(r.value());
            out.add(n.path("sha").asText());
        }
        return out.stream().collect(Collectors.toSet());
    }

    /** A bare repository on the server with {@code n} commits on main, pushed by a developer; their ids. */
    private List<String> serverRepo(Path server, String name, int n) throws Exception {
        git(dir, "init", "-q", "--bare", "-b", "main", server.resolve(name).toString());
        Path work = dir.resolve("work");
        git(dir, "clone", "-q", server.resolve(name).toString(), work.toString());
        git(work, "checkout", "-q", "-B", "main");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Path f = work.resolve("src/Widget" + i + ".java");
            Files.createDirectories(f.getParent());
            Files.writeString(f, "class Widget" + i + " {\n    int version = " + i + ";\n}\n");
            git(work, "add", "-A");
            git(work, "-c", "user.name=Ada", "-c", "user.email=ada@example.com", "commit", "-q", "-m", "Add Widget" + i);
            out.add(git(work, "rev-parse", "HEAD").strip());
        }
        git(work, "push", "-q", "origin", "main");
        return out;
    }

    private static String git(Path in, String... args) throws Exception {
        return Git.run(in, args);
    }
}
