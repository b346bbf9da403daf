package io.commitflow.cli;

import io.commitflow.job.CommitMessageJob;
import io.commitflow.job.JobParameters;
import io.commitflow.job.KafkaIO;
import io.commitflow.job.KafkaOptions;
import io.commitflow.job.PipelineOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@code commitflow job}: the job on a local Flink against a Kafka you name. */
@Command(name = "job", mixinStandardHelpOptions = true,
        description = "Runs the job on a local Flink (web UI and Prometheus endpoint on) against an existing Kafka, "
                + "until Ctrl-C. To run it on a cluster instead: flink run job/target/commitflow-job.jar with the "
                + "same options.",
        footer = {"", "Example: ./commitflow job --bootstrap kafka:9092 --mirror-root /srv/git/mirrors"})
public final class JobCommand implements Callable<Integer> {
    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Mixin
    PipelineOptions pipeline = new PipelineOptions();

    @picocli.CommandLine.Mixin
    LocalRunOptions local = new LocalRunOptions();

    @Override
    public Integer call() throws Exception {
        JobParameters p = new JobParameters(kafka.toSettings(), pipeline.toSettings());
        local.check();
        Path work = Files.createTempDirectory("commitflow-job-");
        CountDownLatch done = new CountDownLatch(1);
        JobClient[] job = new JobClient[1];
        Thread hook = new Thread(() -> {
            System.out.println("\nstopping …");
            if (job[0] != null) {
                job[0].cancel();
            }
            try {
                done.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "commitflow-job-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            Configuration conf = LocalFlink.configuration(work, local.webPort, local.metricsPort, local.parallelism());
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(conf);
            env.setParallelism(local.parallelism());
            try {
                KafkaIO.checkDelivery(p.kafka(), conf);
            } catch (IllegalArgumentException e) {
                throw new UserError(e.getMessage());
            }
            CommitMessageJob.build(env, KafkaIO.sourceBuilder(p.kafka()).build(), KafkaIO.suggestionSink(p.kafka()),
                    KafkaIO.deadLetterSink(p.kafka()), KafkaIO.slaSink(p.kafka()), CommitMessageJob.Interactive.of(p.kafka()), p.pipeline());
            job[0] = env.executeAsync(CommitMessageJob.NAME);
            System.out.printf("commitflow job %s running: %s → %s (dead letters → %s)%n", job[0].getJobID(),
                    p.kafka().eventsTopic(), p.kafka().suggestionsTopic(), p.kafka().deadLetterTopic());
            System.out.printf("Flink web UI http://localhost:%d · Prometheus http://localhost:%d/metrics · Ctrl-C stops%n",
                    local.webPort, local.metricsPort);
            JobStart.awaitRunning(job[0], local.webPort, local.startTimeout);
            var result = job[0].getJobExecutionResult().handle((r, e) -> e).get();
            if (result != null) {
                System.out.println("the job ended: " + result.getMessage());
                return 1;
            }
            return 0;
        } finally {
            LocalStack.deleteRecursively(work);
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down: the hook waits for us
            }
        }
    }
}
