package io.commitflow.generate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The library a version bump changes, read from the lines that carry its new version: a Maven property
 * ({@code <bytebuddy-version>1.14.8</bytebuddy-version>}), a pom's {@code <artifactId>} just above a changed
 * {@code <version>}, a {@code package.json} entry, Gradle or Maven coordinates, a GitHub Action's {@code uses:}, or a
 * {@code name = version} line. An exemplar's bump subject ({@code Update commons-codec to 1.14.8}) then names the
 * library this diff bumps ({@code Update bytebuddy to 1.14.8}) instead of one that only stands near it in the pom.
 */
public final class BumpedArtifact {
    private static final Pattern PROPERTY = Pattern.compile("<([\\w.-]+?)[.-]version>|<version\\.([\\w.-]+)>");
    private static final Pattern ARTIFACT_ID = Pattern.compile("<artifactId>([\\w.-]+)</artifactId>");
    private static final int REACH = 3;

    private BumpedArtifact() {}

    /**
     * {@code s} naming the library this diff bumps: unchanged when it is no bump subject or already names it; null
     * when it names another library and this diff's one cannot be read.
     */
    public static Subject named(Subject s, String patch, List<String> newVersions) {
        String rendered = s.render();
        if (Faithfulness.bumpNamesChanged(rendered, patch)) {
            return s;
        }
        // the qualifier goes with the name it qualifies: "Update Apache commons-codec" becomes "Update bytebuddy"
        String named = Faithfulness.bumpNameWords(s.description());
        String artifact = newVersions.size() == 1 ? of(patch, newVersions.get(0)) : null;
        if (named == null || artifact == null) {
            return null;
        }
        Subject renamed = s.withDescription(s.description().replace(named, artifact));
        return Faithfulness.bumpNamesChanged(renamed.render(), patch) ? renamed : null;
    }

    /**
     * The one library whose lines carry {@code version} on an added line, or null when none or several do. Several
     * names are one library's family when one of them names them all: a version property or variable
     * ({@code BYTE_BUDDY_VERSION} for {@code byte-buddy} and {@code byte-buddy-agent}, {@code SSHD_VERS} for
     * {@code sshd-osgi}), or an OSGi bundle whose name the others extend ({@code org.objectweb.asm} for
     * {@code org.objectweb.asm.tree}); two packages at one version ({@code vue}, {@code vue-router}) stay two.
     */
    static String of(String patch, String version) {
        String v = Pattern.quote(version);
        Pattern json = Pattern.compile("\"(@?[\\w./-]+)\"\\s*:\\s*\"[~^>=v]*" + v + "\\b");
        Pattern coordinates = Pattern.compile("[\\w.-]+:([\\w.-]+):v?" + v + "\\b");
        Pattern uses = Pattern.compile("uses:\\s*([\\w./-]+)@v?" + v + "\\b");
        Pattern assignment = Pattern.compile("^\\+\\s*([\\w.-]+)\\s*[=:]\\s*[\"']?[~^]?v?" + v + "\\b");
        Pattern unit = Pattern.compile("<unit id=\"([\\w.-]+)\"\\s+version=\"" + v + "\\b");
        // in this order; the first two (a property, a bundle id) may name a family, as may an upper-case variable
        Pattern[] patterns = {PROPERTY, unit, json, coordinates, uses, assignment};
        // name -> whether it may name a family
        Map<String, Boolean> found = new LinkedHashMap<>();
        String[] lines = patch.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            if (!l.startsWith("+") || l.startsWith("+++") || !l.contains(version)) {
                continue;
            }
            String name = null;
            boolean family = false;
            for (int p = 0; p < patterns.length && name == null; p++) {
                Matcher m = patterns[p].matcher(l);
                if (m.find()) {
                    name = m.group(1) != null ? m.group(1) : m.groupCount() > 1 ? m.group(2) : null;
                    family = p <= 1 || (patterns[p] == assignment && name != null && UPPER.matcher(name).matches());
                }
            }
            for (int j = i - 1; name == null && j >= Math.max(0, i - REACH); j--) {
                Matcher a = ARTIFACT_ID.matcher(lines[j]);
                if (a.find()) {
                    name = a.group(1);
                }
            }
            if (name != null && !name.equalsIgnoreCase("version")) { // Bazel's `version = "2.16.1"` names nothing
                found.merge(bare(name), family, Boolean::logicalOr);
            }
        }
        if (found.size() <= 1) {
            return found.isEmpty() ? null : found.keySet().iterator().next();
        }
        String best = null;
        for (Map.Entry<String, Boolean> e : found.entrySet()) {
            String family = Faithfulness.squash(e.getKey());
            if (!e.getValue() || family.length() < 3
                    || (best != null && Faithfulness.squash(best).length() <= family.length())) {
                continue;
            }
            boolean namesAll = true;
            for (String other : found.keySet()) {
                namesAll &= Faithfulness.squash(other).contains(family);
            }
            if (namesAll) {
                best = e.getKey();
            }
        }
        return best;
    }

    private static final Pattern UPPER = Pattern.compile("[A-Z0-9_]+");

    /** A property's name without its version word: {@code bytebuddy-version} → {@code bytebuddy}. */
    private static String bare(String name) {
        if (UPPER.matcher(name).matches()) {
            name = name.toLowerCase(Locale.ROOT).replace('_', '-'); // BYTE_BUDDY_VERSION → byte-buddy
        }
        String lower = name.toLowerCase(Locale.ROOT);
        for (String suffix : List.of(".version", "-version", "_version", "version", "-vers")) {
            if (lower.endsWith(suffix) && name.length() > suffix.length()) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return name;
    }
}
