package io.commitflow.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The commands of the CLI distribution ({@code commitflow-VERSION-cli.tar.gz}): what a developer and a Git server
 * need, on the client's classpath alone (no Flink runtime, no broker). The checkout's {@code ./commitflow} has these
 * and the rest (demo, job, load test, benchmarks, eval).
 */
@Command(name = "commitflow", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Asks the commitflow job for commit messages, and feeds it: the client commands.",
        subcommands = {SuggestCommand.class, InstallHookCommand.class, PushEventCommand.class, MirrorCommand.class,
            GatewayCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Run 'commitflow COMMAND --help' for a command's options. The job itself, the demo and the load "
                + "test run from a checkout: https://github.com/commitflow/commitflow"})
public final class ClientCommitflow implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new ClientCommitflow());
        cli.setResourceBundle(io.commitflow.job.JobConfigDefaults.help());
        System.exit(Commitflow.handleErrors(cli).execute(args));
    }
}
