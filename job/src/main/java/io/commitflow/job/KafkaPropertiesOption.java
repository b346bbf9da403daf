package io.commitflow.job;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The Kafka client properties of every command that talks to Kafka, declared once: {@code -X KEY=VALUE} for plain
 * settings, and the secrets out of the command line, where {@code ps}, shell histories and Flink's web UI (a job's
 * program arguments) would show them:
 * <ul>
 *   <li>{@code --kafka-secret-file FILE}: a Java properties file of client properties ({@code sasl.jaas.config},
 *       {@code ssl.truststore.password}, …);</li>
 *   <li>{@code --kafka-secret-env VAR}: the same text in an environment variable;</li>
 *   <li>a value that names its secret: {@code ${env:VAR}} or {@code ${file:/path/file.properties:key}}, resolved by
 *       Kafka's own config providers inside the client (so a job's secrets stay on its TaskManagers).</li>
 * </ul>
 * A secret given as a plain {@code -X} value is refused.
 */
public final class KafkaPropertiesOption {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = {"-X", "--kafka-property"}, paramLabel = "KEY=VALUE", descriptionKey = "commitflow.kafka.properties")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(names = "--kafka-secret-file", paramLabel = "FILE",
            description = "Kafka client properties with secrets (sasl.jaas.config, ssl.*.password, …), as a Java "
                    + "properties file, kept off the command line.")
    Path secretFile;

    @Option(names = "--kafka-secret-env", paramLabel = "VAR",
            description = "The same, as properties text in the environment variable VAR.")
    String secretEnv;

    /**
     * Where the secrets come from when the command line does not say: the hook's git config
     * ({@code commitflow.kafkaSecretFile}, {@code commitflow.kafkaSecretEnv}). Null leaves a source unset.
     */
    public void secretsUnlessGiven(Path file, String variable) {
        if (secretFile == null && file != null) {
            secretFile = file;
        }
        if (secretEnv == null && variable != null && !variable.isBlank()) {
            secretEnv = variable.strip();
        }
    }

    /** The environment; tests replace it. */
    java.util.function.Function<String, String> env = System::getenv;

    /**
     * The properties: the secret file's and variable's, then {@code -X}'s, with Kafka's {@code env} and {@code file}
     * config providers declared when a value refers to one.
     *
     * @throws ParameterException for a secret given as a plain {@code -X} value, or a secret source that cannot be read
     */
    public Map<String, String> properties() {
        properties.forEach((key, value) -> {
            if (isSecret(key) && !refersToProvider(value)) {
                throw usage("-X " + key + " carries a secret on the command line, where ps and the job's program "
                        + "arguments show it: put it in --kafka-secret-file or --kafka-secret-env, or write the value "
                        + "as ${env:VAR} or ${file:/path/file.properties:key}");
            }
        });
        Map<String, String> all = new LinkedHashMap<>();
        if (secretFile != null) {
            try (Reader r = Files.newBufferedReader(secretFile, StandardCharsets.UTF_8)) {
                all.putAll(load(r));
            } catch (IOException e) {
                throw usage("--kafka-secret-file " + secretFile + ": " + e.getMessage());
            }
        }
        if (secretEnv != null) {
            String text = env.apply(secretEnv);
            if (text == null || text.isBlank()) {
                throw usage("--kafka-secret-env " + secretEnv + ": the environment variable is not set");
            }
            try {
                all.putAll(load(new StringReader(text)));
            } catch (IOException e) {
                throw usage("--kafka-secret-env " + secretEnv + ": " + e.getMessage());
            }
        }
        all.putAll(properties);
        return withProviders(all);
    }

    /** {@code properties} with Kafka's env and file config providers declared, where a value refers to them. */
    public static Map<String, String> withProviders(Map<String, String> properties) {
        if (properties.containsKey("config.providers") || properties.values().stream().noneMatch(
                KafkaPropertiesOption::refersToProvider)) {
            return properties;
        }
        Map<String, String> out = new LinkedHashMap<>(properties);
        out.put("config.providers", "env,file");
        out.put("config.providers.env.class", "org.apache.kafka.common.config.provider.EnvVarConfigProvider");
        out.put("config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider");
        return out;
    }

    /** Keys whose values are secrets: refused as plain values on the command line. */
    static boolean isSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.equals("sasl.jaas.config") || k.contains("password") || k.contains("secret")
                || k.equals("ssl.keystore.key") || k.endsWith("token");
    }

    static boolean refersToProvider(String value) {
        return value != null && (value.contains("${env:") || value.contains("${file:"));
    }

    private static Map<String, String> load(Reader r) throws IOException {
        Properties p = new Properties();
        p.load(r);
        Map<String, String> out = new LinkedHashMap<>();
        p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k)));
        return out;
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
