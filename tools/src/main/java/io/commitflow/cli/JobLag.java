package io.commitflow.cli;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * The job's consumer lag as its own Prometheus endpoint reports it: records behind, summed over the events topic's
 * partitions (the job's own {@code consumerLag} {@code recordsBehind} per partition; the connector's
 * {@code pendingRecords} per subtask where those are absent) and {@code currentEmitEventTimeLag} (ms: the age of
 * the event being read; the oldest unread one while the job is behind) — the series the dashboard's "Are we keeping
 * up?" panel shows.
 */
final class JobLag {
    private static final String PREFIX = "flink_taskmanager_job_task_operator_";
    private static final String EVENTS_SOURCE = "operator_name=\"Source:_kafka:_events\"";
    /** The job's own per-partition series ({@code PartitionLag}), under the source's deserializer. */
    static final String PARTITION_BEHIND = "deserializer_consumerLag_topic_partition_recordsBehind";
    /**
     * Only the three series: the endpoint renders just the metric families named (the job has thousands, and writing
     * them all once a second cost the job about 5% of its CPU in a load test).
     */
    static final String QUERY = "?name[]=" + PREFIX + "pendingRecords&name[]=" + PREFIX + "currentEmitEventTimeLag&name[]="
            + PREFIX + PARTITION_BEHIND;

    private final java.util.function.IntSupplier port;

    /** @param metricsPort the job's Prometheus port, 0 until the job runs */
    JobLag(java.util.function.IntSupplier metricsPort) {
        this.port = metricsPort;
    }

    /** {records behind, age in ms}, or null when the endpoint does not answer or has neither series yet. */
    double[] sample() {
        int p = port.getAsInt();
        if (p <= 0) {
            return null;
        }
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create("http://localhost:" + p + "/metrics" + QUERY.replace("[]", "%5B%5D")).toURL().openConnection();
            c.setConnectTimeout(500);
            c.setReadTimeout(2000);
            try (InputStream in = c.getInputStream()) {
                return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } finally {
                c.disconnect();
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The two figures from Prometheus' text format; null when neither series is there. */
    static double[] parse(String text) {
        double behind = 0;
        double behindByPartition = 0;
        boolean partitions = false;
        double age = Double.NaN;
        boolean any = false;
        for (String line : text.split("\n")) {
            if (!line.startsWith(PREFIX) || !line.contains(EVENTS_SOURCE)) {
                continue;
            }
            boolean pending = line.startsWith(PREFIX + "pendingRecords{");
            boolean lag = line.startsWith(PREFIX + "currentEmitEventTimeLag{");
            boolean partition = line.startsWith(PREFIX + PARTITION_BEHIND + "{");
            if (!pending && !lag && !partition) {
                continue;
            }
            double v;
            try {
                v = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            } catch (NumberFormatException e) {
                continue;
            }
            if (Double.isNaN(v) || v < 0) {
                continue;
            }
            any = true;
            if (partition) {
                partitions = true;
                behindByPartition += v;
            } else if (pending) {
                behind += v;
            } else {
                age = Double.isNaN(age) ? v : Math.max(age, v);
            }
        }
        return any ? new double[] {partitions ? behindByPartition : behind, age} : null;
    }
}
