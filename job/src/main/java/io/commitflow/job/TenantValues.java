package io.commitflow.job;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Options of the form {@code TENANT=VALUE}, repeated or comma-separated: one parser for all of them. */
final class TenantValues {
    private TenantValues() {}

    /**
     * Each tenant's value, made by {@code parse} from the text after the first {@code =}. A missing tenant or value,
     * or a value {@code parse} refuses, is a usage error naming {@code option} and the {@code form} it takes.
     */
    static <V> Map<String, V> parse(CommandSpec spec, String option, String form, List<String> items,
                                    Function<String, V> parse) {
        Map<String, V> out = new HashMap<>();
        for (String t : items) {
            int eq = t.indexOf('=');
            if (eq < 1 || eq == t.length() - 1) {
                throw new ParameterException(spec.commandLine(), option + " takes TENANT=" + form + ", not '" + t + "'");
            }
            try {
                out.put(t.substring(0, eq).trim(), parse.apply(t.substring(eq + 1)));
            } catch (RuntimeException e) {
                throw new ParameterException(spec.commandLine(), option + " " + t + ": " + e.getMessage());
            }
        }
        return out;
    }
}
