package io.commitflow.generate;

import java.util.List;

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
 * @param scopes             the conventional scopes the history writes, most written first, comma-separated (at
 *                           most {@value RepoStyle#MAX_KEYS}): how it spells each ({@link #spelling}) and which a
 *                           path names ({@link #pathScope}); empty when none, null as {@code kindTypes}
 * @param folderScopes       of those, the ones that name a folder of their commit's diff at least half the time
 *                           ({@code runtime-core}, not {@code types}), comma-separated: such a scope suits only a
 *                           diff in that folder ({@link #namesAFolder}); empty when none, null as {@code kindTypes}
 * @param subjectIsTestTitle of the history's commits that added one test case, the test's title scored better against
 *                           the real description than the neighbour the ranker chose, and {@value
 *                           RepoStyle#TITLE_FLOOR} B-Norm or more on average, over at least {@value
 *                           RepoStyle#TITLE_LESSONS} of them ({@link TestTitle}, {@link RepoStyle#learnTestTitle})
 * @param entryIssueIsTicket of at least 3 commits that added one change-log entry naming an issue ({@code <action
 *                           issue="LANG-1819">}), more than half wrote that issue as their subject's ticket
 *                           ({@link Changelog.Entry#issue})
 * @param releaseForm        the form of the history's release subjects ({@link ReleaseForm#template}: {@code Release
 *                           {version}}), where at least two releases and half of them wrote it; null when none (and in
 *                           a request restored from a version before it was kept)
 * @param areaAlways         at least {@value RepoStyle#AREA_ALWAYS} of at least {@value RepoStyle#AREA_ALWAYS_AFTER}
 *                           subjects start with an area: every subject gets one
 * @param folderAreas        where the area is always written, the area the history gives each folder ({@code
 *                           folder=area}, comma-separated; {@link #areaOfFolders}); empty when none, null as
 *                           {@code releaseForm}
 * @param subjectFloor       the fewest characters a subject may have: {@link SubjectLength#MIN}, or {@link
 *                           SubjectLength#SHORT_FLOOR} where at least {@value RepoStyle#SHORT_SHARE} of the history's
 *                           own subjects are shorter than that ({@code Release 1.0.30}, {@code Fix typo}, {@code
 *                           Javadoc}): {@link SubjectLength#fit} pads a shorter one with the place it changed
 * @param entryBeatsNeighbours of the lessons of commits that added one change-log entry beside other changes
 *                           ({@link ChangelogEntryRule#entry}), at least {@value RepoStyle#TITLE_LESSONS}, the entry
 *                           scored better against the real description than the neighbour the ranker chose, and
 *                           {@value RepoStyle#TITLE_FLOOR} B-Norm or more on average ({@link RepoStyle#learnEntry})
 * @param ownTicketIsSubjects of at least {@value RepoStyle#OWN_TICKETS} commits whose diff names its own ticket
 *                           ({@link OwnTicket#in}), at least four in five carry it in their subject: a diff's own
 *                           ticket fills the ticket's open number ({@link OwnTicket#fill})
 * @param ownTitleIsSubjects of at least {@value RepoStyle#OWN_TICKETS} commits that carry their diff's own ticket
 *                           and whose diff gives its title ({@link OwnTicket#title}), more than half say that title:
 *                           the title is the subject ({@link OwnTitleRule})
 * @param logOnlyIsEntry     of at least 3 commits that changed nothing but change logs and added one entry, more than
 *                           half said the same in their subject: such a diff's entry is its subject, where the history
 *                           does not say its entries everywhere ({@code subjectIsChangelogEntry}); a maintainer who
 *                           records others' changes in the log alone (Apache Commons')
 * @param subjectFloorIsSet  {@code subjectFloor} was set for the deployment ({@code --min-subject-chars}), not
 *                           learned: no subject is shorter, where a learned floor lets one that names its main file
 *                           stand short rather than be padded ({@link SubjectLength#fit(Subject, DiffedCommit, int,
 *                           boolean)})
 */
public record Conventions(boolean hasHistory, boolean usesConventional, boolean scopeIsUsuallyFile, boolean usesArea,
                          boolean areaIsUsuallyFile, boolean mostlyTagged, boolean writesTags, boolean writesTickets,
                          boolean capitalizes, boolean endsWithPeriod, boolean subjectIsChangelogEntry,
                          String kindTypes, String scopes, String folderScopes, boolean subjectIsTestTitle,
                          boolean entryIssueIsTicket, String releaseForm, boolean areaAlways, String folderAreas,
                          int subjectFloor, boolean entryBeatsNeighbours, boolean ownTicketIsSubjects,
                          boolean ownTitleIsSubjects, boolean logOnlyIsEntry, boolean subjectFloorIsSet) {

    public Conventions {
        if (subjectFloor <= 0) {
            subjectFloor = SubjectLength.MIN; // a request restored from a version before the floor was kept
        }
    }

    /**
     * Conventions without {@code ownTicketIsSubjects}, {@code ownTitleIsSubjects} and {@code logOnlyIsEntry}, as a
     * request of a version before they were kept reads.
     */
    public Conventions(boolean hasHistory, boolean usesConventional, boolean scopeIsUsuallyFile, boolean usesArea,
                       boolean areaIsUsuallyFile, boolean mostlyTagged, boolean writesTags, boolean writesTickets,
                       boolean capitalizes, boolean endsWithPeriod, boolean subjectIsChangelogEntry, String kindTypes,
                       String scopes, String folderScopes, boolean subjectIsTestTitle, boolean entryIssueIsTicket,
                       String releaseForm, boolean areaAlways, String folderAreas, int subjectFloor,
                       boolean entryBeatsNeighbours) {
        this(hasHistory, usesConventional, scopeIsUsuallyFile, usesArea, areaIsUsuallyFile, mostlyTagged, writesTags,
                writesTickets, capitalizes, endsWithPeriod, subjectIsChangelogEntry, kindTypes, scopes, folderScopes,
                subjectIsTestTitle, entryIssueIsTicket, releaseForm, areaAlways, folderAreas, subjectFloor,
                entryBeatsNeighbours, false, false, false, false);
    }

    /** Conventions without {@code entryBeatsNeighbours}, as a request of a version before it was kept reads. */
    public Conventions(boolean hasHistory, boolean usesConventional, boolean scopeIsUsuallyFile, boolean usesArea,
                       boolean areaIsUsuallyFile, boolean mostlyTagged, boolean writesTags, boolean writesTickets,
                       boolean capitalizes, boolean endsWithPeriod, boolean subjectIsChangelogEntry, String kindTypes,
                       String scopes, String folderScopes, boolean subjectIsTestTitle, boolean entryIssueIsTicket,
                       String releaseForm, boolean areaAlways, String folderAreas, int subjectFloor) {
        this(hasHistory, usesConventional, scopeIsUsuallyFile, usesArea, areaIsUsuallyFile, mostlyTagged, writesTags,
                writesTickets, capitalizes, endsWithPeriod, subjectIsChangelogEntry, kindTypes, scopes, folderScopes,
                subjectIsTestTitle, entryIssueIsTicket, releaseForm, areaAlways, folderAreas, subjectFloor, false);
    }

    /** Conventions without {@code subjectFloor}, as a request of a version before it was kept reads. */
    public Conventions(boolean hasHistory, boolean usesConventional, boolean scopeIsUsuallyFile, boolean usesArea,
                       boolean areaIsUsuallyFile, boolean mostlyTagged, boolean writesTags, boolean writesTickets,
                       boolean capitalizes, boolean endsWithPeriod, boolean subjectIsChangelogEntry, String kindTypes,
                       String scopes, String folderScopes, boolean subjectIsTestTitle, boolean entryIssueIsTicket,
                       String releaseForm, boolean areaAlways, String folderAreas) {
        this(hasHistory, usesConventional, scopeIsUsuallyFile, usesArea, areaIsUsuallyFile, mostlyTagged, writesTags,
                writesTickets, capitalizes, endsWithPeriod, subjectIsChangelogEntry, kindTypes, scopes, folderScopes,
                subjectIsTestTitle, entryIssueIsTicket, releaseForm, areaAlways, folderAreas, SubjectLength.MIN);
    }

    /** Conventions without {@code areaAlways} and {@code folderAreas}, as a request of a version before they were kept reads. */
    public Conventions(boolean hasHistory, boolean usesConventional, boolean scopeIsUsuallyFile, boolean usesArea,
                       boolean areaIsUsuallyFile, boolean mostlyTagged, boolean writesTags, boolean writesTickets,
                       boolean capitalizes, boolean endsWithPeriod, boolean subjectIsChangelogEntry, String kindTypes,
                       String scopes, String folderScopes, boolean subjectIsTestTitle, boolean entryIssueIsTicket,
                       String releaseForm) {
        this(hasHistory, usesConventional, scopeIsUsuallyFile, usesArea, areaIsUsuallyFile, mostlyTagged, writesTags,
                writesTickets, capitalizes, endsWithPeriod, subjectIsChangelogEntry, kindTypes, scopes, folderScopes,
                subjectIsTestTitle, entryIssueIsTicket, releaseForm, false, "");
    }

    /** Conventions without {@code releaseForm}, as a request of a version before it was kept reads. */
    public Conventions(boolean hasHistory, boolean usesConventional, boolean scopeIsUsuallyFile, boolean usesArea,
                       boolean areaIsUsuallyFile, boolean mostlyTagged, boolean writesTags, boolean writesTickets,
                       boolean capitalizes, boolean endsWithPeriod, boolean subjectIsChangelogEntry, String kindTypes,
                       String scopes, String folderScopes, boolean subjectIsTestTitle, boolean entryIssueIsTicket) {
        this(hasHistory, usesConventional, scopeIsUsuallyFile, usesArea, areaIsUsuallyFile, mostlyTagged, writesTags,
                writesTickets, capitalizes, endsWithPeriod, subjectIsChangelogEntry, kindTypes, scopes, folderScopes,
                subjectIsTestTitle, entryIssueIsTicket, null, false, "");
    }

    /** Conventions without {@code entryIssueIsTicket}, as a request of a version before it was kept reads. */
    public Conventions(boolean hasHistory, boolean usesConventional, boolean scopeIsUsuallyFile, boolean usesArea,
                       boolean areaIsUsuallyFile, boolean mostlyTagged, boolean writesTags, boolean writesTickets,
                       boolean capitalizes, boolean endsWithPeriod, boolean subjectIsChangelogEntry, String kindTypes,
                       String scopes, String folderScopes, boolean subjectIsTestTitle) {
        this(hasHistory, usesConventional, scopeIsUsuallyFile, usesArea, areaIsUsuallyFile, mostlyTagged, writesTags,
                writesTickets, capitalizes, endsWithPeriod, subjectIsChangelogEntry, kindTypes, scopes, folderScopes,
                subjectIsTestTitle, false);
    }

    /** Conventions without {@code subjectIsTestTitle}, as a request of a version before it was kept reads. */
    public Conventions(boolean hasHistory, boolean usesConventional, boolean scopeIsUsuallyFile, boolean usesArea,
                       boolean areaIsUsuallyFile, boolean mostlyTagged, boolean writesTags, boolean writesTickets,
                       boolean capitalizes, boolean endsWithPeriod, boolean subjectIsChangelogEntry, String kindTypes,
                       String scopes, String folderScopes) {
        this(hasHistory, usesConventional, scopeIsUsuallyFile, usesArea, areaIsUsuallyFile, mostlyTagged, writesTags,
                writesTickets, capitalizes, endsWithPeriod, subjectIsChangelogEntry, kindTypes, scopes, folderScopes,
                false);
    }

    /** Conventions without {@code folderScopes}, as a request of a version before they were kept reads. */
    public Conventions(boolean hasHistory, boolean usesConventional, boolean scopeIsUsuallyFile, boolean usesArea,
                       boolean areaIsUsuallyFile, boolean mostlyTagged, boolean writesTags, boolean writesTickets,
                       boolean capitalizes, boolean endsWithPeriod, boolean subjectIsChangelogEntry, String kindTypes,
                       String scopes) {
        this(hasHistory, usesConventional, scopeIsUsuallyFile, usesArea, areaIsUsuallyFile, mostlyTagged, writesTags,
                writesTickets, capitalizes, endsWithPeriod, subjectIsChangelogEntry, kindTypes, scopes, "");
    }

    /** Conventions without {@code scopes}, as a request of a version before they were kept reads. */
    public Conventions(boolean hasHistory, boolean usesConventional, boolean scopeIsUsuallyFile, boolean usesArea,
                       boolean areaIsUsuallyFile, boolean mostlyTagged, boolean writesTags, boolean writesTickets,
                       boolean capitalizes, boolean endsWithPeriod, boolean subjectIsChangelogEntry, String kindTypes) {
        this(hasHistory, usesConventional, scopeIsUsuallyFile, usesArea, areaIsUsuallyFile, mostlyTagged, writesTags,
                writesTickets, capitalizes, endsWithPeriod, subjectIsChangelogEntry, kindTypes, "", "");
    }

    /** These conventions with {@code conventional} as whether subjects are conventional commits. */
    public Conventions withConventional(boolean conventional) {
        return conventional == usesConventional ? this : new Conventions(hasHistory, conventional, scopeIsUsuallyFile,
                usesArea, areaIsUsuallyFile, mostlyTagged, writesTags, writesTickets, capitalizes, endsWithPeriod,
                subjectIsChangelogEntry, kindTypes, scopes, folderScopes, subjectIsTestTitle, entryIssueIsTicket,
                releaseForm, areaAlways, folderAreas, subjectFloor, entryBeatsNeighbours, ownTicketIsSubjects,
                ownTitleIsSubjects, logOnlyIsEntry, subjectFloorIsSet);
    }

    /** These conventions with {@code floor}, set for the deployment, as the fewest characters of every subject. */
    public Conventions withSubjectFloor(int floor) {
        return new Conventions(hasHistory, usesConventional, scopeIsUsuallyFile, usesArea, areaIsUsuallyFile,
                mostlyTagged, writesTags, writesTickets, capitalizes, endsWithPeriod, subjectIsChangelogEntry, kindTypes,
                scopes, folderScopes, subjectIsTestTitle, entryIssueIsTicket, releaseForm, areaAlways, folderAreas, floor,
                entryBeatsNeighbours, ownTicketIsSubjects, ownTitleIsSubjects, logOnlyIsEntry, true);
    }

    /**
     * A folder's area that is the main changed file's name without its extension ({@code mime: …} for {@code
     * lib/mime.c}), as {@link #folderAreas} keeps it: a folder whose files each are their own area.
     */
    static final String FILE_AREA = "{file}";
    /** A folder's area that is the main changed file's whole name ({@code CURLOPT_SHARE.md: …}). */
    static final String NAME_AREA = "{name}";
    /**
     * What starts a key of {@link #folderAreas} that is a file's path, not a folder's name (a folder's name has no
     * slash): the area the history gave that file where it was the main one and the area named it.
     */
    static final String FILE_KEY = "/";

    /**
     * Whether {@code area} names the file at {@code path}: its path's last part is the file's name without its
     * extension, its whole name, or the name's first words ({@code wayland} for {@code wayland_common.c}, {@code
     * options/m_property} for {@code options/m_property.c}, {@code osc.lua}). Case counts: {@code cargo: …} for
     * {@code Cargo.toml} says what kind of change it was (a history's {@code deps: …} as well), not whose file.
     */
    static boolean namesFile(String area, String path) {
        String stem = Faithfulness.stem(path.substring(path.lastIndexOf('/') + 1));
        String last = area.substring(area.lastIndexOf('/') + 1);
        if (stem.isEmpty() || last.isEmpty()) {
            return false;
        }
        if (last.equals(stem) || last.startsWith(stem + ".")) {
            return true;
        }
        return stem.length() > last.length() && stem.startsWith(last)
                && (stem.charAt(last.length()) == '_' || stem.charAt(last.length()) == '-');
    }

    /**
     * The area a subject gave its folders, as {@link RepoStyle} learns it: {@link #FILE_AREA} or {@link #NAME_AREA}
     * where it is the name of the main changed file ({@code fileNames}' first: names without extension, most lines
     * changed first), else itself.
     */
    static String asFolderArea(String area, List<String> fileNames) {
        if (fileNames.isEmpty() || fileNames.get(0).isEmpty()) {
            return area;
        }
        String main = fileNames.get(0);
        if (area.equals(main)) {
            return FILE_AREA;
        }
        return area.startsWith(main + ".") && area.length() > main.length() + 1 ? NAME_AREA : area;
    }

    /**
     * The area the history gives the main changed file at {@code path}: the one it gave that file where the area names
     * it ({@link #namesFile}), else {@link #areaOfFolders} of its folders, the file's own name written for a folder
     * whose files are their own areas; null when none.
     */
    public String areaOfPath(String path) {
        java.util.Map<String, String> byFolder = byFolder();
        String own = byFolder.get(FILE_KEY + path);
        if (own != null) {
            return own;
        }
        String[] parts = path.split("/");
        String a = deepest(byFolder, List.of(parts).subList(0, parts.length - 1));
        if (a == null) {
            return null;
        }
        String name = parts[parts.length - 1];
        String stem = Faithfulness.stem(name); // as RepoKnowledge#fileNames names the file when the area is learned
        return switch (a) {
            case FILE_AREA -> stem.isEmpty() ? null : stem;
            case NAME_AREA -> name;
            default -> a;
        };
    }

    /**
     * The area the history gives the deepest of {@code folders} (a path's folders, outermost first) that has one;
     * null when none has.
     */
    public String areaOfFolders(List<String> folders) {
        return deepest(byFolder(), folders);
    }

    /** {@link #folderAreas} read: each key (a folder's name, or {@link #FILE_KEY} and a file's path) and its area. */
    private java.util.Map<String, String> byFolder() {
        if (folderAreas == null || folderAreas.isEmpty()) {
            return java.util.Map.of();
        }
        java.util.Map<String, String> byFolder = new java.util.HashMap<>();
        for (String pair : folderAreas.split(",")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                byFolder.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return byFolder;
    }

    private static String deepest(java.util.Map<String, String> byFolder, List<String> folders) {
        for (int i = folders.size() - 1; i >= 0; i--) {
            String a = byFolder.get(folders.get(i));
            if (a != null) {
                return a;
            }
        }
        return null;
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
        String known = known(scope);
        return known == null ? scope : known;
    }

    /** The listed scope with {@code name}'s key ({@link #scopeKey}), the most written first; null when none. */
    private String known(String name) {
        if (name.isEmpty() || scopes == null || scopes.isEmpty()) {
            return null;
        }
        String key = scopeKey(name);
        for (String scope : scopes.split(",")) {
            if (scopeKey(scope).equals(key)) {
                return scope;
            }
        }
        return null;
    }

    /**
     * The scope a path names: of {@code directories} (the folders of the diff's main file, outermost first), the one
     * the history writes most as a scope ({@code runtime-core} for {@code packages/runtime-core/src/apiWatch.ts}),
     * spelt as it writes it; null when it writes none of them. A scope that names only the outermost folder gives way
     * to the most written one of a folder inside it: {@code deps-restorer}, not {@code pnpm}, for {@code
     * pnpm/crates/deps-restorer/src/lib.rs} where the history writes both (the project's own folder says less than
     * its package's).
     */
    String pathScope(List<String> directories) {
        if (scopes == null || scopes.isEmpty() || directories.isEmpty()) {
            return null;
        }
        String outer = null;
        List<String> inner = directories.subList(1, directories.size());
        for (String scope : scopes.split(",")) {
            if (names(scope, inner)) {
                return scope;
            }
            if (outer == null && names(scope, directories.subList(0, 1))) {
                outer = scope;
            }
        }
        return outer;
    }

    /** Whether the history writes {@code scope} as the name of a folder its diffs change ({@link #folderScopes}). */
    boolean namesAFolder(String scope) {
        if (scope.isEmpty() || folderScopes == null || folderScopes.isEmpty()) {
            return false;
        }
        return names(scope, List.of(folderScopes.split(",")));
    }

    /** A file name's extension, with a test's or a declaration's {@code .spec}, {@code .test} or {@code .d} before it. */
    private static final java.util.regex.Pattern EXTENSION = java.util.regex.Pattern.compile("(\\.(spec|test|d))?\\.\\w+$");

    /**
     * Whether {@code scope} names one of {@code files} by its key ({@link #scopeKey}): the file's name, without its
     * extension and a test's {@code .spec}/{@code .test}, is the scope ({@code hydration.ts}: hydration, {@code
     * Teleport.ts}: teleport) or ends with it ({@code apiCustomElement.ts}: custom-element, {@code vModel.ts}:
     * v-model). A feature's scope, which names no folder, for a diff of that feature's file. Scopes of fewer than
     * four letters ({@code dom}, {@code sfc}) name no file.
     */
    static boolean namesAFile(String scope, java.util.Collection<io.commitflow.git.FileChange> files) {
        String key = scopeKey(scope);
        if (key.length() < 4) {
            return false;
        }
        for (io.commitflow.git.FileChange f : files) {
            String name = EXTENSION.matcher(f.path().substring(f.path().lastIndexOf('/') + 1)).replaceFirst("");
            String fileKey = scopeKey(name);
            if (fileKey.endsWith(key)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code scope} is, by its key, one of {@code directories}. */
    static boolean names(String scope, java.util.Collection<String> directories) {
        String key = scopeKey(scope);
        for (String d : directories) {
            if (scopeKey(d).equals(key)) {
                return true;
            }
        }
        return false;
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
