package io.commitflow.job;

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
        assertThat(JobConfig.ALL).hasSize(46).allSatisfy(o -> {
            assertThat(o.key()).startsWith("commitflow.");
            assertThat(JobConfig.text(o)).as(o.key()).isNotBlank().endsWith(".");
        });
        assertThat(JobConfig.ALL.stream().map(ConfigOption::key).distinct()).hasSize(JobConfig.ALL.size());
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
        Set<String> known = flinkKeys();
        JobConfig.ALL.forEach(o -> known.add(o.key()));
        Map<String, String> conf = GlobalConfiguration.loadConfiguration(Path.of("..", "flink-conf").toString()).toMap();
        List<String> unknown = new ArrayList<>();
        for (String key : conf.keySet()) {
            // a metric reporter's own settings are named after the reporter: metrics.reporter.<name>.<setting>
            if (!known.contains(key) && !key.matches("metrics\\.reporter\\.[\\w-]+\\.[\\w.-]+")) {
                unknown.add(key);
            }
        }
        assertThat(conf).hasSizeGreaterThan(20);
        assertThat(unknown).as("keys that nothing reads (a misspelt key is ignored silently)").isEmpty();
        assertThat(known).contains("execution.checkpointing.interval", "state.backend.rocksdb.compression.per.level");
    }

    /** Every key of Flink's own option classes (core and RocksDB), with their fallback and deprecated keys. */
    private static Set<String> flinkKeys() throws Exception {
        Set<String> keys = new HashSet<>();
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
                            for (FallbackKey k : o.fallbackKeys()) {
                                keys.add(k.getKey());
                            }
                        }
                    }
                }
            }
        }
        assertThat(keys).hasSizeGreaterThan(300);
        return keys;
    }
}
