package io.commitflow.cli;

import io.commitflow.testing.GitHistory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code commitflow eval} as a user runs it, on a generated history: one line per history size, a learning curve. */
class EvalCommandTest {
    @TempDir
    Path dir;

    @Test
    void severalHistorySizesGiveALearningCurveInOneRun() throws Exception {
        GitHistory.create(dir, "app.git", 40);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = Commitflow.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        Path rows = dir.resolve("rows.jsonl");

        int status = cli.execute("eval", "--repo", dir.resolve("app.git").toString(), "--test", "10",
                "--history", "5,20,100", "--out", rows.toString());

        assertThat(status).as(err.toString()).isZero();
        List<String> summaries = out.toString().lines().filter(l -> l.startsWith("{")).toList();
        assertThat(summaries).hasSize(3);
        assertThat(summaries.get(0)).contains("\"repo\":\"app.git\"", "\"commits\":10", "\"history\":5");
        // 40 commits: the last 10 are tested from at most the 30 before them, and the report says so
        assertThat(summaries.get(2)).contains("\"history\":30");
        assertThat(err.toString()).contains("up to 30 before it (asked: 10 from 100)");
        assertThat(Files.readAllLines(rows)).hasSize(30).allSatisfy(l -> assertThat(l).contains("\"unsupported\":"));
    }

    @Test
    void hindsightAddsItsColumnsToTheTableTheSummaryAndEachRow() throws Exception {
        GitHistory.create(dir, "app.git", 30);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = Commitflow.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        Path rows = dir.resolve("rows.jsonl");

        int status = cli.execute("eval", "--repo", dir.resolve("app.git").toString(), "--test", "5", "--history", "20",
                "--hindsight", "--out", rows.toString());

        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString().lines().findFirst().orElseThrow()).endsWith("hindsight  ratio   without (#n)  ratio");
        assertThat(out.toString().lines().filter(l -> l.startsWith("{")).toList()).singleElement().asString()
                .contains("\"hindsight_bnorm\":", "\"hindsight_ratio\":", "\"hindsight_ratio_no_suffix\":");
        assertThat(Files.readAllLines(rows)).hasSize(5)
                .allSatisfy(l -> assertThat(l).contains("\"hindsight\":\"", "\"hindsight_bnorm\":"));
        // and only when asked for
        StringWriter plain = new StringWriter();
        cli.setOut(new PrintWriter(plain, true));
        assertThat(cli.execute("eval", "--repo", dir.resolve("app.git").toString(), "--test", "5", "--history", "20"))
                .isZero();
        assertThat(plain.toString()).doesNotContain("hindsight");
    }

    @Test
    void refusesAHistoryOfZero() {
        var cli = Commitflow.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        assertThat(cli.execute("eval", "--repo", dir.toString(), "--history", "50,0")).isNotZero();
        assertThat(err.toString()).contains("every --history must be at least 1");
    }
}
