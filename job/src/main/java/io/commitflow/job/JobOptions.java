package io.commitflow.job;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** The arguments of the job jar's entry point ({@code flink run commitflow-job.jar …}). */
@Command(name = "commitflow-job", mixinStandardHelpOptions = true,
        description = "commitflow's Flink job: writes a commit message for every pushed commit.")
public final class JobOptions {
    @Mixin
    KafkaOptions kafka = new KafkaOptions();
    @Mixin
    PipelineOptions pipeline = new PipelineOptions();

    public JobParameters toParameters() {
        return new JobParameters(kafka.toSettings(), pipeline.toSettings());
    }

    /**
     * Parses the job's arguments.
     *
     * @throws IllegalArgumentException with the problem and the usage, so that {@code flink run} shows both
     */
    public static JobParameters parseForCluster(String... args) {
        return parseForCluster(new org.apache.flink.configuration.Configuration(), args);
    }

    /**
     * Parses the job's arguments over {@code conf}: a setting the arguments leave out is {@code conf}'s (the cluster's
     * {@code config.yaml} and {@code -D}, under its {@link JobConfig} key), else its option's default.
     *
     * @throws IllegalArgumentException with the problem and the usage, so that {@code flink run} shows both
     */
    public static JobParameters parseForCluster(org.apache.flink.configuration.ReadableConfig conf, String... args) {
        JobOptions options = new JobOptions();
        options.kafka.conf = conf;
        CommandLine cli = JobConfigDefaults.configure(new CommandLine(options), () -> conf);
        try {
            cli.parseArgs(args);
            if (cli.isUsageHelpRequested() || cli.isVersionHelpRequested()) {
                throw new IllegalArgumentException("\n" + cli.getUsageMessage());
            }
            return options.toParameters();
        } catch (CommandLine.ParameterException e) {
            StringWriter usage = new StringWriter();
            cli.usage(new PrintWriter(usage));
            throw new IllegalArgumentException(e.getMessage() + "\n\n" + usage, e);
        }
    }
}
