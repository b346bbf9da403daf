package io.commitflow.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine;

/** {@code commitflow} — the command line. Run {@code ./commitflow --help}. */
@Command(name = "commitflow", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Writes a commit message for every commit pushed to your Git servers, at stream speed.",
        subcommands = {DemoCommand.class, JobCommand.class, ReplayCommand.class, LoadTestCommand.class, PushEventCommand.class,
            SuggestCommand.class, InstallHookCommand.class, MirrorCommand.class, GatewayCommand.class,
            EvalCommand.class,
            BenchCommand.class,
            CommandLine.HelpCommand.class},
        footer = {"", "Run 'commitflow COMMAND --help' for a command's options."})
public final class Commitflow implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return configure(new CommandLine(new Commitflow()));
    }

    /** The launcher's entry for {@code commitflow suggest}: only its command is built, for the hook's start-up time. */
    public static final class Suggest {
        private Suggest() {}

        public static void main(String[] args) {
            // the hook's path: no job flags to default, so neither the job's options nor config.yaml are loaded
            CommandLine cli = new CommandLine(new SuggestCommand()).setCommandName("suggest");
            cli.setResourceBundle(io.commitflow.job.JobConfigDefaults.help());
            System.exit(handleErrors(cli).execute(args));
        }
    }

    /**
     * The job flags' defaults and help from the job's configuration options (and from flink-conf/config.yaml's
     * {@code commitflow.*} keys, which the local cluster reads too), and one clear line for every error.
     */
    static CommandLine configure(CommandLine cli) {
        io.commitflow.job.JobConfigDefaults.configure(cli, LocalFlink::jobSettings);
        return handleErrors(cli);
    }

    /** One clear line for every error. */
    static CommandLine handleErrors(CommandLine cli) {
        // a bad option: what is wrong and where the options are, not the whole usage (demo's runs to 80 lines)
        cli.setParameterExceptionHandler((e, args) -> {
            CommandLine cmd = e.getCommandLine();
            String name = cmd.getCommandSpec().qualifiedName(" ");
            cmd.getErr().println(name + ": " + e.getMessage());
            if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, cmd.getErr())) {
                cmd.getErr().println("Run '" + name + " --help' for its options.");
            }
            return 2;
        });
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof UserError) {
                cmd.getErr().println("commitflow " + cmd.getCommandName() + ": " + e.getMessage());
                return 2;
            }
            cmd.getErr().println("commitflow " + cmd.getCommandName() + " failed: " + e);
            e.printStackTrace(cmd.getErr());
            return 1;
        });
        return cli;
    }
}
