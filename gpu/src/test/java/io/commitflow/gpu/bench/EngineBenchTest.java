package io.commitflow.gpu.bench;

import io.commitflow.gpu.SimulatedCuda;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EngineBenchTest {
    @Test
    void parsesItsOptions() {
        EngineBench.Settings s = EngineBench.parse("--rows", "500,100", "--batch", "1,4", "--dim", "16", "--engine",
                "cpu", "--cpu-max-seconds", "0.5");
        assertThat(s.rows()).as("filled in ascending order").containsExactly(100, 500);
        assertThat(s.batches()).containsExactly(1, 4);
        assertThat(s.dim()).isEqualTo(16);
        assertThat(s.cpuMaxSeconds()).isEqualTo(0.5);
        assertThat(EngineBench.parse("--help")).isNull();
        assertThat(EngineBench.parse()).isEqualTo(EngineBench.Settings.defaults());
        assertThatThrownBy(() -> EngineBench.parse("--engine", "gpu")).hasMessageContaining("auto, cpu, cuda or both");
        assertThatThrownBy(() -> EngineBench.parse("--rows", "x")).hasMessageContaining("wants a number");
        assertThatThrownBy(() -> EngineBench.parse("--what", "1")).hasMessageContaining("unknown option");
        assertThat(EngineBench.Settings.defaults().pathBatches()).as("timed on both small-batch paths")
                .containsExactly(1, 2, 4, 8);
        assertThat(EngineBench.parse("--path-batches", "8,1").pathBatches()).containsExactly(8, 1);
        assertThat(EngineBench.parse("--path-batches", "none").pathBatches()).isEmpty();
        assertThatThrownBy(() -> EngineBench.parse("--path-batches", "9")).hasMessageContaining("between 1 and 8");
    }

    @Test
    void printsOneJsonLinePerEngineRowsAndBatch() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        EngineBench.Settings s = new EngineBench.Settings("cpu", List.of(300, 600), List.of(1, 8), 16, 5, 2, 2, 30,
                4800, 0, 1);
        assertThat(EngineBench.run(s, new PrintWriter(out, true), new PrintWriter(err, true))).isZero();
        List<String> lines = out.toString().lines().toList();
        assertThat(lines).hasSize(4).allSatisfy(l -> assertThat(l).startsWith("{\"engine\":\"cpu\"").endsWith("}")
                .contains("\"queries_per_s\":").contains("\"mode\":\"measured\""));
        assertThat(lines.get(3)).contains("\"rows\":600,").contains("\"batch\":8,");
    }

    @Test
    void comparesBothSmallBatchPathsOfTheCudaEngineAndChecksThemAgainstTheCpu() {
        StringWriter out = new StringWriter();
        EngineBench.Settings s = new EngineBench.Settings("both", List.of(700), List.of(1, 9), List.of(1, 8), 16, 5,
                2, 2, 30, 4800, 0, 3);
        assertThat(EngineBench.run(s, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true),
                SimulatedCuda::h200, budget -> SimulatedCuda.engine(16, 64L << 20, 256))).isZero();
        List<String> lines = out.toString().lines().toList();
        assertThat(lines).filteredOn(l -> l.startsWith("{\"parity\"")).hasSize(2)
                .allSatisfy(l -> assertThat(l).contains("\"parity\":true", "\"queries\":8"))
                .anySatisfy(l -> assertThat(l).endsWith("\"path\":\"few\"}"))
                .anySatisfy(l -> assertThat(l).endsWith("\"path\":\"narrow\"}"));
        assertThat(lines).filteredOn(l -> l.startsWith("{\"engine\":\"cuda\"")).hasSize(2)
                .anySatisfy(l -> assertThat(l).contains("\"batch\":1,", "\"path\":\"few\"",
                        "\"peak_gb_per_s\":4916.7", "\"peak_source\":\"device\"", "\"fraction_of_peak\":"))
                .anySatisfy(l -> assertThat(l).contains("\"batch\":9,", "\"path\":\"wide\""));
        assertThat(lines).filteredOn(l -> l.startsWith("{\"compare\":\"small_batch_paths\"")).hasSize(2)
                .allSatisfy(l -> assertThat(l).contains("\"rows\":700,", "\"narrow\":{\"queries_per_s\":",
                        "\"few\":{\"queries_per_s\":", "\"few_over_narrow\":").endsWith("}"))
                .anySatisfy(l -> assertThat(l).contains("\"batch\":8,"));
    }

    @Test
    void extrapolatesTheCpuWhenAMeasurementWouldTakeTooLong() {
        StringWriter out = new StringWriter();
        EngineBench.Settings s = new EngineBench.Settings("cpu", List.of(20_000), List.of(64), 64, 5, 2, 2, 1e-4,
                4800, 0, 1);
        EngineBench.run(s, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
        assertThat(out.toString()).containsAnyOf("\"mode\":\"extrapolated\"", "\"mode\":\"skipped\"");
    }
}
