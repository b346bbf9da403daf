package io.commitflow.replay.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A single-node Kafka broker (KRaft, combined broker and controller) in its own JVM, for the demo and the
 * load test. Its storage lives under a folder the caller owns and deletes. The broker exits when this JVM
 * does ({@link BrokerMain} watches its standard input), so no broker is ever left behind.
 *
 * <pre>{@code
 * try (LocalKafka kafka = LocalKafka.start(dir, LocalKafka.classpathFromSystemProperty())) {
 *     String bootstrap = kafka.bootstrap();
 *     LocalKafka.createTopics(bootstrap, Map.of("commitflow.events", 2));
 * }
 * }</pre>
 */
public final class LocalKafka implements AutoCloseable {
    /** The system property through which the launcher passes the broker's classpath. */
    public static final String CLASSPATH_PROPERTY = "commitflow.broker.classpath";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Path dir;
    private final List<String> javaCommand;
    private final Path props;
    private final int brokerPort;
    private final String bootstrap;
    private int securedPort = -1;
    private Process process;

    private LocalKafka(Path dir, List<String> java, Path props, int brokerPort) {
        this.dir = dir;
        this.javaCommand = java;
        this.props = props;
        this.brokerPort = brokerPort;
        this.bootstrap = "localhost:" + brokerPort;
    }

    public static String classpathFromSystemProperty() {
        String cp = System.getProperty(CLASSPATH_PROPERTY);
        if (cp == null || cp.isBlank()) {
            throw new IllegalStateException("no broker classpath: run through ./commitflow, or set -D" + CLASSPATH_PROPERTY);
        }
        return cp;
    }

    /** Formats storage under {@code dir} and starts the broker on two free loopback ports; waits until it serves. */
    public static LocalKafka start(Path dir, String classpath) throws IOException, InterruptedException {
        LocalKafka kafka = format(dir, classpath);
        kafka.serve();
        return kafka;
    }

    /**
     * Formats storage under {@code dir} and picks the broker's two loopback ports, without starting it: its
     * {@link #bootstrap()} is known before it {@linkplain #serve() serves} (clients that start first wait for it).
     */
    public static LocalKafka format(Path dir, String classpath) throws IOException, InterruptedException {
        return format(dir, classpath, null, Map.of(), List.of());
    }

    /**
     * {@link #format(Path, String)} with a second listener, {@code SECURED}, of {@code protocol} (SASL_SSL, SSL,
     * SASL_PLAINTEXT) on a port of its own ({@link #securedBootstrap()}), its broker settings ({@code
     * listener.name.secured.…}, {@code sasl.enabled.mechanisms}, …), and arguments for the storage format, such as
     * SCRAM users ({@code --add-scram}). The plaintext listener stays, for the broker's own readiness check.
     */
    public static LocalKafka format(Path dir, String classpath, String protocol, Map<String, String> settings,
                                    List<String> formatArguments) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        int brokerPort = freePort();
        int controllerPort = freePort();
        int securedPort = protocol == null ? -1 : freePort();
        Path props = dir.resolve("server.properties");
        String server = serverProperties(dir.resolve("data"), brokerPort, controllerPort, protocol, securedPort, settings);
        Files.writeString(props, server);
        Path log4j = dir.resolve("log4j2.properties");
        Files.writeString(log4j, brokerLogConfig(dir.resolve("broker.log")));

