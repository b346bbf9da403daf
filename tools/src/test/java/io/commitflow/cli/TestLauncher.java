package io.commitflow.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** The CLI on this build's classpath as a script, for the Git hooks the tests install to call as they call ./commitflow. */
public final class TestLauncher {
    private TestLauncher() {}

    /** The command line's classpath as ./commitflow builds it (the local broker runs on it too). */
    public static String classpath() throws IOException {
        Path target = DemoITCase.HOME.resolve("tools/target");
        return target.resolve("classes") + ":" + Files.readString(target.resolve("cli-runtime.classpath")).strip()
                + ":" + Files.readString(target.resolve("cli-provided.classpath")).strip();
    }

    /**
     * Writes {@code in/commitflow}: as ./commitflow runs the CLI, the log in a file ({@code in/cli.log}), only errors
     * on stderr, nothing else on stdout.
     */
    static Path write(Path in) throws IOException {
        String cp = classpath();
        String java = ProcessHandle.current().info().command().orElse("java");
        Path script = in.resolve("commitflow");
        Files.writeString(script, "#!/bin/sh\nexec '" + java + "' -XX:TieredStopAtLevel=1 -Dlog4j.configurationFile='"
                + DemoITCase.HOME.resolve("flink-conf/log4j-cli.properties") + "' -Dcommitflow.log.file='" + in.resolve("cli.log")
                + "' -cp '" + cp + "' io.commitflow.cli.Commitflow \"$@\"\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }
}
