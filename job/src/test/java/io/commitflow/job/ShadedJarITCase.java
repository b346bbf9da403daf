package io.commitflow.job;

import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import static org.assertj.core.api.Assertions.assertThat;

/** The job jar that {@code flink run} takes: our code and libraries inside, Flink's runtime outside. */
class ShadedJarITCase {
    private static final Path JAR = Path.of("target", "commitflow-job.jar");
    private static List<String> entries;

    @BeforeAll
    static void open() throws IOException {
        assertThat(JAR).as("run through mvn verify: the package phase builds the jar").exists();
        try (JarFile jar = new JarFile(JAR.toFile())) {
            entries = jar.stream().map(ZipEntry::getName).toList();
        }
    }

    @Test
    void holdsNoFlinkClassesButTheConnectors() throws Exception {
        Set<String> connectorClasses = new HashSet<>();
        connectorClasses.addAll(classesOf(KafkaSource.class));
        connectorClasses.addAll(classesOf(DeliveryGuarantee.class));
        assertThat(entries.stream().filter(e -> e.startsWith("org/apache/flink/") && e.endsWith(".class")))
                .isNotEmpty()
                .allMatch(connectorClasses::contains, "a class of flink-connector-kafka or flink-connector-base");
        assertThat(entries).noneMatch(e -> e.startsWith("org/apache/flink/shaded/"))
                .noneMatch(e -> e.startsWith("org/apache/flink/runtime/"))
                .noneMatch(e -> e.startsWith("org/apache/flink/api/"))
                .noneMatch(e -> e.startsWith("org/rocksdb/"))
                .noneMatch(e -> e.startsWith("org/slf4j/"))
                .noneMatch(e -> e.startsWith("org/apache/logging/log4j/"))
                .noneMatch(e -> e.startsWith("scala/"))
                .noneMatch(e -> e.startsWith("kafka/server/"));
    }

    @Test
    void holdsTheJobAndItsLibraries() throws IOException {
        assertThat(entries).contains(
                "io/commitflow/job/CommitMessageJob.class",
                "io/commitflow/ingest/ParseEvents.class",
                "io/commitflow/generate/RetrievalGenerator.class",
                "org/apache/flink/connector/kafka/source/KafkaSource.class",
                "org/apache/flink/connector/base/DeliveryGuarantee.class",
                "org/apache/kafka/clients/producer/KafkaProducer.class",
                "org/eclipse/jgit/diff/DiffFormatter.class",
                "com/fasterxml/jackson/databind/ObjectMapper.class",
                "io/github/resilience4j/circuitbreaker/CircuitBreaker.class",
                "io/github/resilience4j/retry/Retry.class",
                "picocli/CommandLine.class");
        try (JarFile jar = new JarFile(JAR.toFile())) {
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo(CommitMessageJob.class.getName());
        }
    }

    /** The tools (CLI, load test, local stack, replay, mirror service) stay out of what a cluster runs. */
    @Test
    void holdsNoClassOfTheTools() throws IOException {
        Path tools = Path.of("..", "tools", "src", "main", "java");
        List<String> toolClasses;
        try (var files = Files.walk(tools)) {
            toolClasses = files.filter(f -> f.toString().endsWith(".java"))
                    .map(f -> tools.relativize(f).toString().replace(java.io.File.separatorChar, '/').replace(".java", ".class"))
                    .toList();
        }
        assertThat(toolClasses).as("the tools' sources").contains("io/commitflow/cli/Commitflow.class");
        assertThat(entries).doesNotContainAnyElementsOf(toolClasses)
                .noneMatch(e -> e.startsWith("io/commitflow/cli/") || e.startsWith("io/commitflow/replay/")
                        || e.startsWith("io/commitflow/mirror/"));
    }

    @Test
    void keepsEveryServiceEntryOfTheConnector() throws Exception {
        Path connector = Path.of(KafkaSource.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (JarFile original = new JarFile(connector.toFile()); JarFile shaded = new JarFile(JAR.toFile())) {
            List<? extends ZipEntry> services = original.stream()
                    .filter(e -> e.getName().startsWith("META-INF/services/") && !e.isDirectory()).toList();
            assertThat(services).isNotEmpty();
            for (ZipEntry service : services) {
                ZipEntry merged = shaded.getEntry(service.getName());
                assertThat(merged).as(service.getName()).isNotNull();
                List<String> want = lines(original.getInputStream(service).readAllBytes());
                List<String> have = lines(shaded.getInputStream(merged).readAllBytes());
                assertThat(have).as(service.getName()).containsAll(want);
            }
        }
    }

    @Test
    void fitsComfortablyInAnUpload() throws IOException {
        // the REST API's default upload limit is far above this; the check catches a runtime dragged in by accident
        assertThat(Files.size(JAR)).isLessThan(64L * 1024 * 1024);
    }

    private static List<String> classesOf(Class<?> type) throws Exception {
        Path jar = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (JarFile f = new JarFile(jar.toFile())) {
            return f.stream().map(ZipEntry::getName).filter(n -> n.endsWith(".class")).toList();
        }
    }

    private static List<String> lines(byte[] bytes) {
        return Arrays.stream(new String(bytes, StandardCharsets.UTF_8).split("\n"))
                .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }
}
