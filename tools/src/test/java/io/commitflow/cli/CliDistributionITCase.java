package io.commitflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.commitflow.testing.KafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI distribution as a developer or a Git server's admin meets it: the build's
 * {@code commitflow-tools-VERSION-cli.tar.gz} unpacked with tar into an empty folder, run with Java alone on a PATH
 * without Maven, against a real broker: {@code --version} from the POM, {@code push-event} lands on the events topic,
 * {@code suggest} answers (the local description, with no job), {@code install-hook} installs a hook that runs this
 * distribution's launcher at {@code git commit}, and {@code mirror} clones a pushed repository, then stops on TERM.
 */
class CliDistributionITCase {
    @RegisterExtension
    static final KafkaBroker KAFKA = new KafkaBroker();

    @TempDir
    static Path dir;

    private static Path home;

    @BeforeAll
    static void unpack() throws Exception {
        Path tarball;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(DemoITCase.HOME.resolve("tools/target"), "commitflow-tools-*-cli.tar.gz")) {
            List<Path> found = new ArrayList<>();
            s.forEach(found::add);
            assertThat(found).as("the package phase built the distribution").hasSize(1);
            tarball = found.get(0);
        }
        Path unpacked = Files.createDirectories(dir.resolve("opt"));
        Run tar = run(unpacked, Map.of(), "tar", "xzf", tarball.toString());
        assertThat(tar.exit()).as(tar.out()).isZero();
        home = unpacked.resolve("commitflow-" + Version.of());
        assertThat(home.resolve("bin/commitflow")).isExecutable();
        assertThat(home.resolve("hooks/post-receive")).isExecutable();
        assertThat(home.resolve("pom.xml")).doesNotExist();
        assertThat(home.resolve("mvnw")).doesNotExist();
        KAFKA.createTopic("commitflow.events", 1);
    }

    @Test
    void versionComesFromThePom() throws Exception {
        Run v = cli(dir, "--version");
        assertThat(v.exit()).as(v.out()).isZero();
        assertThat(v.out().strip()).isEqualTo("commitflow " + Version.of());
        assertThat(cli(dir, "demo").out()).as("the job's commands are the checkout's").contains("Unmatched argument");
    }

    @Test
    void pushEventLandsOnTheEventsTopic() throws Exception {
        String after = "b".repeat(40);
        Run r = cli(dir, "push-event", "--bootstrap", KAFKA.bootstrap(), "--tenant", "acme", "--repo", "team/dist.git",
                "--ref", "refs/heads/main", "--before", "a".repeat(40), "--after", after);
        assertThat(r.exit()).as(r.out()).isZero();
        ConsumerRecord<byte[], byte[]> rec = KafkaRecords.await(KAFKA, "commitflow.events",
                x -> after.equals(KafkaRecords.json(x).path("after").asText()), Duration.ofSeconds(30));
        JsonNode e = KafkaRecords.json(rec);
        assertThat(e.path("repo").asText()).isEqualTo("team/dist.git");
        assertThat(e.path("tenant").asText()).isEqualTo("acme");
    }

    @Test
    void suggestAnswersAndTheInstalledHookRunsThisDistributionsLauncher() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("app"));
        assertThat(GitProcess.run(repo, "init", "-q").exit()).isZero();
        GitProcess.run(repo, "config", "user.name", "Ada");
        GitProcess.run(repo, "config", "user.email", "ada@example.com");
        Files.writeString(repo.resolve("Widget.java"), "class Widget {}\n");
        GitProcess.run(repo, "add", "Widget.java");

        Run s = cli(repo, "suggest", "--bootstrap", KAFKA.bootstrap(), "--timeout", "2s", "--fallback", "local");
        assertThat(s.exit()).as(s.out()).isZero();
        assertThat(s.out()).contains("Widget").doesNotContain("SLF4J");

        Run install = cli(repo, "install-hook", "--bootstrap", KAFKA.bootstrap(), "--timeout", "2s");
        assertThat(install.exit()).as(install.out()).isZero();
        assertThat(GitProcess.run(repo, "config", "commitflow.launcher").out().strip())
                .isEqualTo(home.resolve("bin/commitflow").toString());
        Path editor = Files.writeString(dir.resolve("editor.sh"), "#!/bin/sh\nsed -i '1s/^$/Add the widget by hand/' \"$1\"\n");
        Files.setPosixFilePermissions(editor, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        GitProcess commit = GitProcess.run(repo, Map.of("GIT_EDITOR", editor.toString(), "PATH", PATH), "commit", "-q");
        assertThat(commit.exit()).as(commit.err()).isZero();
        assertThat(commit.err()).as("the hook ran the launcher, which found no job").startsWith("commitflow: no suggestion");
    }

    @Test
    void mirrorClonesAPushedRepositoryAndStopsOnTerm() throws Exception {
        Path server = Files.createDirectories(dir.resolve("server"));
        Path origin = Files.createDirectories(server.resolve("team/lib.git"));
        assertThat(GitProcess.run(origin, "init", "-q", "--bare", "-b", "main").exit()).isZero();
        Path work = Files.createDirectories(dir.resolve("lib"));
        GitProcess.run(work, "init", "-q", "-b", "main");
        Files.writeString(work.resolve("README"), "lib\n");
        GitProcess.run(work, "add", "README");
        GitProcess.run(work, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "Start");
        GitProcess.run(work, "push", "-q", origin.toString(), "main");
        String head = GitProcess.run(work, "rev-parse", "HEAD").out().strip();

        Path mirrors = Files.createDirectories(dir.resolve("mirrors"));
        Path out = dir.resolve("mirror.out");
        Process p = launcher(dir, "mirror", "--bootstrap", KAFKA.bootstrap(), "--mirror-root", mirrors.toString(),
                "--mirror-source", "*=file://" + server + "/{repo}", "--metrics-port", "0", "--backoff", "200ms")
                .redirectOutput(out.toFile()).start();
        try {
            assertThat(cli(dir, "push-event", "--bootstrap", KAFKA.bootstrap(), "--repo", "team/lib.git", "--ref",
                    "refs/heads/main", "--before", "0".repeat(40), "--after", head).exit()).isZero();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (GitProcess.run(dir, "--git-dir", mirrors.resolve("team/lib.git").toString(), "cat-file", "-e",
                    head + "^{commit}").exit() != 0) {
                assertThat(p.isAlive()).as(Files.readString(out)).isTrue();
                assertThat(System.nanoTime()).as("cloned within 90 s: " + Files.readString(out)).isLessThan(deadline);
                Thread.sleep(250);
            }
        } finally {
            List<ProcessHandle> jvms = p.descendants().toList();
            p.destroy();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(Files.readString(out)).isTrue();
            for (ProcessHandle jvm : jvms) {
                jvm.onExit().get(30, TimeUnit.SECONDS);
            }
        }
    }

    /** The system's programs and an empty HOME (no ~/.m2 a build could use): the distribution brings the rest. */
    private static final String PATH = "/usr/local/bin:/usr/bin:/bin";

    record Run(int exit, String out) {}

    private static Run cli(Path in, String... args) throws Exception {
        Process p = launcher(in, args).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(out).isTrue();
        return new Run(p.exitValue(), out);
    }

    private static ProcessBuilder launcher(Path in, String... args) {
        List<String> cmd = new ArrayList<>(List.of(home.resolve("bin/commitflow").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(in.toFile());
        pb.environment().clear();
        pb.environment().putAll(Map.of("PATH", PATH, "HOME", dir.toString(), "JAVA_HOME", System.getProperty("java.home")));
        return pb;
    }

    private static Run run(Path in, Map<String, String> env, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(in.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(out).isTrue();
        return new Run(p.exitValue(), out);
    }
}
