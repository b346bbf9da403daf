package io.commitflow.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** {@code --repo PATH}, declared once for every command that reads a repository's history from disk. */
final class RepositoryPath {
    @Option(names = "--repo", required = true, paramLabel = "PATH",
            description = "Repository whose history is read: a work tree or a bare repository.")
    Path path;
}
