package io.commitflow.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The job's consumer lag read from its Prometheus text: the events source only, records summed, age the largest. */
class JobLagTest {
    private static final String P = "flink_taskmanager_job_task_operator_";

    @Test
    void sumsTheEventsSourcesRecordsBehindAndTakesTheOldestAge() {
        String text = "# HELP x\n"
                + P + "pendingRecords{operator_name=\"Source:_kafka:_events\",subtask_index=\"0\",} 120.0\n"
                + P + "pendingRecords{operator_name=\"Source:_kafka:_events\",subtask_index=\"1\",} 30.0\n"
                + P + "pendingRecords{operator_name=\"Source:_kafka:_requests\",subtask_index=\"0\",} 999.0\n"
                + P + "currentEmitEventTimeLag{operator_name=\"Source:_kafka:_events\",subtask_index=\"0\",} 850.0\n"
                + P + "currentEmitEventTimeLag{operator_name=\"Source:_kafka:_events\",subtask_index=\"1\",} 2400.0\n"
                + P + "currentEmitEventTimeLag{operator_name=\"Source:_kafka:_requests\",subtask_index=\"0\",} 99999.0\n";

        assertThat(JobLag.parse(text)).containsExactly(150.0, 2400.0);
    }

    @Test
    void prefersTheRecordsBehindPerPartitionWhereTheJobReportsThem() {
        String b = P + JobLag.PARTITION_BEHIND;
        String text = P + "pendingRecords{operator_name=\"Source:_kafka:_events\",subtask_index=\"0\",} 0.0\n"
                + b + "{operator_name=\"Source:_kafka:_events\",partition=\"0\",topic=\"commitflow_events\",} 70.0\n"
                + b + "{operator_name=\"Source:_kafka:_events\",partition=\"1\",topic=\"commitflow_events\",} 5.0\n"
                + b + "{operator_name=\"Source:_kafka:_events\",partition=\"2\",topic=\"commitflow_events\",} NaN\n"
                + b + "{operator_name=\"Source:_kafka:_requests\",partition=\"0\",topic=\"commitflow_requests\",} 9.0\n"
                + P + "currentEmitEventTimeLag{operator_name=\"Source:_kafka:_events\",subtask_index=\"0\",} 640.0\n";

        assertThat(JobLag.parse(text)).containsExactly(75.0, 640.0);
    }

    @Test
    void saysNothingBeforeTheSourceHasItsSeries() {
        assertThat(JobLag.parse("# nothing yet\n" + P + "numRecordsIn{operator_name=\"x\",} 1.0\n")).isNull();
        assertThat(new JobLag(() -> 0).sample()).as("the job has not started").isNull();
    }
}