        List<String> java = javaCommand(classpath, log4j);
        List<String> format = new ArrayList<>(java);
        format.addAll(List.of("kafka.tools.StorageTool", "format", "--standalone",
                "--cluster-id", Uuid.randomUuid().toString(), "--config", props.toString()));
        format.addAll(formatArguments);
        Process f = new ProcessBuilder(format).redirectErrorStream(true)
                .redirectOutput(dir.resolve("format.log").toFile()).start();
        if (!f.waitFor(60, TimeUnit.SECONDS) || f.exitValue() != 0) {
            f.destroyForcibly();
            throw new IOException("formatting Kafka storage failed: " + tail(dir.resolve("format.log")));
        }
        LocalKafka kafka = new LocalKafka(dir, java, props, brokerPort);
        kafka.securedPort = securedPort;
        return kafka;
    }

    /**
     * Starts the broker process on its formatted storage and ports and waits until it serves: the first time, or
     * again after {@link #kill()} (it recovers its logs and transaction state as a restarted broker does).
     */
    public void serve() throws IOException, InterruptedException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("the broker is already running (pid " + process.pid() + ")");
        }
        List<String> run = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            run.add("/usr/bin/setsid"); // a terminal's Ctrl-C reaches us, not the broker: we stop it in order
        }
        run.addAll(javaCommand);
        run.addAll(List.of(BrokerMain.class.getName(), props.toString()));
        process = new ProcessBuilder(run).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("broker.out").toFile())).start();
        try {
            awaitServing(brokerPort);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Kills the broker process with SIGKILL, as a crash or the OOM killer would: no controlled shutdown, no flush,
     * open transactions left as they were. {@link #serve()} starts it again. Returns the exit status (137).
     */
    public int kill() throws InterruptedException {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException("the broker is not running");
        }
        process.destroyForcibly(); // SIGKILL on Unix
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the broker (pid " + process.pid() + ") did not die of SIGKILL");
        }
        return process.exitValue();
    }

    public String bootstrap() {
        return bootstrap;
    }

    /** The secured listener's address, when {@link #format(Path, String, String, Map, List)} made one. */
    public String securedBootstrap() {
        if (securedPort < 0) {
            throw new IllegalStateException("this broker has no secured listener");
        }
        return "localhost:" + securedPort;
    }

    /** The broker's process id, or -1 before it first {@linkplain #serve() serves}. */
    public long pid() {
        return process == null ? -1 : process.pid();
    }

    /**
     * Creates each topic with the given partition count (replication 1) on the broker at {@code bootstrap}, this one
     * or any other; existing topics are kept.
     */
    public static void createTopics(String bootstrap, Map<String, Integer> partitions) throws IOException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            List<NewTopic> topics = new ArrayList<>();
            partitions.forEach((name, n) -> topics.add(new NewTopic(name, n, (short) 1)));
            for (var f : admin.createTopics(topics).values().values()) {
                try {
                    f.get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IOException("creating topics failed", e.getCause());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while creating topics", e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IOException("creating topics timed out", e);
        }
    }

    private void awaitServing(int port) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("the Kafka broker exited with " + process.exitValue() + ": " + tail(dir.resolve("broker.out"))
                        + " " + tail(dir.resolve("broker.log")));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("localhost", port), 500);
                try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000",
                        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000"))) {
                    admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    return;
                } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                    // not serving yet
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IOException("the Kafka broker did not start within " + START_TIMEOUT.toSeconds() + " s: " + tail(dir.resolve("broker.log")));
    }

    /** Stops the broker: closes its standard input (a clean shutdown), then kills it if it lingers. */
    @Override
    public void close() {
        if (process == null || !process.isAlive()) {
            return;
        }
        try (OutputStream in = process.getOutputStream()) {
            in.flush();
        } catch (IOException e) {
            // already closed
        }
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static List<String> javaCommand(String classpath, Path log4j) {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return List.of(javaBin, "-Xms256m", "-Xmx512m", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20",
                "-Djava.awt.headless=true", "-Dlog4j2.configurationFile=" + log4j.toUri(), "-cp", classpath);
    }

    static String serverProperties(Path dataDir, int brokerPort, int controllerPort) {
        return serverProperties(dataDir, brokerPort, controllerPort, null, -1, Map.of());
    }

    /** With a {@code SECURED} listener of {@code protocol} on {@code securedPort} and its settings, when not null. */
    static String serverProperties(Path dataDir, int brokerPort, int controllerPort, String protocol, int securedPort,
                                   Map<String, String> settings) {
        String secured = protocol == null ? "" : ",SECURED://localhost:" + securedPort;
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("controller.quorum.bootstrap.servers", "localhost:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://localhost:" + brokerPort + secured + ",CONTROLLER://localhost:"
                + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://localhost:" + brokerPort + secured);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT"
                + (protocol == null ? "" : ",SECURED:" + protocol));
        p.setProperty("log.dirs", dataDir.toString());
        p.setProperty("num.partitions", "2");
        // one node: every internal topic has one replica and one partition, or consumers wait forever
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", "1");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("transaction.state.log.num.partitions", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("log.flush.interval.messages", Long.toString(Long.MAX_VALUE));
        if (protocol != null) {
            settings.forEach(p::setProperty);
        }
        StringBuilder b = new StringBuilder("# written by commitflow's LocalKafka\n");
        p.stringPropertyNames().stream().sorted().forEach(k -> b.append(k).append('=')
                .append(p.getProperty(k).replace("\\", "\\\\")).append('\n')); // a backslash is an escape there
        return b.toString();
    }

    private static String brokerLogConfig(Path logFile) {
        return String.join("\n",
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.file.ref = file",
                "appender.file.name = file",
                "appender.file.type = File",
                "appender.file.fileName = " + logFile,
                "appender.file.layout.type = PatternLayout",
                "appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p [%c{1}] %m%n",
                "logger.state.name = state.change.logger",
                "logger.state.level = WARN",
                "");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(no " + file.getFileName() + ")";
        }
    }
}
