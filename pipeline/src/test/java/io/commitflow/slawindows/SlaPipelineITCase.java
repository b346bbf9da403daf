package io.commitflow.slawindows;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.Json;
import io.commitflow.event.Origin;
import io.commitflow.event.Suggestion;
import io.commitflow.sla.SlaRecord;
import io.commitflow.sla.SlaSample;
import io.commitflow.sla.SlaSettings;
import io.commitflow.sla.SlaStatsTest;
import io.commitflow.testing.CollectSink;
import io.commitflow.testing.MiniClusters;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The SLA branch on a MiniCluster (RocksDB): a few thousand outcomes of two tenants over several minutes of event
 * time, slightly out of order; every window the job writes equals an exact computation over the same samples
 * (quantiles within the histogram's precision), no window is missing, each spike is where Δ passes the threshold,
 * and a sample that comes after its pane closed is written as late. Event time is when each outcome was made: an
 * outcome slower than the out-of-orderness bound, sent when it was made, counts in its window's quantiles, and one
 * whose producer's clock ran an hour ahead makes nothing late.
 */
class SlaPipelineITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    static final long T0 = 1_790_000_000_000L - 1_790_000_000_000L % 10_000;
    static final SlaSettings SETTINGS = SlaSettings.DEFAULT;

    @Test
    void windowsEqualAnExactComputationOverTheSameSamples() throws Exception {
        Random r = new Random(5);
        List<Suggestion> suggestions = new ArrayList<>();
        List<DeadLetter> dead = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            long made = T0 + i * 100L + r.nextInt(3000); // 5 minutes, up to 3 s out of order
            String tenant = i % 3 == 0 ? "globex" : "acme";
            if (i % 97 == 0) {
                dead.add(new DeadLetter(i % 2 == 0 ? "NO_MIRROR" : "BAD_PATCH", "x", "diff", "", new Origin("t", 0, i, made),
                        tenant, "repo", "", "trace-" + i, made));
            } else {
                long latency = (long) Math.exp(5 + r.nextGaussian()) + (i > 1500 && i < 1530 ? 5000 : 0);
                long kafkaTs = made - latency;
                if (i == 800) {
                    latency = 20_000; // four times the out-of-orderness bound: its event is 20 s older than its neighbours'
                    kafkaTs = made - latency;
                } else if (i == 900) {
                    kafkaTs = made + 3_600_000; // the producer's clock is an hour ahead
                    latency = 0;
                }
                suggestions.add(new Suggestion("repo", "sha" + i, "s", "", "fix", "", i % 5 == 0 ? "cache" : "retrieval",
                        r.nextDouble(), List.of(), "miss", latency, "trace-" + i, tenant, "", kafkaTs, kafkaTs, made, ""));
            }
        }
        // a sample far behind everything else, sent after the others: its pane is long closed
        Suggestion late = new Suggestion("repo", "late", "s", "", "fix", "", "retrieval", 0.9, List.of(), "miss", 10,
                "trace-late", "acme", "", T0, T0, T0 + 10, "");

        Configuration conf = new Configuration();
        conf.set(StateBackendOptions.STATE_BACKEND, "rocksdb");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        List<Suggestion> all = new ArrayList<>(suggestions);
        all.add(late);
        DataStream<Suggestion> s = env.fromData(all).setParallelism(1).map(new SlowForLast(late.sha())).setParallelism(1);
        SlaPipeline.attach(s, env.fromData(dead).setParallelism(1), SETTINGS).sinkTo(new CollectSink<SlaRecord>("sla")).setParallelism(1);
        env.execute("sla");

        Map<String, JsonNode> windows = new HashMap<>();
        List<JsonNode> spikes = new ArrayList<>();
        List<JsonNode> lates = new ArrayList<>();
        for (SlaRecord record : CollectSink.<SlaRecord>collected("sla")) {
            String line = record.json();
            JsonNode n = Json.mapper().readTree(line);
            assertThat(n.path("tenant").asText()).as("the record's key is its tenant").isEqualTo(record.tenant());
            switch (n.path("kind").asText()) {
                case "window" -> assertThat(windows.put(n.path("tenant").asText() + "/" + n.path("backend").asText() + "@"
                        + n.path("windowEnd").asLong(), n)).as("one record per window and key").isNull();
                case "spike" -> spikes.add(n);
                case "late" -> lates.add(n);
                default -> throw new AssertionError(line);
            }
        }

        Map<String, Expected> expected = expected(suggestions, dead);
        assertThat(windows.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
        int spiking = 0;
        for (var e : expected.entrySet()) {
            JsonNode w = windows.get(e.getKey());
            Expected x = e.getValue();
            assertThat(w.path("count").asLong()).as(e.getKey()).isEqualTo(x.latencies.length);
            assertThat(w.path("errors").asLong()).as(e.getKey()).isEqualTo(x.errors);
            assertThat(w.path("tps").asDouble()).isCloseTo(x.latencies.length / 60.0, within(1e-9));
            assertThat(w.path("errorRate").asDouble()).isCloseTo(
                    (double) x.errors / Math.max(1, x.errors + x.latencies.length), within(1e-12));
            assertThat(w.path("attainment").asDouble()).as(e.getKey()).isCloseTo(x.attainment(), within(1e-9));
            if (x.latencies.length > 0) {
                long[] sorted = x.latencies.clone();
                Arrays.sort(sorted);
                String[] fields = {"p50Ms", "p95Ms", "p99Ms", "p999Ms"};
                for (int i = 0; i < fields.length; i++) {
                    SlaStatsTest.assertWithinPrecision(w.path(fields[i]).asLong(),
                            SlaStatsTest.exact(sorted, SlaStatsTest.PERCENTILES[i]));
                }
                assertThat(w.path("deltaMs").asLong()).isEqualTo(w.path("p999Ms").asLong() - w.path("p99Ms").asLong());
            }
            if (w.path("deltaMs").asLong() > SETTINGS.spikeThresholdMs()) {
                spiking++;
            }
        }
        assertThat(spiking).as("the slow burst makes spikes").isPositive();
        assertThat(spikes).hasSize(spiking);
        assertThat(spikes).allSatisfy(sp -> assertThat(sp.path("slowTraceIds").size()).isBetween(1, 5));
        assertThat(lates).hasSize(1);
        assertThat(lates.get(0).path("traceId").asText()).isEqualTo("trace-late");
        Suggestion slow = suggestions.stream().filter(x -> x.latencyMs() == 20_000).findFirst().orElseThrow();
        String slowKey = (slow.tenant().equals("acme") ? "acme" : "globex") + "/all@";
        long slowWindowEnd = slow.madeMs() - slow.madeMs() % SETTINGS.slide().toMillis() + SETTINGS.slide().toMillis();
        assertThat(windows.get(slowKey + slowWindowEnd).path("p999Ms").asLong()).as("the 20 s outcome is in its window's tail")
                .isGreaterThanOrEqualTo(19_000);
    }

    /** Exact figures per "tenant/backend@windowEnd" for every window holding a sample. */
    private static Map<String, Expected> expected(List<Suggestion> suggestions, List<DeadLetter> dead) {
        Map<String, List<SlaSample>> byKey = new TreeMap<>();
        for (Suggestion s : suggestions) {
            SlaSample x = SlaSample.of(s);
            byKey.computeIfAbsent(x.tenant() + "/" + x.backend(), k -> new ArrayList<>()).add(x);
            byKey.computeIfAbsent(x.tenant() + "/all", k -> new ArrayList<>()).add(x);
        }
        for (DeadLetter d : dead) {
            SlaSample x = SlaSample.of(d);
            byKey.computeIfAbsent(x.tenant() + "/" + x.backend(), k -> new ArrayList<>()).add(x);
            byKey.computeIfAbsent(x.tenant() + "/all", k -> new ArrayList<>()).add(x);
        }
        long size = SETTINGS.size().toMillis();
        long slide = SETTINGS.slide().toMillis();
        Map<String, Expected> out = new HashMap<>();
        byKey.forEach((key, samples) -> {
            long first = samples.stream().mapToLong(SlaSample::ts).min().orElseThrow();
            long last = samples.stream().mapToLong(SlaSample::ts).max().orElseThrow();
            for (long end = first - first % slide + slide; end <= last - last % slide + size; end += slide) {
                long start = end - size;
                List<SlaSample> in = samples.stream().filter(x -> x.ts() >= start && x.ts() < (start + size)).toList();
                if (!in.isEmpty()) {
                    out.put(key + "@" + (start + size), new Expected(in));
                }
            }
        });
        return out;
    }

    private static final class Expected {
        final long[] latencies;
        final long errors;
        final List<SlaSample> samples;

        Expected(List<SlaSample> samples) {
            this.samples = samples;
            this.latencies = samples.stream().filter(s -> !s.isError()).mapToLong(SlaSample::latencyMs).toArray();
            this.errors = samples.stream().filter(SlaSample::isError).count();
        }

        /** Σ met·w / Σ w straight from the definition. */
        double attainment() {
            double met = 0;
            double total = 0;
            for (SlaSample s : samples) {
                double sim = s.isError() ? 0 : s.similarity();
                double w = sim >= 0.8 ? 1.0 : sim >= 0.6 ? 0.7 : 0.2;
                total += w;
                if (!s.isError() && s.latencyMs() <= 800) {
                    met += w;
                }
            }
            return total == 0 ? 1.0 : met / total;
        }
    }

    /** Holds the late record back until the watermark has passed its pane. */
    static final class SlowForLast implements MapFunction<Suggestion, Suggestion> {
        private final String sha;

        SlowForLast(String sha) {
            this.sha = sha;
        }

        @Override
        public Suggestion map(Suggestion s) throws Exception {
            if (s.sha().equals(sha)) {
                Thread.sleep(1500); // several watermark intervals (200 ms)
            }
            return s;
        }
    }
}
