package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.Json;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Waits until every task of a job on the local Flink is RUNNING, reading the cluster's REST API (the web UI's), and
 * otherwise fails with one line that names the cause: tasks waiting for task slots the cluster does not have, or the
 * exception that keeps failing the job. A job whose tasks never get their slots still reports the job status RUNNING,
 * so the job client alone cannot tell.
 *
 * <pre>{@code
 * JobClient job = env.executeAsync("commitflow");
 * JobStart.awaitRunning(job, webPort, Duration.ofMinutes(2));   // UserError after two minutes
 * }</pre>
 */
final class JobStart {
    private static final Duration POLL = Duration.ofMillis(250);

    private JobStart() {}

    /** What the REST API said of the job's tasks: counts per task state, and the cluster's slots. */
    record Tasks(Map<String, Integer> byState, int total, int slots, int freeSlots, String jobState) {
        boolean allRunning() {
            return total > 0 && byState.getOrDefault("RUNNING", 0) + byState.getOrDefault("FINISHED", 0) == total;
        }

        /** The one line that says why the job is not running. */
        String cause(Duration waited, String exception) {
            String states = byState.entrySet().stream().filter(e -> e.getValue() > 0 && !e.getKey().equals("RUNNING"))
                    .map(e -> e.getValue() + " " + e.getKey()).reduce((a, b) -> a + ", " + b).orElse("none");
            String head = String.format(Locale.ROOT, "the job did not start within %d s: %d of %d tasks RUNNING (%s)",
                    waited.toSeconds(), byState.getOrDefault("RUNNING", 0), total, states);
            if (byState.getOrDefault("SCHEDULED", 0) > 0 && exception == null) {
                return head + String.format(Locale.ROOT, ", waiting for task slots: the local cluster has %d, %d free; "
                        + "lower --parallelism or give the cluster more slots", slots, freeSlots);
            }
            return head + (exception == null ? ", job " + jobState : "; the job fails with: " + exception);
        }
    }

    /**
     * Returns once every task of {@code job} is RUNNING (or FINISHED).
     *
     * @throws UserError when that has not happened within {@code timeout}, or the job ended first; the message is one
     *                   line with the cause
     */
    static void awaitRunning(JobClient job, int restPort, Duration timeout) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        String base = "http://localhost:" + restPort;
        long deadline = System.nanoTime() + timeout.toNanos();
        long started = System.nanoTime();
        Tasks last = null;
        while (true) {
            JobStatus status = status(job);
            if (status != null && status.isGloballyTerminalState()) {
                throw new UserError("the job ended as " + status + " before all its tasks ran"
                        + exception(http, base, job).map(e -> ": " + e).orElse(" (see the log)"));
            }
            try {
                last = tasks(http, base, job);
                if (last.allRunning()) {
                    return;
                }
            } catch (IOException e) {
                // the REST endpoint comes up with the cluster: ask again
            }
            if (System.nanoTime() >= deadline) {
                Duration waited = Duration.ofNanos(System.nanoTime() - started);
                if (last == null) {
                    throw new UserError("the job did not start within " + waited.toSeconds() + " s: the local Flink's REST "
                            + "endpoint on port " + restPort + " did not answer");
                }
                throw new UserError(last.cause(waited, exception(http, base, job).orElse(null)));
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private static JobStatus status(JobClient job) {
        try {
            return job.getJobStatus().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            return null;
        }
    }

    static Tasks tasks(HttpClient http, String base, JobClient job) throws IOException, InterruptedException {
        JsonNode j = get(http, base + "/jobs/" + job.getJobID());
        Map<String, Integer> byState = new TreeMap<>();
        int total = 0;
        for (JsonNode v : j.path("vertices")) {
            Iterator<Map.Entry<String, JsonNode>> counts = v.path("tasks").fields();
            while (counts.hasNext()) {
                Map.Entry<String, JsonNode> c = counts.next();
                byState.merge(c.getKey(), c.getValue().asInt(), Integer::sum);
            }
            total += v.path("parallelism").asInt();
        }
        int slots = 0;
        int free = 0;
        for (JsonNode tm : get(http, base + "/taskmanagers").path("taskmanagers")) {
            slots += tm.path("slotsNumber").asInt();
            free += tm.path("freeSlots").asInt();
        }
        return new Tasks(byState, total, slots, free, j.path("state").asText());
    }

    /** The first line of the job's latest exception, if it has one. */
    private static java.util.Optional<String> exception(HttpClient http, String base, JobClient job) {
        try {
            JsonNode j = get(http, base + "/jobs/" + job.getJobID() + "/exceptions");
            String text = j.path("root-exception").asText("");
            if (text.isEmpty() && j.path("exceptionHistory").path("entries").size() > 0) {
                text = j.path("exceptionHistory").path("entries").get(0).path("stacktrace").asText("");
            }
            text = text.strip().lines().findFirst().orElse("");
            return text.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(text);
        } catch (IOException e) {
            return java.util.Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        }
    }

    private static JsonNode get(HttpClient http, String url) throws IOException, InterruptedException {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).GET()
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
            throw new IOException(url + " answered " + r.statusCode());
        }
        return Json.mapper().readTree(r.body());
    }
}
