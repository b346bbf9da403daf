package io.commitflow.cli;

import io.commitflow.event.EventParser;
import io.commitflow.event.Origin;
import io.commitflow.event.PushEvent;
import io.commitflow.event.RawRecord;
import io.commitflow.testing.Git;
import io.commitflow.testing.KafkaBroker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * tools/hooks/post-receive in a real bare repository: C git runs it on {@code git push}, and the push events it
 * publishes reach Kafka and parse as the job parses them.
 */
class PostReceiveHookITCase {
    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    @TempDir
    Path dir;

    @Test
    void aGitPushPublishesOnePushEventPerRefUpdate() throws Exception {
        KAFKA.createTopic("pushes", 1);
        Path server = dir.resolve("server.git");
        git(dir, "init", "-q", "--bare", server.toString());
        Path hook = server.resolve("hooks/post-receive");
        Files.copy(DemoITCase.HOME.resolve("tools/hooks/post-receive"), hook);
        Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwxr-xr-x"));
        git(server, "config", "commitflow.bootstrap", KAFKA.bootstrap());
        git(server, "config", "commitflow.topic", "pushes");
        git(server, "config", "commitflow.tenant", "acme");
        git(server, "config", "commitflow.repo", "team/app.git");
        git(server, "config", "commitflow.launcher", TestLauncher.write(dir).toString());

        Path work = dir.resolve("work");
        git(dir, "init", "-q", "-b", "main", work.toString());
        Files.writeString(work.resolve("a.txt"), "one\n");
        git(work, "add", "a.txt");
        git(work, "-c", "user.name=Ada", "-c", "user.email=ada@example.com", "commit", "-q", "-m", "Add a");
        String first = git(work, "rev-parse", "HEAD").strip();
        String out1 = git(work, "push", server.toString(), "main");
        Files.writeString(work.resolve("a.txt"), "two\n");
        git(work, "-c", "user.name=Ada", "-c", "user.email=ada@example.com", "commit", "-q", "-am", "Change a");
        String second = git(work, "rev-parse", "HEAD").strip();
        git(work, "push", server.toString(), "main", "main:refs/heads/release");

        List<PushEvent> events = new ArrayList<>();
        java.util.Set<String> traces = new java.util.HashSet<>();
        for (var r : KAFKA.readCommitted("pushes")) {
            var header = r.headers().lastHeader(io.commitflow.event.TraceContext.HEADER);
            assertThat(header).as("each push starts its trace on the server").isNotNull();
            traces.add(io.commitflow.event.TraceContext.traceIdOf(new String(header.value(),
                    java.nio.charset.StandardCharsets.US_ASCII)));
            var parsed = new EventParser(EventParser.DEFAULT_MAX_EVENT_BYTES).parse(
                    new RawRecord(new Origin("pushes", r.partition(), r.offset(), r.timestamp()), r.key(), r.value()));
            assertThat(parsed).as(new String(r.value())).isInstanceOf(EventParser.Result.Push.class);
            events.add(((EventParser.Result.Push) parsed).event());
        }

        assertThat(events).as("git push printed:\n" + out1).hasSize(3);
        assertThat(traces).as("valid and one per push event").hasSize(3).doesNotContainNull();
        assertThat(events).allSatisfy(e -> {
            assertThat(e.tenant()).isEqualTo("acme");
            assertThat(e.repo()).as("without .git, as every stage names it").isEqualTo("team/app");
        });
        assertThat(events.get(0).ref()).isEqualTo("refs/heads/main");
        assertThat(events.get(0).before()).isEqualTo(PushEvent.ZERO_SHA1);
        assertThat(events.get(0).after()).isEqualTo(first);
        assertThat(events.subList(1, 3)).extracting(PushEvent::ref)
                .containsExactlyInAnyOrder("refs/heads/main", "refs/heads/release");
        assertThat(events.subList(1, 3)).allSatisfy(e -> assertThat(e.after()).isEqualTo(second));
    }


    private static String git(Path in, String... args) throws Exception {
        return Git.run(in, args);
    }
}
