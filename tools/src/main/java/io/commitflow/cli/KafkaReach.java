package io.commitflow.cli;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks a broker for its cluster before a command starts sending, so that an unreachable Kafka is one clear line
 * within seconds instead of a producer that retries for a minute.
 */
final class KafkaReach {
    static final Duration DEFAULT_WAIT = Duration.ofSeconds(5);

    private KafkaReach() {}

    /**
     * @param properties extra client properties (security settings), as the command's producer gets them
     * @throws UserError naming the bootstrap servers and what went wrong
     */
    static void require(String bootstrap, Map<String, String> properties, Duration wait) {
        Map<String, Object> p = new HashMap<>(properties);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "commitflow-reach");
        int ms = (int) Math.max(1, wait.toMillis());
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
        p.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, Math.min(ms, 2000));
        p.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, Math.min(ms, 2000));
        try (Admin admin = Admin.create(p)) {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms)).nodes().get(ms + 1000L, TimeUnit.MILLISECONDS);
        } catch (KafkaException e) {
            throw new UserError("Kafka at " + bootstrap + " cannot be used: " + e.getMessage());
        } catch (ExecutionException | TimeoutException e) {
            throw new UserError("Kafka at " + bootstrap + " cannot be reached (no answer within " + wait.toSeconds()
                    + " s); is the broker up, and is --bootstrap right?");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while reaching Kafka at " + bootstrap);
        }
    }
}
