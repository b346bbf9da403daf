package io.commitflow.cli;

import io.commitflow.event.EventParser;
import io.commitflow.event.Origin;
import io.commitflow.event.RawRecord;
import io.commitflow.testing.GitHistory;
import io.commitflow.testing.KafkaBroker;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReplayCommandITCase {
    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    @TempDir
    Path repos;

    @Test
    void publishesHistoryOldestFirstAsEventsTheJobParses() throws Exception {
        List<RevCommit> history = GitHistory.create(repos, "lib.git", 15);
        KAFKA.createTopic("replayed", 1);
        StringWriter out = new StringWriter();
        var cli = Commitflow.commandLine();
        cli.setOut(new PrintWriter(out, true));

        int exit = cli.execute("replay", "--repo", repos.resolve("lib.git").toString(), "--bootstrap", KAFKA.bootstrap(),
                "--topic", "replayed", "--rate", "0", "--max", "12", "--tenant", "acme", "--name", "team/lib");

        assertThat(exit).isZero();
        var records = KAFKA.readCommitted("replayed");
        assertThat(records).hasSize(12);
        EventParser parser = new EventParser(EventParser.DEFAULT_MAX_EVENT_BYTES);
        for (int i = 0; i < records.size(); i++) {
            var r = records.get(i);
            var parsed = parser.parse(new RawRecord(new Origin(r.topic(), r.partition(), r.offset(), r.timestamp()), r.key(), r.value()));
            RevCommit expected = history.get(i);
            assertThat(parsed).isInstanceOfSatisfying(EventParser.Result.Commit.class, c -> {
                assertThat(c.event().sha()).isEqualTo(expected.name());
                assertThat(c.event().repo()).isEqualTo("team/lib");
                assertThat(c.event().tenant()).isEqualTo("acme");
                assertThat(c.event().message()).isEqualTo(expected.getFullMessage());
            });
        }
    }

    @Test
    void refusesMissingRequiredOptions() {
        StringWriter err = new StringWriter();
        var cli = Commitflow.commandLine();
        cli.setErr(new PrintWriter(err, true));

        assertThat(cli.execute("replay", "--repo", repos.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("Missing required option: '--bootstrap=HOST:PORT[,…]'");
    }

    @Test
    void pushModeSendsPushesThatCoverTheHistoryInOrder() throws Exception {
        List<RevCommit> history = GitHistory.create(repos, "app.git", 10); // a root and nine more
        KAFKA.createTopic("pushes", 1);
        var cli = Commitflow.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));

        int exit = cli.execute("replay", "--repo", repos.resolve("app.git").toString(), "--bootstrap", KAFKA.bootstrap(),
                "--topic", "pushes", "--mode", "push", "--commits-per-push", "4", "--rate", "0", "--tenant", "acme");

        assertThat(exit).isZero();
        List<io.commitflow.event.PushEvent> pushes = KAFKA.readCommitted("pushes").stream().map(r -> {
            var parsed = new EventParser(EventParser.DEFAULT_MAX_EVENT_BYTES).parse(
                    new RawRecord(new Origin("pushes", r.partition(), r.offset(), r.timestamp()), r.key(), r.value()));
            return ((EventParser.Result.Push) parsed).event();
        }).toList();
        // the root is the base; then commits 1-4, 5-8 and 9
        assertThat(pushes).extracting(io.commitflow.event.PushEvent::before)
                .containsExactly(history.get(0).name(), history.get(4).name(), history.get(8).name());
        assertThat(pushes).extracting(io.commitflow.event.PushEvent::after)
                .containsExactly(history.get(4).name(), history.get(8).name(), history.get(9).name());
        assertThat(pushes).allSatisfy(p -> assertThat(p.ref()).isEqualTo("refs/heads/main"));
    }

    @Test
    void aRateProfileBoundsWhatIsSentAndSaysSo() throws Exception {
        GitHistory.create(repos, "big.git", 30);
        KAFKA.createTopic("profiled", 1);
        StringWriter out = new StringWriter();
        var cli = Commitflow.commandLine();
        cli.setOut(new PrintWriter(out, true));

        int exit = cli.execute("replay", "--repo", repos.resolve("big.git").toString(), "--bootstrap", KAFKA.bootstrap(),
                "--topic", "profiled", "--rate", "steps:10,20/500ms");

        assertThat(exit).as(out.toString()).isZero();
        assertThat(KAFKA.readCommitted("profiled")).hasSize(15);
        assertThat(out.toString()).contains("the profile offers 15 events over 1 s", "done: 15 sent, 15 acknowledged, 0 errors");
        assertThat(cli.execute("replay", "--repo", repos.resolve("big.git").toString(), "--bootstrap", KAFKA.bootstrap(),
                "--rate", "ramp:fast")).isEqualTo(2);
    }
}
