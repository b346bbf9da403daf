package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import io.commitflow.testing.Reconciliation;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The job as operators run it: a standalone Flink session cluster — a JobManager and a TaskManager in JVMs of their
 * own, from the Maven-resolved Flink jars, configured with {@code flink-conf/config.yaml} — receives the shaded job
 * jar over the REST API ({@code /jars/upload}, {@code /jars/{id}/run}) and writes suggestions to Kafka.
 *
 * <p>Then the TaskManager's JVM is killed with SIGKILL under load (no shutdown hook runs, nothing is flushed or
 * closed), right after a checkpoint and while a second repository's suggestions are on their way; a new
 * TaskManager process registers and the job restores. Reading the output with read_committed: every commit exactly
 * once (lost 0, duplicates 0), every malformed record once in the DLQ, redeliveries sent after the kill not
 * described again (a sentinel behind them shows they were read).
 */
class StandaloneClusterITCase {
    private static final Path HOME = Path.of(System.getProperty("commitflow.home", "..")).toAbsolutePath().normalize();

    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    private static final int LIB_COMMITS = 2000;
    private static final int MALFORMED = 20;
    private static final int REDELIVERED = 50;

    @TempDir
    Path dir;

    @Test
    void aJarSubmittedOverRestWritesSuggestionsAndSurvivesASigkilledTaskManager() throws Exception {
        List<RevCommit> history = GitHistory.create(dir.resolve("mirrors"), "app.git", 15);
        List<RevCommit> lib = GitHistory.create(dir.resolve("mirrors"), "lib.git", LIB_COMMITS);
        RevCommit sentinel = GitHistory.create(dir.resolve("mirrors"), "sentinel.git", 1).get(0);
        KafkaSettings k = KafkaSettings.defaults(KAFKA.bootstrap());
        for (String t : List.of(k.eventsTopic(), k.suggestionsTopic(), k.deadLetterTopic(), k.slaTopic())) {
            KAFKA.createTopic(t, 2);
        }
        int rest = freePort();
        Path conf = config(rest);
        String cp = clusterClasspath();
        List<Process> cluster = new ArrayList<>();
        try {
            cluster.add(java(List.of(), cp, "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                    List.of("--configDir", conf.toString()), "jobmanager"));
            List<String> tm = taskManagerParams(cp, conf);
            Process first = startTaskManager(cp, conf, tm, "taskmanager");
            cluster.add(first);

            HttpClient http = HttpClient.newHttpClient();
            String base = "http://127.0.0.1:" + rest;
            waitFor(() -> get(http, base + "/overview").path("slots-available").asInt() >= 2, "a TaskManager with two slots");

            String jarId = upload(http, base, HOME.resolve("job/target/commitflow-job.jar"));
            String body = Json.mapper().writeValueAsString(Json.mapper().createObjectNode()
                    .put("parallelism", 2)
                    .set("programArgsList", Json.mapper().valueToTree(List.of("--bootstrap", KAFKA.bootstrap(),
                            "--mirror-root", dir.resolve("mirrors").toString()))));
            HttpResponse<String> run = http.send(HttpRequest.newBuilder(URI.create(base + "/jars/" + jarId + "/run"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(run.statusCode()).as(run.body()).isEqualTo(200);
            String jobId = Json.mapper().readTree(run.body()).path("jobid").asText();

            // 1: the submitted jar describes a first repository, and dead-letters malformed records
            for (int i = 0; i < MALFORMED; i++) {
                KAFKA.produce(k.eventsTopic(), null, List.of(("not json " + i).getBytes(StandardCharsets.UTF_8)));
            }
            KAFKA.produce(k.eventsTopic(), "app".getBytes(StandardCharsets.UTF_8), GitHistory.commitEvents("app", history));
            waitFor(() -> committed(k) >= history.size(), "the first suggestions");
            assertThat(get(http, base + "/jobs/" + jobId).path("state").asText()).isEqualTo("RUNNING");

            // 2: SIGKILL the TaskManager's JVM while a second repository streams in (50 commits every 100 ms)
            long checkpoints = completedCheckpoints(http, base, jobId);
            waitFor(() -> completedCheckpoints(http, base, jobId) > checkpoints, "a checkpoint after the first output");
            // the producer kills between two of its batches, once asked: the batch before was acknowledged by the
            // broker moments before, so it cannot all have been committed yet; it goes on sending during the outage
            CountDownLatch killNow = new CountDownLatch(1);
            CompletableFuture<Integer> killed = new CompletableFuture<>();
            CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> {
                try {
                    for (int from = 0; from < lib.size(); from += 50) {
                        List<RevCommit> part = lib.subList(from, Math.min(lib.size(), from + 50));
                        KAFKA.produce(k.eventsTopic(), "lib".getBytes(StandardCharsets.UTF_8), GitHistory.commitEvents("lib", part));
                        if (!killed.isDone() && killNow.getCount() == 0) {
                            first.destroyForcibly(); // SIGKILL: no shutdown hook, nothing flushed or closed
                            killed.complete(from + part.size());
                        }
                        Thread.sleep(100);
                    }
                    killed.completeExceptionally(new AssertionError("every commit was sent before the kill"));
                } catch (Exception e) {
                    killed.completeExceptionally(e);
                    throw new IllegalStateException(e);
                }
            });
            waitFor(() -> committed(k) > history.size() + 100, "output of the second repository");
            killNow.countDown();
            int sentAtKill = killed.get(1, TimeUnit.MINUTES);
            assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(first.exitValue()).as("killed by SIGKILL").isEqualTo(137);
            int atKill = committed(k);
            assertThat(atKill).as("the kill hit records in flight: sent, not yet committed")
                    .isLessThan(history.size() + sentAtKill);
            assertThat(sentAtKill).as("more was sent during the outage").isLessThan(lib.size());

            // 3: a new TaskManager process registers; the job restores from its last checkpoint and goes on
            cluster.add(startTaskManager(cp, conf, tm, "taskmanager-2"));
            producer.get(2, TimeUnit.MINUTES);
            waitFor(() -> committed(k) >= history.size() + lib.size(), "the second repository after the kill");

            // redeliveries after the kill, then a sentinel on their partition: once it is described, they were read
            KAFKA.produce(k.eventsTopic(), "lib".getBytes(StandardCharsets.UTF_8),
                    GitHistory.commitEvents("lib", lib.subList(0, REDELIVERED)));
            KAFKA.produce(k.eventsTopic(), "lib".getBytes(StandardCharsets.UTF_8),
                    List.of(GitHistory.commitEvent("sentinel", sentinel)));
            waitFor(() -> committed(k) >= history.size() + lib.size() + 1, "the sentinel");
            assertThat(get(http, base + "/jobs/" + jobId).path("state").asText()).isEqualTo("RUNNING");
            JsonNode exceptions = get(http, base + "/jobs/" + jobId + "/exceptions");
            Thread.sleep(3000); // a few more checkpoints: duplicates, if any, would show now

            List<String> expected = new ArrayList<>(Reconciliation.keys("app", history));
            expected.addAll(Reconciliation.keys("lib", lib));
            expected.add("sentinel@" + sentinel.name());
            Reconciliation.assertExactlyOnce(Reconciliation.perCommit(KAFKA.readCommitted(k.suggestionsTopic())), expected);
            Map<String, Integer> dead = Reconciliation.perOrigin(KAFKA.readCommitted(k.deadLetterTopic()));
            assertThat(dead).as("each malformed record dead-lettered").hasSize(MALFORMED);
            assertThat(dead.values()).as("once").containsOnly(1);
            assertThat(exceptions.toString()).as("the job saw the TaskManager go").containsIgnoringCase("taskmanager");
            System.out.printf("standalone SIGKILL: %d commits + %d redeliveries + %d malformed; at the kill %d sent,"
                    + " %d committed; after: %d distinct, duplicates 0, dead letters %d%n", history.size() + lib.size() + 1,
                    REDELIVERED, MALFORMED, history.size() + sentAtKill, atKill, expected.size(), dead.size());
            http.send(HttpRequest.newBuilder(URI.create(base + "/jobs/" + jobId + "?mode=cancel"))
                    .method("PATCH", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        } finally {
            for (Process p : cluster) {
                p.destroy();
            }
            for (Process p : cluster) {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
    }

    private Process startTaskManager(String cp, Path conf, List<String> tm, String name) throws IOException {
        return java(Arrays.asList(tm.get(0).trim().split("\\s+")), cp, "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
                concat(List.of("--configDir", conf.toString()), Arrays.asList(tm.get(1).trim().split("\\s+"))), name);
    }

    private static long completedCheckpoints(HttpClient http, String base, String jobId) {
        return get(http, base + "/jobs/" + jobId + "/checkpoints").path("counts").path("completed").asLong();
    }

    /** How many suggestions are committed so far. */
    private static int committed(KafkaSettings k) {
        return KAFKA.readCommitted(k.suggestionsTopic()).size();
    }

    /** flink-conf/config.yaml with this test's ports and folders in place of the ones it names. */
    private Path config(int rest) throws IOException {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        List<String> overrides = List.of(
                "rest.port: " + rest, "rest.bind-address: 127.0.0.1", "rest.address: 127.0.0.1",
                "jobmanager.rpc.address: 127.0.0.1", "jobmanager.rpc.port: " + freePort(),
                "jobmanager.bind-host: 127.0.0.1", "taskmanager.bind-host: 127.0.0.1", "taskmanager.host: 127.0.0.1",
                "taskmanager.numberOfTaskSlots: 2", "parallelism.default: 2",
                "jobmanager.memory.process.size: 768m", "taskmanager.memory.process.size: 1536m",
                "metrics.reporter.prom.port: " + freePort(),
                "execution.checkpointing.dir: " + dir.resolve("checkpoints").toUri(),
                "execution.checkpointing.interval: 1s",
                // a killed TaskManager is noticed within seconds (production keeps Flink's 50 s heartbeat timeout)
                "heartbeat.interval: 1000", "heartbeat.timeout: 5000",
                "io.tmp.dirs: " + Files.createDirectories(dir.resolve("tmp")),
                "web.upload.dir: " + Files.createDirectories(dir.resolve("uploads")));
        // the cluster's file under the local overlay (loopback, local folders, no HA), as local runs read it, then
        // this test's own values; each key once
        List<String> local = new ArrayList<>();
        for (String line : Files.readAllLines(HOME.resolve("flink-conf/local/config.yaml"))) {
            if (line.indexOf(':') > 0 && !line.startsWith("#")) {
                local.add(line);
            }
        }
        List<String> keys = new ArrayList<>(overrides.stream().map(o -> o.substring(0, o.indexOf(':'))).toList());
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(HOME.resolve("flink-conf/config.yaml"))) {
            if (!line.startsWith("#") && keys.contains(key(line))) {
                continue;
            }
            if (!line.startsWith("#") && local.stream().anyMatch(l -> key(l).equals(key(line)))) {
                continue;
            }
            lines.add(line);
        }
        local.stream().filter(l -> !keys.contains(key(l))).forEach(lines::add);
        lines.addAll(overrides);
        Files.write(conf.resolve("config.yaml"), lines);
        Files.copy(HOME.resolve("flink-conf/log4j.properties"), conf.resolve("log4j.properties"));
        return conf;
    }

    /** The key of a {@code key: value} line; empty for any other line. */
    private static String key(String line) {
        int colon = line.indexOf(':');
        return colon > 0 ? line.substring(0, colon).trim() : "";
    }

    /**
     * Flink with its dependencies and logging, as a distribution's lib/ has them: the launcher's classpath without
     * the job's own code and libraries (Kafka, the connector, JGit, Jackson, …), which come only with the submitted
     * jar — Flink loads org.apache.flink classes parent-first, so a connector on both sides would clash.
     */
    private static String clusterClasspath() throws IOException {
        Path target = HOME.resolve("job/target");
        List<String> cp = new ArrayList<>(Arrays.asList(Files.readString(target.resolve("job-provided.classpath")).strip().split(":")));
        List<String> jobOnly = List.of("commitflow", "/org/apache/kafka/", "/flink-connector-", "/org/eclipse/jgit/",
                "/info/picocli/", "/com/fasterxml/", "/org/hdrhistogram/", "/at/yawk/", "/org/jcuda/");
        for (String e : Files.readString(target.resolve("job-runtime.classpath")).strip().split(":")) {
            if (jobOnly.stream().noneMatch(e::contains)) {
                cp.add(e);
            }
        }
        return String.join(":", cp);
    }

    /** The JVM options and dynamic properties a TaskManager needs, as Flink's start scripts compute them. */
    private List<String> taskManagerParams(String cp, Path conf) throws Exception {
        Process p = java(List.of(), cp, "org.apache.flink.runtime.util.bash.BashJavaUtils",
                List.of("GET_TM_RESOURCE_PARAMS", "--configDir", conf.toString()), "bash-java-utils");
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("bash-java-utils.log"))) {
            if (line.startsWith("BASH_JAVA_UTILS_EXEC_RESULT:")) {
                out.add(line.substring("BASH_JAVA_UTILS_EXEC_RESULT:".length()));
            }
        }
        assertThat(out).as(Files.readString(dir.resolve("bash-java-utils.log"))).hasSize(2);
        return out;
    }

    private Process java(List<String> jvm, String cp, String main, List<String> args, String name) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(jvm);
        // Flink's --add-opens/--add-exports, as this test JVM has them
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-opens") || a.startsWith("--add-exports")).forEach(cmd::add);
        cmd.add("-Dlog.file=" + dir.resolve(name + "-flink.log"));
        cmd.add("-Dlog4j.configurationFile=" + dir.resolve("conf/log4j.properties").toUri());
        cmd.add("-Djava.io.tmpdir=" + dir.resolve("tmp"));
        cmd.addAll(List.of("-cp", cp, main));
        cmd.addAll(args);
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile()).start();
    }

    private static String upload(HttpClient http, String base, Path jar) throws Exception {
        String boundary = "commitflow" + System.nanoTime();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\"commitflow-job.jar\"\r\n"
                + "Content-Type: application/x-java-archive\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        body.write(Files.readAllBytes(jar));
        body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/jars/upload"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        String file = Json.mapper().readTree(r.body()).path("filename").asText();
        return file.substring(file.lastIndexOf('/') + 1);
    }

    private static JsonNode get(HttpClient http, String url) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return Json.mapper().readTree(r.body());
        } catch (Exception e) {
            return Json.mapper().createObjectNode(); // not up yet
        }
    }

    private void waitFor(java.util.concurrent.Callable<Boolean> condition, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (!condition.call()) {
            if (System.nanoTime() > deadline) {
                StringBuilder logs = new StringBuilder();
                for (String n : List.of("jobmanager", "taskmanager")) {
                    Path f = dir.resolve(n + ".log");
                    if (Files.exists(f)) {
                        List<String> l = Files.readAllLines(f);
                        logs.append("\n--- ").append(n).append(" (last lines)\n")
                                .append(String.join("\n", l.subList(Math.max(0, l.size() - 30), l.size())));
                    }
                }
                throw new AssertionError("timed out waiting for " + what + logs);
            }
            Thread.sleep(500);
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        b.stream().filter(s -> !s.isEmpty()).forEach(out::add);
        return out;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
