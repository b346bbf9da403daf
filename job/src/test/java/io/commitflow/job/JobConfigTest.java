package io.commitflow.job;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The job's settings as Flink options: each described, each the setting of exactly one flag, readable from a Flink
 * configuration under the flags, and {@code flink-conf/config.yaml} names only keys that Flink or the job reads.
 */
class JobConfigTest {
    @Test
    void everyOptionHasAKeyOfTheJobAndADescription() {
        assertThat(JobConfig.ALL).hasSize(49).allSatisfy(o -> {
            assertThat(o.key()).startsWith("commitflow.");
            assertThat(JobConfig.text(o)).as(o.key()).isNotBlank().endsWith(".");
        });
        assertThat(JobConfig.ALL.stream().map(ConfigOption::key).distinct()).hasSize(JobConfig.ALL.size());
    }

    @Test
    void everyJobFlagsHelpShowsItsDescriptionAsWritten() {
        CommandLine cli = JobConfigDefaults.configure(new CommandLine(new JobOptions()), Configuration::new);
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream saved = System.err;
        String usage;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            usage = cli.getUsageMessage(CommandLine.Help.Ansi.OFF);
        } finally {
            System.setErr(saved);
        }
        assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8)).as("picocli's warnings").isEmpty();
        String flat = usage.replaceAll("\\s+", ""); // picocli wraps lines after a period or a comma too
        assertThat(JobConfig.ALL).allSatisfy(o -> {
            String text = JobConfig.text(o).replace("${DEFAULT-VALUE}", String.valueOf(JobConfig.defaultValue(o)));
            String body = text.substring(0, text.length() - 1).replaceAll("\\s+", "");
            String words = body.length() > 100 ? body.substring(body.length() - 100) : body;
            assertThat(flat).as(o.key()).contains(words);
        });
        assertThat(flat).contains("3%ormore").contains("${env:VAR}or${file:PATH:KEY}");
    }

    @Test
    void everyJobFlagIsTheFlagOfExactlyOneOption() {
        CommandLine cli = JobConfigDefaults.configure(new CommandLine(new JobOptions()), Configuration::new);
        List<String> keys = new ArrayList<>();
        for (CommandLine.Model.OptionSpec o : cli.getCommandSpec().options()) {
            if (o.longestName().equals("--help") || o.longestName().equals("--version")) {
                continue;
            }
            if (o.longestName().startsWith("--kafka-secret-")) {
                continue; // where secrets come from, not settings: config.yaml holds commitflow.kafka.properties itself
            }
            assertThat(JobConfig.of(o.descriptionKey())).as(o.longestName() + " names an option as its descriptionKey")
                    .isNotNull();
            keys.add(o.descriptionKey());
        }
        assertThat(keys).containsExactlyInAnyOrderElementsOf(JobConfig.ALL.stream().map(ConfigOption::key).toList());
        assertThat(JobFlags.table().keySet()).as("flags.properties names only options of JobConfig")
                .allSatisfy(key -> assertThat(JobConfig.of(key)).as(key).isNotNull());
    }

    @Test
    void theConfigurationSetsWhatTheArgumentsLeaveOut() {
        Configuration conf = new Configuration();
        conf.setString("commitflow.kafka.bootstrap", "kafka:9092");
        conf.setString("commitflow.suggest.batch-max", "64");
        conf.setString("commitflow.pipeline.dedup-ttl", "2 h");
        conf.setString("commitflow.kafka.properties", "client.rack:r1,linger.ms:5");

        JobParameters fromConf = JobOptions.parseForCluster(conf);
        assertThat(fromConf.kafka().bootstrap()).isEqualTo("kafka:9092");
        assertThat(fromConf.pipeline().suggest().maxBatch()).isEqualTo(64);
        assertThat(fromConf.pipeline().dedupTtl()).isEqualTo(Duration.ofHours(2));
        assertThat(fromConf.kafka().properties()).containsEntry("client.rack", "r1").containsEntry("linger.ms", "5");

        JobParameters overridden = JobOptions.parseForCluster(conf, "--batch-max", "8", "-X", "linger.ms=20");
        assertThat(overridden.pipeline().suggest().maxBatch()).as("the command line wins").isEqualTo(8);
        assertThat(overridden.kafka().properties()).containsEntry("client.rack", "r1").containsEntry("linger.ms", "20");
        assertThat(overridden.pipeline().dedupTtl()).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void aBadValueInTheConfigurationNamesItsFlag() {
        Configuration conf = new Configuration();
        conf.setString("commitflow.pipeline.dedup-ttl", "forever");
        assertThatThrownBy(() -> JobOptions.parseForCluster(conf, "--bootstrap", "k:1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--dedup-ttl")
                .hasMessageContaining("forever");
    }

    @Test
    void configYamlNamesOnlyKeysThatFlinkOrTheJobReads() throws Exception {
        Set<String> known = flinkKeys(false);
        JobConfig.ALL.forEach(o -> known.add(o.key()));
        Set<String> deprecated = flinkKeys(true);
        Path conf = Path.of("..", "flink-conf");
        Map<String, Map<String, String>> files = new LinkedHashMap<>();
        files.put("config.yaml", GlobalConfiguration.loadConfiguration(conf.toString()).toMap());
        files.put("local/config.yaml", GlobalConfiguration.loadConfiguration(conf.resolve("local").toString()).toMap());
        files.put("kubernetes/commitflow-deployment.yaml", FlinkConfTest.flinkConfiguration(
                new YAMLMapper().readTree(conf.resolve("kubernetes/commitflow-deployment.yaml").toFile())));
        List<String> unknown = new ArrayList<>();
        List<String> old = new ArrayList<>();
        files.forEach((file, keys) -> {
            for (String key : keys.keySet()) {
                // a metric reporter's own settings are named after the reporter: metrics.reporter.<name>.<setting>;
                // the S3 plugin reads its s3.* keys itself (no option of Flink's declares them)
                if (!known.contains(key) && !key.matches("metrics\\.reporter\\.[\\w-]+\\.[\\w.-]+")
                        && !(key.startsWith("s3.") && FlinkConfTest.KUBERNETES_ONLY.contains(key))) {
                    unknown.add(file + ": " + key);
                }
                if (deprecated.contains(key)) {
                    old.add(file + ": " + key);
                }
            }
        });
        assertThat(files.get("config.yaml")).hasSizeGreaterThan(20);
        assertThat(files.get("local/config.yaml")).isNotEmpty();
        assertThat(unknown).as("keys that nothing reads (a misspelt key is ignored silently)").isEmpty();
        assertThat(old).as("deprecated keys (their options' current keys replace them)").isEmpty();
        assertThat(known).contains("execution.checkpointing.interval", "state.backend.rocksdb.compression.per.level",
                "high-availability.type", "high-availability.storageDir");
        assertThat(deprecated).as("the deprecated keys are found: high-availability.type's and restart-strategy.type's old keys")
                .contains("high-availability", "restart-strategy").doesNotContain("high-availability.type");
    }

    /**
     * Every key of Flink's own option classes (core and RocksDB), with their fallback and deprecated keys; or, with
     * {@code deprecatedOnly}, the deprecated ones alone: those of options marked {@code @Deprecated} and the deprecated
     * keys of the others, less any key that a current option uses.
     */
    private static Set<String> flinkKeys(boolean deprecatedOnly) throws Exception {
        Set<String> keys = new HashSet<>();
        Set<String> current = new HashSet<>();
        Set<String> deprecated = new HashSet<>();
        for (Class<?> anchor : List.of(CoreOptions.class, RocksDBOptions.class)) {
            String pkg = anchor.getPackageName().replace('.', '/') + "/";
            Path jar = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
            try (JarFile f = new JarFile(jar.toFile())) {
                for (String name : f.stream().map(e -> e.getName()).filter(n -> n.startsWith(pkg)
                        && n.endsWith("Options.class") && n.indexOf('/', pkg.length()) < 0).toList()) {
                    Class<?> c = Class.forName(name.replace('/', '.').replace(".class", ""));
                    for (Field field : c.getFields()) {
                        if (Modifier.isStatic(field.getModifiers()) && ConfigOption.class.isAssignableFrom(field.getType())) {
                            ConfigOption<?> o = (ConfigOption<?>) field.get(null);
                            keys.add(o.key());
                            (field.isAnnotationPresent(Deprecated.class) || c.isAnnotationPresent(Deprecated.class)
                                    ? deprecated : current).add(o.key());
                            for (FallbackKey k : o.fallbackKeys()) {
                                keys.add(k.getKey());
                                if (k.isDeprecated()) {
                                    deprecated.add(k.getKey());
                                }
                            }
                        }
                    }
                }
            }
        }
        assertThat(keys).hasSizeGreaterThan(300);
        deprecated.removeAll(current);
        return deprecatedOnly ? deprecated : keys;
    }
}
