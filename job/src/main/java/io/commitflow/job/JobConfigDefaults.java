package io.commitflow.job;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

import java.util.ListResourceBundle;
import java.util.Map;
import java.util.ResourceBundle;
import java.util.function.Supplier;

/**
 * The picocli side of {@link JobConfig}: a job flag names its option's key as its {@code descriptionKey}, and gets
 * its default and its help text from that option. The default is the value the Flink configuration sets
 * ({@code config.yaml}, {@code -D}) where it sets one, else the option's own; the help text is the option's
 * description and that default. Flags of other commands (no such key) keep their own.
 */
public final class JobConfigDefaults implements CommandLine.IDefaultValueProvider {
    private final Supplier<? extends ReadableConfig> conf;
    private Map<String, String> configured;

    /**
     * The values {@code conf} sets for the job's keys, then the options' own defaults. {@code conf} is read the first
     * time a job flag asks, so that a command without job flags never loads it.
     */
    public JobConfigDefaults(Supplier<? extends ReadableConfig> conf) {
        this.conf = conf;
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec o) || !o.descriptionKey().startsWith("commitflow.")) {
            return null; // another command's option: its own default
        }
        ConfigOption<?> option = JobConfig.of(o.descriptionKey());
        if (option == null || option.defaultValue() instanceof Map) {
            return null; // a map (-X) is merged with the configuration's in toSettings, not replaced by it
        }
        if (configured == null) {
            configured = conf.get().toMap();
        }
        String set = configured.get(option.key());
        return set != null ? set : JobConfig.defaultValue(option);
    }

    /** Each job flag's help text, by its key: the option's description, and the default picocli shows. */
    public static ResourceBundle help() {
        return new ListResourceBundle() {
            @Override
            protected Object[][] getContents() { // read when a help text is first asked for, not before
                return JobConfig.ALL.stream().map(o -> new Object[] {o.key(), forPicocli(withDefault(o))})
                        .toArray(Object[][]::new);
            }
        };
    }

    /**
     * {@code text} as picocli shows it verbatim: picocli formats a description (String.format) after expanding its
     * {@code ${…}} variables, so a percent sign is written {@code %%} and a {@code ${…}} of the text other than
     * picocli's own {@code ${DEFAULT-VALUE}} is written {@code $${…}}.
     */
    static String forPicocli(String text) {
        return text.replace("%", "%%").replaceAll("\\$\\{(?!DEFAULT-VALUE\\})", "\\$\\$\\{");
    }

    /** The option's description with its default before the closing period: "Files per commit (default: 300)." */
    static String withDefault(ConfigOption<?> o) {
        String text = JobConfig.text(o);
        if (!o.hasDefaultValue() || JobConfig.defaultValue(o) == null || text.contains("${DEFAULT-VALUE}")) {
            return text; // no default, or the description places it itself
        }
        String body = text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
        return body + " (default: ${DEFAULT-VALUE}).";
    }

    /** {@code cli} with the job's flags ({@link JobFlags}), their defaults from {@code conf} and their help text. */
    public static CommandLine configure(CommandLine cli, Supplier<? extends ReadableConfig> conf) {
        return JobFlags.install(cli).setDefaultValueProvider(new JobConfigDefaults(conf)).setResourceBundle(help());
    }
}
