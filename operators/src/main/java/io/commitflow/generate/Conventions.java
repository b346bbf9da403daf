package io.commitflow.generate;

/**
 * How a repository writes its subjects, as answers to the questions that writing one asks; made by
 * {@link RepoStyle#conventions()} from the counts of its history at one moment and read by {@link StyleApplier}.
 * Immutable and small, so a request can carry the answers of the moment it was made.
 *
 * @param hasHistory         at least one commit has been learned
 * @param usesConventional   at least 30% of subjects are conventional commits ({@code fix(core): …})
 * @param scopeIsUsuallyFile more than half of the conventional subjects are scoped by a changed file's name
 * @param usesArea           at least 30% of subjects start with an {@code area: } that is no conventional type
 * @param areaIsUsuallyFile  at least half of those areas are a changed file's name
 * @param mostlyTagged       at least half of subjects start with bracket tags ({@code [hotfix]})
 * @param writesTags         at least 30% of subjects start with bracket tags
 * @param writesTickets      at least 30% of subjects carry a ticket id ({@code FLINK-1234})
 * @param capitalizes        at least half of descriptions start with a capital letter
 * @param endsWithPeriod     more than half of subjects end with a period
 * @param subjectIsChangelogEntry of at least 3 commits that added one change-log entry, more than half said the same
 *                           in their subject ({@link Changelog})
 * @param kindTypes          the conventional type the history gives a diff of only tests, docs, build, CI or config
 *                           files, where at least {@value RepoStyle#KIND_COMMITS} such commits gave one type half the
 *                           time or more: {@code KIND=type} pairs, comma-separated ({@code TEST=test,DOCS=chore});
 *                           empty when none, null in a request restored from a version before it was kept
 * @param scopeSpellings     for each conventional scope the history spells more than one way, the spelling it writes
 *                           most: {@code key=spelling} pairs by {@link #scopeKey}, comma-separated
 *                           ({@code customelement=custom-element}); empty when none, null as {@code kindTypes}
 */
public record Conventions(boolean hasHistory, boolean usesConventional, boolean scopeIsUsuallyFile, boolean usesArea,
                          boolean areaIsUsuallyFile, boolean mostlyTagged, boolean writesTags, boolean writesTickets,
                          boolean capitalizes, boolean endsWithPeriod, boolean subjectIsChangelogEntry,
                          String kindTypes, String scopeSpellings) {

    /** Conventions without {@code scopeSpellings}, as a request of a version before they were kept reads. */
    public Conventions(boolean hasHistory, boolean usesConventional, boolean scopeIsUsuallyFile, boolean usesArea,
                       boolean areaIsUsuallyFile, boolean mostlyTagged, boolean writesTags, boolean writesTickets,
                       boolean capitalizes, boolean endsWithPeriod, boolean subjectIsChangelogEntry, String kindTypes) {
        this(hasHistory, usesConventional, scopeIsUsuallyFile, usesArea, areaIsUsuallyFile, mostlyTagged, writesTags,
                writesTickets, capitalizes, endsWithPeriod, subjectIsChangelogEntry, kindTypes, "");
    }

    /** What spellings of one scope share: lower case, without {@code -} and {@code _}, without a plural {@code s}. */
    static String scopeKey(String scope) {
        String k = scope.toLowerCase(java.util.Locale.ROOT).replace("-", "").replace("_", "");
        return k.length() > 3 && k.endsWith("s") ? k.substring(0, k.length() - 1) : k;
    }

    /**
     * The spelling the history writes most for {@code scope} ({@code custom-element} for {@code custom-elements},
     * once the project settled on it); {@code scope} itself when it has no other.
     */
    String spelling(String scope) {
        if (scope.isEmpty() || scopeSpellings == null || scopeSpellings.isEmpty()) {
            return scope;
        }
        String key = scopeKey(scope) + "=";
        for (String pair : scopeSpellings.split(",")) {
            if (pair.startsWith(key)) {
                return pair.substring(key.length());
            }
        }
        return scope;
    }

    /** The type the history habitually gives a diff all of whose files are of {@code kind}; null when none. */
    String habitualType(PathKind kind) {
        if (kind == null || kindTypes == null || kindTypes.isEmpty()) {
            return null;
        }
        for (String pair : kindTypes.split(",")) {
            int eq = pair.indexOf('=');
            if (pair.substring(0, eq).equals(kind.name())) {
                return pair.substring(eq + 1);
            }
        }
        return null;
    }
}
