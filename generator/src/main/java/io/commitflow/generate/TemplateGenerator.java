package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The first built-in generator: describes a diff from its paths and change kinds alone, with no history.
 * {@code Add CommitDiffer and DiffCommits}, {@code Rename Json.java to JsonCodec.java},
 * {@code Update 7 files in operators/src/main}. Deterministic: the same diff gives the same message.
 * The retrieval generator (learned from each repository's history) replaces it as the default later.
 */
public final class TemplateGenerator implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    static final int MAX_SUBJECT = 72;
    public static final String BACKEND = "template";
    private static final int MAX_NAMED = 3;

    public Draft generate(DiffedCommit diff) {
        List<FileChange> files = diff.files();
        String type = type(diff);
        String scope = scope(files);
        String subject = SubjectLength.fit(files.isEmpty() ? emptySubject(diff) : subject(files, diff.totalFiles()), diff);
        String body = diff.truncated() ? "The diff was summarised: " + diff.truncation() + "." : "";
        return new Draft(subject, body, type, scope, BACKEND, 0.0, java.util.List.of());
    }

    private static String emptySubject(DiffedCommit diff) {
        return diff.commit().parents().size() > 1 ? "Merge branch without changes to the first parent"
                : "Record an empty commit";
    }

    static String subject(List<FileChange> files, int totalFiles) {
        Set<String> kinds = new LinkedHashSet<>();
        files.forEach(f -> kinds.add(f.change()));
        if (files.size() == 1 && totalFiles == 1 && kinds.contains("RENAME")) {
            FileChange f = files.get(0);
            String from = base(f.oldPath());
            String to = base(f.newPath());
            String s = from.equals(to) ? "Move " + from + " from " + where(dir(f.oldPath())) + " to " + where(dir(f.newPath()))
                    : "Rename " + from + " to " + to;
            if (s.length() <= MAX_SUBJECT) {
                return s;
            }
        }
        String verb = kinds.size() > 1 ? "Update" : switch (kinds.iterator().next()) {
            case "ADD" -> "Add";
            case "DELETE" -> "Remove";
            case "RENAME" -> "Move";
            case "COPY" -> "Copy";
            default -> "Update";
        };
        boolean allTests = files.stream().allMatch(f -> PathKind.of(f.path()) == PathKind.TEST);
        List<String> names = names(files);
        if (totalFiles <= MAX_NAMED && names.size() <= MAX_NAMED) {
            String s = allTests && !verb.equals("Remove") ? verb + " tests " + join(names) : verb + " " + join(names);
            if (s.length() <= MAX_SUBJECT) {
                return s;
            }
        }
        String where = commonDir(files);
        String kind = allTests ? " test file" : " file";
        String counted = verb + " " + totalFiles + kind + (totalFiles == 1 ? "" : "s");
        String s = where.isEmpty() ? counted : counted + " in " + where;
        if (s.length() < SubjectLength.MIN && totalFiles > 1) {
            // "Add 55 files" is too short to stand, and padding it with the main file ("Add 55 files in pom.xml")
            // would put all of them in one: the main file leads instead
            int more = totalFiles - 1;
            String led = verb + " " + displayName(StyleApplier.mainFile(files).path()) + " and " + more + " more"
                    + kind + (more == 1 ? "" : "s");
            if (led.length() <= MAX_SUBJECT) {
                return led;
            }
        }
        return s.length() <= MAX_SUBJECT ? s : counted;
    }

    /** Distinct display names: a source file's class or module name, else the file name. */
    private static List<String> names(List<FileChange> files) {
        Set<String> names = new LinkedHashSet<>();
        for (FileChange f : files) {
            names.add(displayName(f.path()));
        }
        return new ArrayList<>(names);
    }

    private static final java.util.regex.Pattern DECLARATIONS = java.util.regex.Pattern.compile(".+\\.d\\.[cm]?ts");

    /** How a subject names a path: a source file's class or module name, else the file name. */
    static String displayName(String path) {
        String base = base(path);
        PathKind kind = PathKind.of(path);
        // a TypeScript declaration file is named whole: "index.d" is no module
        return (kind == PathKind.SOURCE || kind == PathKind.TEST) && !DECLARATIONS.matcher(base).matches()
                ? stripExtension(base) : base;
    }

    static String type(DiffedCommit diff) {
        List<FileChange> files = diff.files();
        if (diff.commit().parents().size() > 1) {
            return "chore";
        }
        EnumSet<PathKind> kinds = EnumSet.noneOf(PathKind.class);
        files.forEach(f -> kinds.add(PathKind.of(f.path())));
        if (kinds.size() == 1) {
            switch (kinds.iterator().next()) {
                case DOCS: return "docs";
                case TEST: return "test";
                case BUILD: return "build";
                case CI: return "ci";
                default: break;
            }
        }
        if (!files.isEmpty() && files.stream().allMatch(f -> f.change().equals("RENAME") || f.change().equals("DELETE"))) {
            return "refactor";
        }
        boolean addsFiles = files.stream().anyMatch(f -> f.change().equals("ADD"));
        int added = diff.linesAdded();
        int deleted = diff.linesDeleted();
        if (addsFiles && added > 2 * deleted) {
            return "feat";
        }
        if (added + deleted > 40 && Math.abs(added - deleted) <= (added + deleted) / 5) {
            return "refactor";
        }
        return added + deleted <= 40 ? "fix" : "feat";
    }

    /** The module or top directory that all changed paths share, empty when they share none. */
    static String scope(List<FileChange> files) {
        String scope = null;
        for (FileChange f : files) {
            String p = f.path();
            int slash = p.indexOf('/');
            String top = slash < 0 ? "" : p.substring(0, slash);
            if (top.startsWith(".")) {
                top = "";
            }
            if (scope == null) {
                scope = top;
            } else if (!scope.equals(top)) {
                return "";
            }
        }
        return scope == null || scope.equals("src") ? "" : scope;
    }

    private static String commonDir(List<FileChange> files) {
        String common = null;
        for (FileChange f : files) {
            String d = dir(f.path());
            if (common == null) {
                common = d;
            }
            while (!common.isEmpty() && !(d.equals(common) || d.startsWith(common + "/"))) {
                common = dir(common);
            }
        }
        return common == null ? "" : common;
    }

    private static String join(List<String> names) {
        if (names.size() == 1) {
            return names.get(0);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }

    private static String where(String dir) {
        return dir.isEmpty() ? "the top level" : dir;
    }

    private static String base(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static String dir(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }

    private static String stripExtension(String name) {
        int dot = name.lastIndexOf('.');
        return dot <= 0 ? name : name.substring(0, dot);
    }
}
