package io.commitflow.cli;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A local run waits until its tasks run, and says why when they do not. */
class JobStartITCase {
    @Test
    void namesTheMissingSlotsWhenTheTasksCannotStart() throws Exception {
        Configuration conf = local(4);
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, 2); // what flink-conf/config.yaml alone would give
        JobClient job = endless(conf, 4);
        try {
            assertThatThrownBy(() -> JobStart.awaitRunning(job, conf.get(RestOptions.PORT), Duration.ofSeconds(5)))
                    .isInstanceOf(UserError.class)
                    .hasMessageStartingWith("the job did not start within 5 s: ")
                    .hasMessageContaining("SCHEDULED")
                    .hasMessageContaining("waiting for task slots: the local cluster has 2, 0 free")
                    .hasMessageNotContaining("\n");
        } finally {
            job.cancel().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aClusterShapedForTheParallelismRunsEveryTask() throws Exception {
        Configuration conf = local(4);
        JobClient job = endless(conf, 4);
        try {
            JobStart.awaitRunning(job, conf.get(RestOptions.PORT), Duration.ofSeconds(60));
            var tasks = JobStart.tasks(java.net.http.HttpClient.newHttpClient(), "http://localhost:" + conf.get(RestOptions.PORT), job);
            assertThat(tasks.allRunning()).isTrue();
            assertThat(tasks.slots()).isEqualTo(4);
            assertThat(tasks.total()).as("source and sink, 4 subtasks each").isEqualTo(8);
        } finally {
            job.cancel().get(30, TimeUnit.SECONDS);
        }
    }

    /** A local cluster shaped by {@link LocalFlink#shape} for {@code parallelism}, its REST API on a free port. */
    private static Configuration local(int parallelism) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestOptions.PORT, DemoITCase.freePort());
        LocalFlink.shape(conf, parallelism);
        return conf;
    }

    /** A job of two unchained operators that never ends. */
    private static JobClient endless(Configuration conf, int parallelism) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(conf);
        env.setParallelism(parallelism);
        env.fromSequence(0, Long.MAX_VALUE).rebalance().sinkTo(new DiscardingSink<>());
        return env.executeAsync("endless");
    }
}
