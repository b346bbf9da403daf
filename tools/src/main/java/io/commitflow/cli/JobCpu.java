package io.commitflow.cli;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * The CPU time of the job running in this JVM: the process's CPU time less that of the load driver's threads (the
 * main thread that paces the replay, the replay's and the output consumer's Kafka clients, the load test's own
 * threads). The driver's threads live for the whole run, so differences between two readings are the job's CPU.
 */
final class JobCpu {
    /** Names (prefixes) of this JVM's threads that drive the load rather than run the job. */
    private static final List<String> DRIVER = List.of("main", "commitflow-loadtest-",
            "kafka-producer-network-thread | commitflow-replay", "kafka-coordinator-heartbeat-thread | commitflow-loadtest",
            "consumer_background_thread");

    private JobCpu() {}

    /** Nanoseconds of CPU the job has used so far; 0 where the JVM does not say. */
    static long nanos() {
        if (!(ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os)) {
            return 0;
        }
        long process = os.getProcessCpuTime();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long driver = 0;
        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t != null && isDriver(t.getThreadName())) {
                driver += Math.max(0, threads.getThreadCpuTime(t.getThreadId()));
            }
        }
        return process - driver;
    }

    static boolean isDriver(String thread) {
        for (String prefix : DRIVER) {
            if (thread.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
