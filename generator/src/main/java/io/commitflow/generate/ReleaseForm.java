package io.commitflow.generate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A release: a diff that sets its package's own version in its manifest and changes nothing else but that version
 * wherever it is written (a docs URL, a lock file's entry of the package itself) and the change log. Read from the
 * patch alone, for Cargo ({@code Cargo.toml}), npm ({@code package.json}), Maven ({@code pom.xml}), Gradle
 * ({@code gradle.properties}, {@code build.gradle}) and Python ({@code pyproject.toml}, {@code setup.cfg},
 * {@code setup.py}, {@code __version__}).
 *
 * <p>A history's releases teach its release form ({@link #template}): the subject with the version, and the package's
 * name where the subject writes it, as placeholders ({@code Release {version}}, {@code {name}-{version}},
 * {@code chore: release v{version}}); a release diff is then written in that form ({@link #fill}).
 *
 * @param version the version the diff sets
 * @param name    the package's name as its manifest writes it, or null when the patch does not show it or shows the
 *                manifests of several packages (a monorepo's packages released together)
 */
record ReleaseForm(String version, String name) {
    static final String VERSION = "{version}";
    static final String NAME = "{name}";
    static final String CAPITALIZED_NAME = "{Name}";

    /** A release's version: numbers only (a snapshot or a release candidate is no release). */
    private static final String V = "(\\d+(?:\\.\\d+){1,3})";
    /** Manifest file name → the pattern of its own version line (group 1: the version). */
    private static final List<Manifest> MANIFESTS = List.of(
            // TOML lets a line end in a comment: ripgrep's crates write version = "0.1.12"  #:version
            new Manifest("cargo.toml", "^\\s*version\\s*=\\s*\"" + V + "\"\\s*(?:#.*)?$",
                    "^\\s*name\\s*=\\s*\"([\\w.-]+)\"\\s*(?:#.*)?$"),
            new Manifest("pyproject.toml", "^\\s*version\\s*=\\s*\"" + V + "\"\\s*(?:#.*)?$",
                    "^\\s*name\\s*=\\s*\"([\\w.-]+)\"\\s*(?:#.*)?$"),
            new Manifest("package.json", "^\\s{1,4}\"version\"\\s*:\\s*\"" + V + "\",?\\s*$",
                    "^\\s{1,4}\"name\"\\s*:\\s*\"(@?[\\w./-]+)\",?\\s*$"),
            new Manifest("pom.xml", "^\\s{0,4}<version>" + V + "</version>\\s*$",
                    "^\\s{0,4}<artifactId>([\\w.-]+)</artifactId>\\s*$"),
            new Manifest("gradle.properties", "^\\s*version\\s*=\\s*" + V + "\\s*$", null),
            new Manifest("build.gradle", "^\\s*version\\s*=?\\s*['\"]" + V + "['\"]\\s*$", null),
            new Manifest("build.gradle.kts", "^\\s*version\\s*=\\s*\"" + V + "\"\\s*$", null),
            new Manifest("setup.cfg", "^\\s*version\\s*=\\s*" + V + "\\s*$", "^\\s*name\\s*=\\s*([\\w.-]+)\\s*$"),
            new Manifest("setup.py", "^\\s*version\\s*=\\s*['\"]" + V + "['\"],?\\s*$",
                    "^\\s*name\\s*=\\s*['\"]([\\w.-]+)['\"],?\\s*$"),
            new Manifest(".py", "^__version__\\s*=\\s*['\"]" + V + "['\"]\\s*$", null));

    private record Manifest(String file, Pattern version, Pattern name) {
        Manifest(String file, String version, String name) {
            this(file, Pattern.compile(version), name == null ? null : Pattern.compile(name));
        }

        boolean owns(String path) {
            String base = path.substring(path.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
            return file.startsWith(".") ? base.endsWith(file) : base.equals(file);
        }
    }

    /** One file's part of a patch: its path and its lines, each with its first character ({@code +}, {@code -}, ' '). */
    private record FilePart(String path, List<String> lines) {}

    /** The release this patch makes, or null when it is not one. */
    static ReleaseForm of(String patch) {
        if (patch == null || patch.isEmpty()
                || !DiffTokens.anyFile(patch, p -> MANIFESTS.stream().anyMatch(m -> m.owns(p.trim())))) {
            return null; // most commits: no manifest, and no need to split the patch
        }
        List<FilePart> files = split(patch);
        String newVersion = null;
        String oldVersion = null;
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        for (FilePart f : files) {
            for (Manifest m : MANIFESTS) {
                if (!m.owns(f.path())) {
                    continue;
                }
                String added = null;
                String removed = null;
                String name = null;
                int top = m.file().endsWith(".json") ? outermostKey(f) : -1;
                for (String line : f.lines()) {
                    Matcher v = m.version().matcher(line.substring(1));
                    boolean version = v.matches();
                    if (version && top >= 0 && indent(line) > top) {
                        // a version inside an object, not the package's: template-oss's {"templateOSS": {"version": …}}
                        continue;
                    }
                    if (line.charAt(0) == '+' && version) {
                        added = v.group(1);
                    } else if (line.charAt(0) == '-' && version) {
                        removed = v.group(1);
                    } else if (m.name() != null && line.charAt(0) != '-' && name == null) {
                        Matcher n = m.name().matcher(line.substring(1));
                        if (n.matches()) {
                            name = n.group(1);
                        }
                    }
                }
                if (added != null && removed != null && !added.equals(removed)) {
                    if (newVersion != null && !newVersion.equals(added)) {
                        return null; // two packages to two versions: no one release
                    }
                    newVersion = added;
                    oldVersion = removed;
                    if (name != null) {
                        names.add(name);
                    }
                }
            }
        }
        if (newVersion == null) {
            return null;
        }
        for (FilePart f : files) {
            if (!Changelog.isLog(f.path()) && !onlyTheVersionChanges(f, oldVersion, newVersion)) {
                return null;
            }
        }
        return new ReleaseForm(newVersion, names.size() == 1 ? names.iterator().next() : null);
    }

    /** A JSON key's line: {@code   "version": "1.2.3",}. */
    private static final Pattern JSON_KEY = Pattern.compile("^\\s*\"[^\"]+\"\\s*:.*");

    /** The indentation of the outermost keys this part of a JSON file shows, or -1 when it shows none. */
    private static int outermostKey(FilePart f) {
        int top = -1;
        for (String line : f.lines()) {
            if (JSON_KEY.matcher(line.substring(1)).matches()) {
                top = top < 0 ? indent(line) : Math.min(top, indent(line));
            }
        }
        return top;
    }

    /** The leading white space of a patch line, after its first character. */
    private static int indent(String line) {
        int i = 1;
        while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
            i++;
        }
        return i - 1;
    }

    /** Whether each removed line, with the old version written as the new one, is the added line in its place. */
    private static boolean onlyTheVersionChanges(FilePart f, String oldVersion, String newVersion) {
        List<String> removed = new ArrayList<>();
        List<String> added = new ArrayList<>();
        for (String line : f.lines()) {
            if (line.charAt(0) == '-') {
                removed.add(line.substring(1));
            } else if (line.charAt(0) == '+') {
                added.add(line.substring(1));
            }
        }
        if (removed.size() != added.size() || removed.isEmpty()) {
            return false;
        }
        for (int i = 0; i < removed.size(); i++) {
            if (!removed.get(i).replace(oldVersion, newVersion).equals(added.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static List<FilePart> split(String patch) {
        List<FilePart> out = new ArrayList<>();
        String path = null;
        List<String> lines = null;
        boolean inHunk = false;
        for (String line : patch.split("\n", -1)) {
            if (line.startsWith("diff --git ")) {
                if (path != null) {
                    out.add(new FilePart(path, lines));
                }
                int b = line.lastIndexOf(" b/");
                path = b < 0 ? line.substring(11) : line.substring(b + 3);
                lines = new ArrayList<>();
                inHunk = false;
            } else if (line.startsWith("@@")) {
                inHunk = true;
            } else if (inHunk && lines != null && !line.isEmpty()
                    && (line.charAt(0) == '+' || line.charAt(0) == '-' || line.charAt(0) == ' ')) {
                lines.add(line);
            }
        }
        if (path != null) {
            out.add(new FilePart(path, lines));
        }
        return out;
    }

    /**
     * The form of a release's subject: the version (after an optional {@code v}) as {@value #VERSION}, the package's
     * name as {@value #NAME} (or {@value #CAPITALIZED_NAME} where the subject capitalises it), GitHub's trailing
     * {@code (#n)} left out; null when the subject does not write this release's version, or writes a number of its
     * own besides (a ticket's, which would be an old one in the next release's subject).
     */
    String template(String subject) {
        int at = subject.indexOf(version);
        int end = at + version.length();
        if (at < 0 || end < subject.length() && Character.isLetterOrDigit(subject.charAt(end))
                || at > 0 && Character.isDigit(subject.charAt(at - 1))) {
            return null;
        }
        String t = (subject.substring(0, at) + VERSION + subject.substring(end)).replaceFirst("\\s*\\(#\\d+\\)\\s*$", "");
        if (name != null && !name.isEmpty()) {
            String capitalized = Character.toUpperCase(name.charAt(0)) + name.substring(1);
            if (t.contains(name)) {
                t = t.replace(name, NAME);
            } else if (!capitalized.equals(name) && t.contains(capitalized)) {
                t = t.replace(capitalized, CAPITALIZED_NAME);
            }
        }
        return t.replace(VERSION, "").matches(".*\\d.*") ? null : t;
    }

    /**
     * Where a learned form that does not name its package ends and the package that wrote it begins
     * ({@link RepoStyle#learnRelease}): a subject has no line break.
     */
    static final String PACKAGE = "\n";

    /** Whether a form names its package ({@value #NAME} or {@value #CAPITALIZED_NAME}). */
    static boolean named(String template) {
        return template.contains(NAME) || template.contains(CAPITALIZED_NAME);
    }

    /**
     * {@code template} written for this release; null when it needs the package's name and the patch has none, or
     * when it is the form of another package ({@link #PACKAGE}) than this release's.
     */
    String fill(String template) {
        int cut = template.indexOf(PACKAGE);
        if (cut >= 0) {
            String owner = template.substring(cut + PACKAGE.length());
            if (name != null && !name.equals(owner)) {
                return null;
            }
            template = template.substring(0, cut);
        }
        boolean named = named(template);
        if (named && (name == null || name.isEmpty())) {
            return null;
        }
        String s = template.replace(VERSION, version);
        if (named) {
            s = s.replace(NAME, name).replace(CAPITALIZED_NAME, Character.toUpperCase(name.charAt(0)) + name.substring(1));
        }
        return s;
    }
}
