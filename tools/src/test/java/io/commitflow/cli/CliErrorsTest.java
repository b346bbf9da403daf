package io.commitflow.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad input on the command line: one clear line (and where the options are), never a stack trace or the usage. */
class CliErrorsTest {
    @TempDir
    Path dir;

    private record Run(int exit, String err, long millis) {}

    private static Run run(String... args) {
        StringWriter err = new StringWriter();
        var cli = Commitflow.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));
        long start = System.nanoTime();
        int exit = cli.execute(args);
        return new Run(exit, err.toString(), (System.nanoTime() - start) / 1_000_000);
    }

    private static void assertOneClearLine(Run r, String says) {
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains(says).doesNotContain("Exception", "\tat ", "Usage:");
        assertThat(r.err().lines().count()).as(r.err()).isBetween(1L, 2L);
    }

    @Test
    void aPortOutOfRange() {
        assertOneClearLine(run("demo", "--web-port", "99999"), "--web-port must be a port from 1 to 65535, got 99999");
        assertOneClearLine(run("loadtest", "--repo", ".", "--metrics-port", "0"), "--metrics-port must be a port");
    }

    @Test
    void aJobOptionThatTheDemoAndTheLoadTestTakeToo() {
        assertOneClearLine(run("demo", "--llm", "bogus"), "--llm takes TENANT=KIND:MODEL@URL, not 'bogus'");
        assertOneClearLine(run("loadtest", "--repo", ".", "--engine", "tpu"), "tpu");
        assertOneClearLine(run("bench", "fleet", "--repo", ".", "--rows", "0"), "--rows and --lookups must be at least 1");
        assertOneClearLine(run("bench", "generator", "--repo", ".", "--runs", "0"), "--runs must be at least 1");
        assertOneClearLine(run("demo", "--mirror-root", dir.toString()), "--mirror-root is the job's");
    }

    @Test
    void anEventsTopicPerTenantIsRefusedBeforeKafkaIsAsked() {
        // only the job and the gateway fill in {tenant}: these commands write or read one topic
        for (String command : new String[] {"replay --repo .", "push-event --repo r --ref refs/heads/main --before "
                + "0".repeat(40) + " --after " + "1".repeat(40), "mirror --mirror-root " + dir + " --mirror-source a=x"}) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(command.split(" ")));
            args.addAll(java.util.List.of("--bootstrap", "localhost:1", "--events-topic", "commitflow.events.{tenant}"));
            // the topic's line, not the one that Kafka at localhost:1 cannot be reached
            assertOneClearLine(run(args.toArray(String[]::new)), "names one topic per tenant: give this command the "
                    + "tenant's own topic (commitflow.events.acme for the tenant acme)");
        }
    }

    @Test
    void theGatewaysOptionsAreCheckedBeforeKafkaIsAsked() throws Exception {
        String kafka = "localhost:1";
        Path keys = Files.writeString(dir.resolve("keys"), "a:a-key-long-enough-000\n");
        assertOneClearLine(run("gateway", "--bootstrap", kafka), "nothing to serve: give the tenants' API keys");
        assertOneClearLine(run("gateway", "--bootstrap", kafka, "--api-keys", keys.toString(), "--port", "70000"),
                "--port must be from 0 to 65535, got 70000");
        assertOneClearLine(run("gateway", "--bootstrap", kafka, "--api-keys", keys.toString(), "--rate", "0"),
                "--rate must be positive");
        assertOneClearLine(run("gateway", "--bootstrap", kafka, "--api-keys", keys.toString(), "--max-body-bytes", "10"),
                "--max-body-bytes must be from 1024 to 4194304, got 10");
        assertOneClearLine(run("gateway", "--bootstrap", kafka, "--api-keys", dir.resolve("none").toString()),
                "cannot be read");
        Path shortKey = Files.writeString(dir.resolve("short"), "# keys\n\na:short\n");
        assertOneClearLine(run("gateway", "--bootstrap", kafka, "--api-keys", shortKey.toString()),
                "--api-keys " + shortKey + " line 3: the API key of tenant a has 5 characters; at least 16");
        assertOneClearLine(run("gateway", "--bootstrap", kafka, "--api-keys", keys.toString(), "--tls-cert", "c.pem"),
                "--tls-cert and --tls-key go together");
        assertOneClearLine(run("gateway", "--bootstrap", kafka, "--webhook-secrets", keys.toString()),
                "expected TENANT:SERVER:SECRET");
        assertOneClearLine(run("gateway", "--api-keys", keys.toString()), "Missing required option: '--bootstrap");
    }

    @Test
    void theHooksGatewayOptionsAreCheckedBeforeAnythingIsWritten() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        assertThat(GitProcess.run(repo, "init", "-q").exit()).isZero();
        Path key = Files.writeString(dir.resolve("key"), "a-key-long-enough-000\n");
        String r = repo.toString();
        assertOneClearLine(run("install-hook", "-C", r), "--url URL (the gateway) or --bootstrap HOST:PORT");
        assertOneClearLine(run("install-hook", "-C", r, "--url", "https://gw:8443"), "--key-file FILE is required with --url");
        assertOneClearLine(run("install-hook", "-C", r, "--url", "ftp://gw", "--key-file", key.toString()),
                "--url takes the gateway as https://HOST[:PORT], got ftp://gw");
        assertOneClearLine(run("install-hook", "-C", r, "--url", "http://gw.example.com", "--key-file", key.toString()),
                "would send the API key in clear text");
        assertOneClearLine(run("install-hook", "-C", r, "--url", "https://gw", "--bootstrap", "k:9092", "--key-file",
                key.toString()), "--url and --bootstrap exclude each other");
        assertOneClearLine(run("install-hook", "-C", r, "--url", "https://gw", "--key-file", dir.resolve("no").toString()),
                "cannot be read");
        Path bad = Files.writeString(dir.resolve("bad"), "two words\n");
        assertOneClearLine(run("install-hook", "-C", r, "--url", "https://gw", "--key-file", bad.toString()),
                "does not hold an API key");
        assertOneClearLine(run("install-hook", "-C", r, "--url", "https://gw", "--key-file", key.toString(),
                "--fallback", "local"), "--fallback local needs the launcher");
        assertOneClearLine(run("install-hook", "-C", r, "--url", "https://gw", "--key-file", key.toString(),
                "--candidates", "7"), "--candidates must be from 0 to 5, got 7");
        assertOneClearLine(run("suggest", "-C", r, "--bootstrap", "localhost:1", "--candidates", "0"),
                "--candidates must be from 1 to 5, got 0");
        assertThat(repo.resolve(".git/hooks/prepare-commit-msg")).as("nothing installed").doesNotExist();
        java.nio.file.Files.writeString(repo.resolve(".git/hooks/prepare-commit-msg"), "#!/bin/sh\n");
        java.nio.file.Files.writeString(repo.resolve(".git/hooks/prepare-commit-msg.before-commitflow"), "#!/bin/sh\n");
        assertOneClearLine(run("install-hook", "-C", r, "--url", "https://gw", "--key-file", key.toString(), "--force"),
                "holds the hook kept at an earlier install");
        java.nio.file.Files.delete(repo.resolve(".git/hooks/prepare-commit-msg"));
        java.nio.file.Files.delete(repo.resolve(".git/hooks/prepare-commit-msg.before-commitflow"));
        assertThat(GitProcess.run(repo, "config", "--get-regexp", "^commitflow").out()).isEmpty();
    }

    @Test
    void anUnknownOptionWithItsNearestName() {
        Run r = run("demo", "--rat", "3");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("Unknown option", "--rate").doesNotContain("Usage:");
    }

    @Test
    void aBrokerThatCannotBeReachedIsSaidWithinSeconds() throws Exception {
        GitCli.run(dir, "init", "-q");
        Files.writeString(dir.resolve("a.txt"), "a\n");
        GitCli.run(dir, "add", "a.txt");
        GitCli.run(dir, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "Add a");
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }

        Run r = run("replay", "--repo", dir.toString(), "--bootstrap", "localhost:" + closed);

        assertOneClearLine(r, "Kafka at localhost:" + closed + " cannot be reached");
        assertThat(r.millis()).as("said within seconds, not after the producer's minute").isLessThan(20_000);
    }
}
