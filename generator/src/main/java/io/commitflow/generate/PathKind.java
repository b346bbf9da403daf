package io.commitflow.generate;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a path is for, judged from its name alone; and {@link #COMMENTS}, which no path is: a diff of code that changes
 * only comments.
 */
enum PathKind {
    TEST, DOCS, BUILD, CI, CONFIG, SOURCE, OTHER, COMMENTS;

    // compiled once: String.matches compiles its pattern on every call, which made this method a hot spot
    private static final Pattern TEST_NAME =
            Pattern.compile(".*(Test|Tests|ITCase|IT|_test|_tests|\\.spec|\\.test)\\.[A-Za-z0-9]+");
    private static final Pattern SOURCE_NAME =
            Pattern.compile(".*\\.(java|kt|scala|go|rs|c|h|cc|cpp|hpp|cu|py|js|ts|tsx|jsx|rb|php|cs|swift|m|sh|pl|lua|sql|clj|ex|exs|hs|ml)");

    /**
     * The kind every one of {@code files} has, when that is a test, docs, build, CI or config kind; null for a
     * diff of mixed kinds, of source code, or of nothing.
     */
    static PathKind only(java.util.List<io.commitflow.git.FileChange> files) {
        PathKind kind = null;
        for (io.commitflow.git.FileChange f : files) {
            PathKind k = of(f.path());
            if (k == SOURCE || k == OTHER || (kind != null && k != kind)) {
                return null;
            }
            kind = k;
        }
        return kind;
    }

    /**
     * The kind of a diff for the history's habits: {@link #only} its files' kind, else {@link #COMMENTS} where it
     * changes only comments of code (vuejs/core titles such diffs "chore: …" 23 times in 31, where the neighbours'
     * vote said "fix"), else null.
     */
    static PathKind of(io.commitflow.git.DiffedCommit d) {
        PathKind kind = only(d.files());
        return kind != null ? kind : commentsOnly(d.patch()) ? COMMENTS : null;
    }

    /** Every changed line of {@code patch} that is not blank is a comment, in a file of code. */
    static boolean commentsOnly(String patch) {
        return comments(patch) != null;
    }

    /**
     * What the changed lines of {@code patch} are when every one that is not blank is a comment in a file of code:
     * {@code Javadoc} when one of them is a Java file's documentation comment ({@code * …}, {@code /** …}), else
     * {@code comment}; null when any is code, lies in a file of no code (a change log's "* item" is its text), or
     * nothing changed.
     */
    static String comments(String patch) {
        boolean any = false;
        boolean code = false;
        boolean java = false;
        boolean javadoc = false;
        for (int from = 0, to; from < patch.length(); from = to + 1) {
            to = DiffTokens.lineEnd(patch, from);
            if (patch.startsWith("+++ ", from)) {
                String file = patch.substring(from + 4, to);
                PathKind kind = of(file.startsWith("b/") ? file.substring(2) : file);
                code = kind == SOURCE || kind == TEST;
                java = file.endsWith(".java");
                continue;
            }
            if (!DiffTokens.isChange(patch, from, to)) {
                continue;
            }
            String line = patch.substring(from + 1, to).strip();
            if (line.isEmpty()) {
                continue;
            }
            if (!code || !comment(line)) {
                return null;
            }
            javadoc |= java && (line.startsWith("/**") || (line.startsWith("*") && !line.startsWith("*/")));
            any = true;
        }
        return !any ? null : javadoc ? "Javadoc" : "comment";
    }

    /** A line of code that is a comment: {@code // …}, {@code /* …}, {@code * …}, {@code * /}, {@code # …}. */
    static boolean comment(String stripped) {
        return stripped.startsWith("//") || stripped.startsWith("/*") || stripped.startsWith("*")
                || stripped.startsWith("#");
    }

    /** A test class's name ends with one of these; the longer of two that both fit comes first ("Tests", "Test"). */
    private static final String[] TEST_SUFFIXES = {"ITCase", "Tests", "Test", "IT"};

    /**
     * A test class's name, as a subject or a file's stem gives it: {@code FooTest}, {@code FooTests}, {@code FooIT},
     * {@code FooITCase}.
     */
    static boolean testClass(String name) {
        return testedName(name) != null;
    }

    /**
     * A test class's name without its suffix ({@code CharRangeTest}: {@code CharRange}, the class it tests); null
     * for a name that is no test class's.
     */
    static String testedName(String name) {
        for (String suffix : TEST_SUFFIXES) {
            if (name.endsWith(suffix)) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return null;
    }

    static PathKind of(String path) {
        return KINDS.get(path);
    }

    /** Kinds by path: a diff's paths and its neighbours' are asked of many times a suggestion. */
    private static final Memo<PathKind> KINDS = new Memo<>(PathKind::read, 16_384);

    private static PathKind read(String path) {
        String p = path.toLowerCase(Locale.ROOT);
        String name = p.substring(p.lastIndexOf('/') + 1);
        String original = path.substring(path.lastIndexOf('/') + 1);
        if (p.startsWith(".github/") || p.startsWith(".ci/") || p.startsWith(".circleci/") || name.equals(".gitlab-ci.yml")
                || name.equals("jenkinsfile") || name.equals(".travis.yml") || p.startsWith(".azure-pipelines")) {
            return CI;
        }
        if (p.contains("/test/") || p.startsWith("test/") || p.startsWith("tests/") || p.contains("/tests/")
                || TEST_NAME.matcher(original).matches() || name.startsWith("test_")) {
            return TEST;
        }
        if (name.endsWith(".md") || name.endsWith(".rst") || name.endsWith(".adoc") || name.endsWith(".txt")
                || p.startsWith("docs/") || p.startsWith("doc/") || p.contains("/docs/") || name.startsWith("readme")
                || name.startsWith("license") || name.startsWith("changelog") || name.startsWith("notice")) {
            return DOCS;
        }
        if (name.equals("pom.xml") || name.startsWith("build.gradle") || name.equals("settings.gradle")
                || name.equals("makefile") || name.equals("cmakelists.txt") || name.equals("package.json")
                || name.equals("package-lock.json") || name.equals("cargo.toml") || name.equals("cargo.lock")
                || name.equals("go.mod") || name.equals("go.sum") || name.equals("setup.py") || name.equals("pyproject.toml")
                || name.startsWith("mvnw") || p.startsWith(".mvn/") || name.equals("configure.ac") || name.endsWith(".cmake")) {
            return BUILD;
        }
        if (name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".properties") || name.endsWith(".toml")
                || name.endsWith(".ini") || name.endsWith(".conf") || name.endsWith(".cfg") || name.endsWith(".json")
                || name.startsWith(".")) {
            return CONFIG;
        }
        if (SOURCE_NAME.matcher(name).matches()) {
            return SOURCE;
        }
        return OTHER;
    }
}
