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

    /** What one {@code commitflow eval} printed, and its exit status. */
    private record Run(int status, String out, String err) {}

    private static Run eval(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = Commitflow.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        String[] line = new String[args.length + 1];
        line[0] = "eval";
        System.arraycopy(args, 0, line, 1, args.length);
        int status = cli.execute(line);
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void severalHistorySizesGiveALearningCurveInOneRun() throws Exception {
        GitHistory.create(dir, "app.git", 40);
        Path rows = dir.resolve("rows.jsonl");

        Run run = eval("--repo", dir.resolve("app.git").toString(), "--test", "10", "--history", "5,20,100", "--out",
                rows.toString());

        assertThat(run.status()).as(run.err()).isZero();
        List<String> summaries = run.out().lines().filter(l -> l.startsWith("{")).toList();
        assertThat(summaries).hasSize(3);
        assertThat(summaries.get(0)).contains("\"repo\":\"app.git\"", "\"commits\":10", "\"history\":5");
        // 40 commits: the last 10 are tested from at most the 30 before them, and the report says so
        assertThat(summaries.get(2)).contains("\"history\":30");
        assertThat(run.err()).contains("up to 30 before it (asked: 10 from 100)");
        assertThat(Files.readAllLines(rows)).hasSize(30).allSatisfy(l -> assertThat(l).contains("\"unsupported\":"));
    }

    @Test
    void hindsightAddsItsColumnsToTheTableTheSummaryAndEachRow() throws Exception {
        GitHistory.create(dir, "app.git", 30);
        Path rows = dir.resolve("rows.jsonl");

        Run run = eval("--repo", dir.resolve("app.git").toString(), "--test", "5", "--history", "20", "--hindsight",
                "--out", rows.toString());

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out().lines().findFirst().orElseThrow()).endsWith("hindsight  ratio   without (#n)  ratio   real form");
        assertThat(run.out().lines().filter(l -> l.startsWith("{")).toList()).singleElement().asString()
                .contains("\"hindsight_bnorm\":", "\"hindsight_ratio\":", "\"hindsight_ratio_no_suffix\":", "\"real_form_bnorm\":");
        assertThat(Files.readAllLines(rows)).hasSize(5)
                .allSatisfy(l -> assertThat(l).contains("\"hindsight\":\"", "\"hindsight_bnorm\":"));
        // and only when asked for
        Run plain = eval("--repo", dir.resolve("app.git").toString(), "--test", "5", "--history", "20");
        assertThat(plain.status()).as(plain.err()).isZero();
        assertThat(plain.out()).doesNotContain("hindsight");
    }

    @Test
    void refusesAHistoryOfZero() {
        Run run = eval("--repo", dir.toString(), "--history", "50,0");
        assertThat(run.status()).isNotZero();
        assertThat(run.err()).contains("every --history must be at least 1");
    }
}
