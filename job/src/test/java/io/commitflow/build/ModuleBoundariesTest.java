package io.commitflow.build;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The modules by role, read from the main sources: each module uses only the modules below it (gpu, generator,
 * pipeline, job, tools), a package lives in one module, the packages' dependencies have no cycle, and the generator
 * uses no Flink at all. The job jar's side (no tools class in it) is {@code ShadedJarITCase}'s.
 */
class ModuleBoundariesTest {
    private static final Path HOME = Path.of(System.getProperty("commitflow.home", "..")).toAbsolutePath().normalize();
    /** Bottom to top: a module may use those before it. */
    private static final List<String> MODULES = List.of("gpu", "generator", "pipeline", "job", "tools");
    private static final Pattern REFERENCE = Pattern.compile("\\bio\\.commitflow\\.([a-z][a-z0-9]*(?:\\.[a-z][a-z0-9]*)*)\\.[A-Z]");
    private static final Pattern PACKAGE = Pattern.compile("^package (io\\.commitflow[\\w.]*);", Pattern.MULTILINE);

    /** package → its module */
    private final Map<String, String> moduleOf = new TreeMap<>();
    /** package → the io.commitflow packages its main sources use */
    private final Map<String, Set<String>> uses = new TreeMap<>();
    /** module → the text of its main sources, comments left out */
    private final Map<String, List<String>> code = new LinkedHashMap<>();

    ModuleBoundariesTest() throws IOException {
        List<String> split = new ArrayList<>();
        for (String module : MODULES) {
            code.put(module, new ArrayList<>());
            Path main = HOME.resolve(module).resolve("src/main/java");
            try (Stream<Path> files = Files.walk(main)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String source = Files.readString(f);
                    Matcher pm = PACKAGE.matcher(source);
                    assertThat(pm.find()).as("package declaration in %s", f).isTrue();
                    String pkg = pm.group(1);
                    String before = moduleOf.putIfAbsent(pkg, module);
                    if (before != null && !before.equals(module)) {
                        split.add(pkg + " in " + before + " and " + module);
                    }
                    String text = withoutComments(source);
                    code.get(module).add(text);
                    Matcher m = REFERENCE.matcher(text);
                    Set<String> used = uses.computeIfAbsent(pkg, k -> new TreeSet<>());
                    while (m.find()) {
                        String other = "io.commitflow." + m.group(1);
                        if (!other.equals(pkg)) {
                            used.add(other);
                        }
                    }
                }
            }
        }
        assertThat(split).as("packages split across modules").isEmpty();
        assertThat(moduleOf.keySet()).as("packages found").hasSizeGreaterThan(15);
    }

    @Test
    void everyModuleUsesOnlyTheModulesBelowIt() {
        List<String> upward = new ArrayList<>();
        uses.forEach((pkg, used) -> {
            int level = MODULES.indexOf(moduleOf.get(pkg));
            for (String u : used) {
                String target = moduleOf.get(u);
                if (target == null) {
                    upward.add(pkg + " uses " + u + ", which no module has");
                } else if (MODULES.indexOf(target) > level) {
                    upward.add(pkg + " (" + moduleOf.get(pkg) + ") uses " + u + " (" + target + ")");
                }
            }
        });
        assertThat(upward).isEmpty();
    }

    @Test
    void thePackagesDependenciesHaveNoCycle() {
        List<String> cycles = new ArrayList<>();
        Map<String, Integer> state = new TreeMap<>(); // 1: on the path, 2: done
        for (String pkg : uses.keySet()) {
            visit(pkg, new ArrayList<>(), state, cycles);
        }
        assertThat(cycles).as("cycles between packages (a back-arrow each)").isEmpty();
    }

    @Test
    void theOperatorsSeeTracingOnlyThroughTheirOwnInterface() {
        for (String operators : List.of("io.commitflow.ingest", "io.commitflow.diff", "io.commitflow.suggest",
                "io.commitflow.slawindows")) {
            assertThat(uses.get(operators)).as(operators).isNotNull().doesNotContain("io.commitflow.trace");
        }
        assertThat(uses.get("io.commitflow.trace")).as("the tracer implements the operators' interface")
                .contains("io.commitflow.spans");
        assertThat(uses.get("io.commitflow.spans")).doesNotContain("io.commitflow.trace");
    }

    @Test
    void theGeneratorUsesNoFlink() throws IOException {
        assertThat(code.get("generator")).isNotEmpty().noneMatch(text -> text.contains("org.apache.flink"));
        String pom = Files.readString(HOME.resolve("generator/pom.xml"));
        assertThat(pom).as("generator/pom.xml: no Flink artifact, in any scope").doesNotContain("org.apache.flink");
    }

    private void visit(String pkg, List<String> path, Map<String, Integer> state, List<String> cycles) {
        Integer s = state.get(pkg);
        if (s != null && s == 2) {
            return;
        }
        if (s != null) {
            cycles.add(String.join(" -> ", path.subList(path.indexOf(pkg), path.size())) + " -> " + pkg);
            return;
        }
        state.put(pkg, 1);
        path.add(pkg);
        for (String next : uses.getOrDefault(pkg, Set.of())) {
            visit(next, path, state, cycles);
        }
        path.remove(path.size() - 1);
        state.put(pkg, 2);
    }

    /** The source without its comments; string and character literals are kept as they are. */
    static String withoutComments(String s) {
        return JavaText.split(s, false);
    }

    @Test
    void commentsAreLeftOutAndStringsKept() {
        assertThat(withoutComments("a /* io.commitflow.x.Y */ b // io.commitflow.z.W\n\"//not a comment\" 'x'"))
                .isEqualTo("a   b \n\"//not a comment\" 'x'");
    }
}
