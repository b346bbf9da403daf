package io.commitflow.cli;

import picocli.CommandLine.Command;

/** {@code commitflow bench …}: benchmarks that compare commitflow's code with a reference in the same run. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks, each against a reference run in the same command.",
        subcommands = {DiffBenchCommand.class, EngineBenchCommand.class, FleetBenchCommand.class, GeneratorBenchCommand.class,
                TracingBenchCommand.class})
public final class BenchCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
