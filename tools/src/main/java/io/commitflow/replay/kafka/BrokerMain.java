package io.commitflow.replay.kafka;

import java.io.IOException;
import java.io.InputStream;

/**
 * The main class of the broker JVM that {@link LocalKafka} starts. It runs {@code kafka.Kafka} and exits as
 * soon as its standard input closes, which happens when the parent process ends for any reason (even
 * {@code kill -9}): a local broker never outlives the demo or test that started it.
 */
public final class BrokerMain {
    private BrokerMain() {}

    public static void main(String[] args) {
        Thread watchdog = new Thread(() -> {
            try (InputStream in = System.in) {
                while (in.read() >= 0) {
                    // the parent never writes; EOF means it is gone
                }
            } catch (IOException e) {
                // a broken pipe means the same as EOF
            }
            System.exit(0); // runs Kafka's shutdown hook: a clean broker shutdown
        }, "parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        kafka.Kafka.main(args);
    }
}
