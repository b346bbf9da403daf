package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No constant of the generator names a repository, an organisation or a project of the quality panel
 * (docs/quality.md): what it writes is learned from each history, never coded for one. Comments may say where a rule
 * was seen; string literals may not name it.
 */
class PanelNamesTest {
    /** The panel's repositories, their owners as GitHub spells them, and their projects' own words. */
    static final List<String> PANEL = List.of("apache", "commons-lang", "commons", "eclipse-jgit", "jgit", "vuejs", "vue",
            "flink", "renovate",
            "flink-connector-kafka", "renovatebot", "github-action", "dtolnay", "anyhow", "babel", "tokio-rs", "tokio",
            "vitejs", "vite", "calcite", "sindresorhus", "ky", "pallets", "flask",
            // not "kafka": the broker commitflow runs on, which its own messages name (apache/kafka is on the panel)
            "curl", "psf", "requests", "npm", "node-semver", "semver", "spf13", "cobra", "jestjs", "jest",
            "BurntSushi", "ripgrep", "expressjs", "express", "axios", "click", "gin-gonic", "gin", "square", "okhttp",
            "libuv", "vitest-dev", "vitest", "maven", "encode", "httpx", "junegunn", "fzf", "rubocop", "redis", "sharkdp",
            "bat", "spring-projects", "spring-boot", "mpv-player", "mpv", "python", "mypy", "fastify", "commons-io",
            "clap-rs", "clap", "tmux", "black", "sveltejs", "svelte", "jqlang", "jq", "pytest-dev", "pytest",
            "serde-rs", "serde", "nodejs", "undici", "libgit2", "commons-text", "pnpm", "htop-dev", "htop", "facebook",
            "zstd", "jesseduffield", "lazygit", "tj", "commander.js", "commander", "commons-collections",
            "charmbracelet", "bubbletea", "fastapi", "jquery", "nginx", "prettier", "fd", "google", "gson");
    private static final Pattern BLOCK_COMMENT = Pattern.compile("/\\*.*?\\*/", Pattern.DOTALL);
    private static final Pattern LINE_COMMENT = Pattern.compile("//[^\\n]*");
    private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");

    @Test
    void noStringOfTheGeneratorNamesAPanelHistory() throws IOException {
        List<String> found = new ArrayList<>();
        Path main = Path.of("src/main/java");
        try (Stream<Path> files = Files.walk(main)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String code = LINE_COMMENT.matcher(BLOCK_COMMENT.matcher(Files.readString(f)).replaceAll(" "))
                        .replaceAll(" ");
                Matcher m = LITERAL.matcher(code);
                while (m.find()) {
                    for (String name : PANEL) {
                        if (Pattern.compile("(?i)(?<![\\w-])" + Pattern.quote(name) + "(?![\\w-])").matcher(m.group(1)).find()) {
                            found.add(main.relativize(f) + ": \"" + m.group(1) + "\" names " + name);
                        }
                    }
                }
            }
        }
        assertThat(found).as("string literals naming a panel history").isEmpty();
    }

    @Test
    void theScanFindsANameInAStringAndNotInAComment() {
        String code = "// tuned on tokio\nString s = \"Release of tokio\"; /* vite */ String t = \"vitest\";";
        String stripped = LINE_COMMENT.matcher(BLOCK_COMMENT.matcher(code).replaceAll(" ")).replaceAll(" ");
        List<String> literals = new ArrayList<>();
        Matcher m = LITERAL.matcher(stripped);
        while (m.find()) {
            literals.add(m.group(1));
        }
        assertThat(literals).containsExactly("Release of tokio", "vitest");
        assertThat(Pattern.compile("(?i)(?<![\\w-])vite(?![\\w-])").matcher("vitest").find()).isFalse();
    }
}
