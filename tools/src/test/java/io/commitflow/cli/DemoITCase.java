package io.commitflow.cli;

import io.commitflow.replay.kafka.LocalKafka;
import io.commitflow.testing.GitHistory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code commitflow demo} as a user runs it: a broker JVM, a local Flink with the web UI and Prometheus, a
 * replayed history; while it runs the web UI and the metrics answer; afterwards no process and no file is left.
 */
class DemoITCase {
    static final Path HOME = Path.of(System.getProperty(LocalFlink.HOME_PROPERTY, "..")).toAbsolutePath().normalize();

    @TempDir
    static Path repos;

    /** The demo starts its broker on the command line's classpath, and finds flink-conf under HOME. */
    @BeforeAll
    static void brokerClasspath() throws IOException {
        System.setProperty(LocalKafka.CLASSPATH_PROPERTY, TestLauncher.classpath());
        System.setProperty(LocalFlink.HOME_PROPERTY, HOME.toString());
    }

    @Test
    void printsASuggestionPerCommitServesWebUiAndMetricsAndCleansUp() throws Exception {
        GitHistory.create(repos, "history.git", 12);
        int webPort = freePort();
        int metricsPort = freePort();
        List<String> workDirsBefore = demoWorkDirs();
        StringWriter output = new StringWriter();
        var cli = Commitflow.commandLine();
        cli.setOut(new PrintWriter(output, true));
        cli.setErr(new PrintWriter(output, true));

        CompletableFuture<Integer> demo = CompletableFuture.supplyAsync(() -> cli.execute("demo",
                "--repo", repos.resolve("history.git").toString(), "--max", "10", "--rate", "2",
                "--web-port", Integer.toString(webPort), "--metrics-port", Integer.toString(metricsPort)));

        HttpClient http = HttpClient.newHttpClient();
        String overview = poll(http, "http://localhost:" + webPort + "/overview", demo, output);
        String metrics = poll(http, "http://localhost:" + metricsPort + "/metrics", demo, output);
        int exit = demo.get(5, TimeUnit.MINUTES);

        assertThat(exit).as(output.toString()).isZero();
        assertThat(overview).contains("\"taskmanagers\"", "\"jobs-running\"");
        assertThat(metrics).contains("flink_jobmanager_");
        String out = output.toString();
        assertThat(out.lines().filter(l -> l.contains("made: "))).hasSize(10);
        assertThat(out.lines().filter(l -> l.contains("real: "))).hasSize(10);
        assertThat(out).contains("done: 10 suggestions and 0 dead letters for 10 commits");
        // the replayed events carry their real messages: the job scored each of its suggestions against them
        assertThat(out.lines().filter(l -> l.contains("made: ") && l.contains("B-Norm "))).hasSize(10);
        assertThat(out).containsPattern("live quality: B-Norm \\d+\\.\\d on average against the real subjects \\(10 scored\\)");
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().commandLine().orElse("").contains("BrokerMain"))).isEmpty();
        assertThat(demoWorkDirs()).isEqualTo(workDirsBefore);
    }

    @Test
    void refusesTakenPortWithClearError() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            StringWriter err = new StringWriter();
            var cli = Commitflow.commandLine();
            cli.setErr(new PrintWriter(err, true));

            int exit = cli.execute("demo", "--web-port", Integer.toString(taken.getLocalPort()));

            assertThat(exit).isEqualTo(2);
            assertThat(err.toString()).contains("port " + taken.getLocalPort(), "Flink web UI", "--web-port");
        }
    }

    @Test
    void refusesPathThatIsNoRepository() throws Exception {
        Path empty = Files.createDirectories(repos.resolve("empty"));
        StringWriter err = new StringWriter();
        var cli = Commitflow.commandLine();
        cli.setErr(new PrintWriter(err, true));

        int exit = cli.execute("demo", "--repo", empty.toString(), "--web-port", Integer.toString(freePort()),
                "--metrics-port", Integer.toString(freePort()));

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("is not a Git repository");
    }

    /** GETs {@code url} until it answers 200 (while the demo runs), and returns the body. */
    private static String poll(HttpClient http, String url, CompletableFuture<Integer> demo, StringWriter output)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (System.nanoTime() < deadline && !demo.isDone()) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return r.body();
                }
            } catch (IOException e) {
                // not up yet
            }
            Thread.sleep(250);
        }
        throw new AssertionError(url + " did not answer while the demo ran; demo "
                + (demo.isDone() ? "exited with " + demo.join() : "still runs") + ", printed:\n" + output);
    }

    private static List<String> demoWorkDirs() throws IOException {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("commitflow-demo-")).sorted().toList();
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
