package io.commitflow.job;

import org.apache.flink.configuration.ConfigOption;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A group of the job's flags, made from {@link JobConfig}: a command mixes the group in ({@code @Mixin}) and
 * {@link #install} gives it one flag per option the group {@linkplain #owns owns}. The flag's names and value label
 * are the option's line in {@code flags.properties}; its type follows the option's default, its default and help
 * text are the option's ({@link JobConfigDefaults}). So a new setting is one option in {@link JobConfig}, one line
 * in {@code flags.properties}, and the code that reads it with {@link #get}.
 */
public abstract class JobFlags {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    private final Map<String, Object> values = new HashMap<>();

    /** Whether this group takes {@code option}'s flag. */
    abstract boolean owns(ConfigOption<?> option);

    /** The flag's value: what the command line or the configuration set, else the option's default (or null). */
    @SuppressWarnings("unchecked")
    <T> T get(ConfigOption<T> option) {
        Object v = values.get(option.key());
        return v != null ? (T) v : option.hasDefaultValue() ? option.defaultValue() : null;
    }

    /** A usage error of this group's command, reported as picocli reports its own. */
    ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** Every option's flag names and value label, from {@code flags.properties}, by key. */
    static Map<String, String[]> table() {
        Properties p = new Properties();
        try (InputStream in = JobFlags.class.getResourceAsStream("flags.properties")) {
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String[]> out = new HashMap<>();
        p.forEach((k, v) -> out.put((String) k, ((String) v).trim().split("\\s+", 2)));
        return out;
    }

    /**
     * Adds to every command of {@code cli} (subcommands too) the flags of the {@link JobFlags} groups it mixes in,
     * once; call it before the command's default provider and resource bundle are set.
     */
    public static CommandLine install(CommandLine cli) {
        install(cli, table());
        return cli;
    }

    private static void install(CommandLine cli, Map<String, String[]> table) {
        install(cli.getCommandSpec(), cli.getCommandSpec(), table);
        for (CommandLine sub : cli.getSubcommands().values()) {
            install(sub, table);
        }
    }

    private static void install(CommandSpec command, CommandSpec mixins, Map<String, String[]> table) {
        for (CommandSpec mixin : mixins.mixins().values()) {
            if (mixin.userObject() instanceof JobFlags group) {
                for (ConfigOption<?> option : JobConfig.ALL) {
                    String[] flag = table.get(option.key());
                    if (group.owns(option) && flag != null && command.findOption(flag[0].split("\\|")[0]) == null) {
                        command.addOption(group.flag(option, flag));
                    }
                }
            }
            install(command, mixin, table);
        }
    }

    private OptionSpec flag(ConfigOption<?> option, String[] flag) {
        OptionSpec.Builder b = OptionSpec.builder(flag[0].split("\\|")).descriptionKey(option.key())
                .setter(new CommandLine.Model.ISetter() {
                    @Override
                    @SuppressWarnings("unchecked")
                    public <T> T set(T value) {
                        return (T) values.put(option.key(), value);
                    }
                })
                .getter(new CommandLine.Model.IGetter() {
                    @Override
                    @SuppressWarnings("unchecked")
                    public <T> T get() {
                        return (T) values.get(option.key());
                    }
                });
        Object d = option.hasDefaultValue() ? option.defaultValue() : "";
        if (flag.length == 1) {
            return b.type(boolean.class).negatable(true).fallbackValue("true").build(); // a switch: --fleet, --no-fleet
        }
        b.paramLabel(flag[1]);
        if (d instanceof Duration) {
            b.type(Duration.class).converters(new DurationConverter());
        } else if (d instanceof List) {
            b.type(List.class).auxiliaryTypes(String.class).splitRegex(",").initialValue(new ArrayList<String>());
        } else if (d instanceof Map) {
            b.type(Map.class).auxiliaryTypes(String.class, String.class);
        } else {
            b.type(d.getClass());
        }
        return b.build();
    }
}
