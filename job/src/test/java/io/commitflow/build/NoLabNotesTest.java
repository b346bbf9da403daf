package io.commitflow.build;

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
 * The product carries its current state, not the notebook of how it got there; git history is the log. Code comments,
 * configuration, scripts and READMEs name no issue, no round of work, no before/after B-Norm delta and no date of a
 * measurement; the documents under {@code docs/} (whose figures each name their date) name no issue or round either.
 */
class NoLabNotesTest {
    private static final Path HOME = Path.of(System.getProperty("commitflow.home", "..")).toAbsolutePath().normalize();
    private static final List<String> MODULES = List.of("gpu", "generator", "pipeline", "job", "tools");

    private static final Pattern ISSUE = Pattern.compile("(?i)\\bissues? #?\\d+\\b");
    private static final Pattern ROUND = Pattern.compile("(?i)\\bround \\d+\\b|\\b(first|second|third|fourth|fifth|sixth"
            + "|seventh|eighth|ninth|tenth|eleventh|twelfth|this|last|next|previous|later|earlier) round\\b");
    /**
     * A score's change: a signed figure next to "B-Norm", a before and an after of two decimals joined by an arrow,
     * or a signed figure of two decimals on its own (the forms {@link #thePatternsFindWhatTheyAreFor} shows).
     */
    private static final Pattern DELTA = Pattern.compile("B-Norm [+\u2212-]\\d|[+\u2212-]\\d[\\d.]* B-Norm"
            + "|\\d\\.\\d\\d ?(->|\u2192) ?\\d+\\.\\d\\d|(?<![\\w.\\-])[+\u2212-]\\d+\\.\\d\\d\\b");
    private static final Pattern DATE = Pattern.compile("\\b20\\d\\d-\\d\\d-\\d\\d\\b");

    @Test
    void codeCommentsCarryNoLabNotes() throws IOException {
        List<String> found = new ArrayList<>();
        for (String module : MODULES) {
            for (Path f : files(HOME.resolve(module).resolve("src"), ".java")) {
                scan(f, comments(Files.readString(f)), found, ISSUE, ROUND, DELTA, DATE);
            }
        }
        for (Path f : files(HOME.resolve("tools/src/kit"), ".java")) {
            scan(f, comments(Files.readString(f)), found, ISSUE, ROUND, DELTA, DATE);
        }
        assertThat(found).as("write why, not when or in which issue; measurements go to docs/").isEmpty();
    }

    @Test
    void configurationScriptsAndReadmesCarryNoLabNotes() throws IOException {
        List<Path> texts = new ArrayList<>(files(HOME.resolve("flink-conf"), ""));
        texts.addAll(files(HOME.resolve("tools/src/kit"), ""));
        texts.addAll(files(HOME.resolve("tools/hooks"), ""));
        texts.addAll(files(HOME.resolve(".ci"), ""));
        texts.add(HOME.resolve("commitflow"));
        texts.add(HOME.resolve("README.md"));
        for (String module : MODULES) {
            texts.add(HOME.resolve(module).resolve("README.md"));
            texts.addAll(files(HOME.resolve(module), ".sh"));
        }
        texts.removeIf(f -> f.toString().endsWith(".java"));
        List<String> found = new ArrayList<>();
        for (Path f : texts) {
            scan(f, Files.readString(f), found, ISSUE, ROUND, DELTA, DATE);
        }
        assertThat(texts).contains(HOME.resolve("flink-conf/config.yaml"), HOME.resolve("generator/README.md"));
        assertThat(found).as("write why, not when or in which issue; measurements go to docs/").isEmpty();
    }

    @Test
    void docsNameNoIssueOrRound() throws IOException {
        List<String> found = new ArrayList<>();
        List<Path> docs = files(HOME.resolve("docs"), ".md");
        assertThat(docs).isNotEmpty();
        for (Path f : docs) {
            scan(f, Files.readString(f), found, ISSUE, ROUND);
        }
        assertThat(found).as("docs/ holds current figures; git history is the log").isEmpty();
    }

    @Test
    void thePatternsFindWhatTheyAreFor() {
        assertThat(ISSUE.matcher("as issue 16 asked").find()).isTrue();
        assertThat(ISSUE.matcher("the issue the entry names").find()).isFalse();
        assertThat(ROUND.matcher("the fourth round's cuts").find()).isTrue();
        assertThat(ROUND.matcher("the interactive round trip").find()).isFalse();
        assertThat(DELTA.matcher("vuejs/core, 14 of 1,000 suggestions; B-Norm +0.09").find()).isTrue();
        assertThat(DELTA.matcher("+0.4 and +0.2 B-Norm in-sample").find()).isTrue();
        assertThat(DELTA.matcher("B-Norm and ROUGE-L").find()).isFalse();
        assertThat(DELTA.matcher("always, B-Norm 29.65 -> 31.34").find()).isTrue();
        assertThat(DELTA.matcher("cost jgit -0.25, commons-lang -0.17").find()).isTrue();
        assertThat(DELTA.matcher("vuejs/core -0.01 B-Norm").find()).isTrue();
        assertThat(DELTA.matcher("Bump 1.2 -> 1.3, a score of 0.85, -Xmx2g, x-0.25").find()).isFalse();
        assertThat(comments("String v = \"2023-06-01\"; // measured 2026-12-03")).contains("2026-12-03")
                .doesNotContain("2023-06-01");
    }

    private static void scan(Path f, String text, List<String> found, Pattern... patterns) {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            for (Pattern p : patterns) {
                Matcher m = p.matcher(lines[i]);
                if (m.find()) {
                    found.add(HOME.relativize(f) + ": \"" + m.group() + "\" in: " + lines[i].strip());
                }
            }
        }
    }

    /** Only the comments of a Java source, everything else blanked (line breaks kept). */
    static String comments(String source) {
        return JavaText.split(source, true);
    }

    private static List<Path> files(Path root, String suffix) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(suffix))
                    .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/resources/savepoints/"))
                    .sorted().toList();
        }
    }
}
