package io.commitflow.cli;

import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The version the build stamped into {@code version.properties} (the POM's), for {@code --version}. */
public final class Version implements CommandLine.IVersionProvider {
    /** The POM's version of this build, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String of() {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("version.properties is missing from the build");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.getProperty("version");
    }

    @Override
    public String[] getVersion() {
        return new String[] {"commitflow " + of()};
    }
}
