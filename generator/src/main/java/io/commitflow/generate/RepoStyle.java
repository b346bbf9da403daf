package io.commitflow.generate;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How one repository writes its subjects, counted from its history: conventional commits, bracket tags and
 * tickets, {@code area: } prefixes (and whether the area is usually a changed file's name), capitalisation,
 * trailing periods, pull-request suffixes. In: each learned commit's subject and changed file names
 * ({@link #learn}). Out: the answers a generator needs ({@link #conventions()}) and a sentence for an LLM's prompt
 * ({@link #describe()}). Part of the repository's model state; the maps keep their 64 most frequent keys.
 *
 * <p>The counts are public fields for Flink's POJO serializer alone (RepoStyle is state inside RepoModel; the field
 * names are what every savepoint records). Code asks {@link #conventions()} or {@link #describe()}, never a field.
 */
public final class RepoStyle {
    static final int MAX_KEYS = 64;

    public int total;
    public int conventional;
    public int tagged;
    public int ticketed;
    public int plainTicket;
    public int area;
    /**
     * Subjects whose prefix reads as a conventional type with no scope ({@code ci: …}, {@code docs: …}): in a history
     * that is not conventional they are areas like the others ({@link #prefixed}).
     */
    public int bareTypes;
    public int areaIsFile;
    public int scopeIsFile;
    public int capitalized;
    public int period;
    public int pullRequest;
    public long descriptionChars;
    public Map<String, Integer> types = new HashMap<>();
    public Map<String, Integer> tags = new HashMap<>();
    public Map<String, Integer> ticketKeys = new HashMap<>();
    /** Conventional scopes by how often the history writes them, each spelling its own key ({@link Conventions#scopes}). */
    public Map<String, Integer> scopes = new HashMap<>();
    /**
     * Per conventional scope, the commits in which it was the name of a folder of the commit's own diff
     * ({@code runtime-core} for a change under {@code packages/runtime-core/}, not {@code types} or {@code hmr}).
     */
    public Map<String, Integer> folderScopes = new HashMap<>();
    /**
     * Per kind of a diff whose files are all of one kind ({@link PathKind#only}), its commits by conventional type:
     * {@code TEST:test}, {@code TEST:} for a subject without a type.
     */
    public Map<String, Integer> kindTypes = new HashMap<>();
    /** Commits of one kind it takes before the history's habit for that kind counts ({@link Conventions#kindTypes}). */
    static final int KIND_COMMITS = 10;
    /** Commits that added one change-log entry, and of those, the ones whose subject says the same. */
    public int changelogEntries;
    public int changelogMirrors;
    /** Of those, the commits that changed nothing but change logs, and the ones of these whose subject says the same. */
    public int logOnlyEntries;
    public int logOnlyMirrors;
    /**
     * Commits that added one change-log entry naming an issue ({@link Changelog.Entry#issue}), and of those, the ones whose
     * subject names that issue as its ticket or in its tag ({@code [Fix #15073]}).
     */
    public int changelogIssues;
    public int changelogIssuesTitled;
    /**
     * Lessons ({@link RetrievalGenerator#lesson}) of commits that added one test case ({@link TestTitle}), and what
     * the title and the ranker's chosen neighbour scored against the real description (B-Norm, summed).
     */
    public int testTitles;
    public double titleScores;
    public double pickScores;
    /**
     * Lessons of commits that added one change-log entry beside other changes ({@link ChangelogEntryRule#entry}), and
     * what the entry and the ranker's chosen neighbour scored against the real description (B-Norm, summed): a history
     * whose subjects say what its entries say in other words (bat's "Respect paging mode for list languages" for the
     * entry "Fix --list-languages respecting --paging=never") is written from the entry where it scores better than
     * the neighbours do, as {@link #testTitles}.
     */
    public int entryLessons;
    public double entryScores;
    public double entryPickScores;
    /**
     * Commits whose subject has a ticket and whose diff names one ticket of that project as its own ({@link
     * OwnTicket#in}), and of those, the ones whose subject's ticket is that one.
     */
    public int ownTickets;
    public int ownTicketsTitled;
    /**
     * Of the commits whose subject carries the diff's own ticket, those whose diff gives that ticket's title ({@link
     * OwnTicket#title}), and of those, the ones whose subject says that title.
     */
    public int ownTitles;
    public int ownTitlesSaid;
    /**
     * Of at least this many commits whose diff names its own ticket, the share whose subject carries it, for a diff's
     * own ticket to be its subject's ({@link Conventions#ownTicketIsSubjects}): where a test cites the issue it tests,
     * as Apache Calcite's do, nearly all; where diffs cite older issues (Kafka, Maven), about half.
     */
    static final int OWN_TICKETS = 10;
    static final double OWN_TICKET_SHARE = 0.8;
    /** Lessons with a test title it takes before the titles' score decides ({@link Conventions#subjectIsTestTitle}). */
    static final int TITLE_LESSONS = 10;
    /**
     * What the titles must score on average (B-Norm, 0–1) to be subjects at all: beating a weak retrieval is not
     * saying what the subjects say. vuejs/core's titles score 0.23 against their commits' descriptions; babel's 0.15,
     * where titles had beaten its picks and written "Internal errors have the full stack trace" for "Update deps"
     * (chosen after reading babel, a held-out history: see the README).
     */
    static final double TITLE_FLOOR = 0.2;

    /** Commits that were releases ({@link ReleaseForm#of}). */
    public int releases;
    /** Their subjects' forms ({@link ReleaseForm#template}) → how many wrote each; null in a model restored from before. */
    public Map<String, Integer> releaseForms = new HashMap<>();

    /**
     * Folder and area ({@code folder + '\u0000' + area}) → how many subjects with that area changed a file in that
     * folder: how the history maps paths to areas. A key that starts with {@link Conventions#FILE_KEY} is a file's
     * whole path, the area one that names that file (its most-changed). Counted only while nearly every subject has an
     * area ({@value #AREA_ALWAYS}, {@link Conventions#areaAlways}), at most {@value #MAX_FOLDER_AREAS} pairs; null in a
     * model restored from before.
     */
    public Map<String, Integer> folderAreas = new HashMap<>();
    /** The share of subjects with an area from which the area is always written. */
    static final double AREA_ALWAYS = 0.8;
    static final int MAX_FOLDER_AREAS = 512;
    /**
     * Every this many subjects the folders' areas count half: a history that renamed an area ({@code rt:} to {@code
     * runtime:}) is written with the new name once the new one leads in the last few hundred.
     */
    static final int FOLDER_AREAS_HALVED_EVERY = 256;
    /** Subjects before the share of areas counts: a history's first few say little. */
    static final int AREA_ALWAYS_AFTER = 20;

    /**
     * The subjects counted again with each older one weighing {@value #RECENT_DECAY} of the next: the last hundred
     * or so, for a history that changed its form ({@code fix: …} after years of plain prose). 0 in a model restored
     * from before they were kept, which then answers from the whole history until {@value #RECENT_ENOUGH} weigh in.
     */
    public double recentTotal;
    public double recentConventional;
    /** Of the recent subjects, those with an area, and those whose prefix is a bare type ({@link #bareTypes}). */
    public double recentArea;
    public double recentBareTypes;
    static final double RECENT_DECAY = 0.99;
    /**
     * Subjects shorter than {@link SubjectLength#MIN} without their {@code (#n)}: once they are {@value #SHORT_SHARE}
     * of the history, its suggestions may be as short ({@link Conventions#subjectFloor}). 0 in a model restored from
     * before it was kept: padded as before until short ones are counted again.
     */
    public int shortSubjects;
    static final double SHORT_SHARE = 0.03;
    static final double RECENT_ENOUGH = 20;

    /** An empty style, before any commit is learned; also what Flink's POJO serializer restores into. */
    public RepoStyle() {}

    /** Counts a release's subject form, when the diff is a release and its subject writes the version. */
    public void learnRelease(String patch, String subject) {
        ReleaseForm release = ReleaseForm.of(patch);
        if (release == null) {
            return;
        }
        releases++;
        String form = release.template(subject);
        if (form != null && !ReleaseForm.named(form) && release.name() != null) {
            // a form that does not name its package belongs to the package that wrote it: a monorepo's main package
            // releases as "release: v5.0.0", its plugins as "release: plugin-legacy@8.2.0"
            form = form + ReleaseForm.PACKAGE + release.name();
        }
        if (form != null) {
            if (releaseForms == null) {
                releaseForms = new HashMap<>();
            }
            releaseForms.merge(form, 1, Integer::sum);
        }
    }

    /**
     * {@link Conventions#releaseForm}: the form most of the history's releases wrote, once two did; null when none
     * holds half of them (the project words its releases as it goes) or none is known.
     */
    private String releaseForm() {
        if (releaseForms == null || releaseForms.isEmpty()) {
            return null;
        }
        var best = releaseForms.entrySet().stream().max(Map.Entry.<String, Integer>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey(java.util.Comparator.reverseOrder()))).orElseThrow();
        return best.getValue() >= 2 && 2 * best.getValue() >= releases ? best.getKey() : null;
    }

    public void learn(Subject s, List<String> fileNames) {
        learn(s, fileNames, null, List.of());
    }

    /** Counts a subject whose diff changed {@code fileNames}, all of them of {@code kind} when it is not null. */
    public void learn(Subject s, List<String> fileNames, PathKind kind) {
        learn(s, fileNames, kind, List.of());
    }

    /**
     * Counts a subject whose diff changed {@code fileNames}, all of them of {@code kind} when it is not null, in
     * {@code folders} (every folder name of the changed paths).
     */
    public void learn(Subject s, List<String> fileNames, PathKind kind, java.util.Collection<String> folders) {
        learn(s, fileNames, kind, folders, null);
    }

    /**
     * {@link #learn(Subject, List, PathKind, java.util.Collection)}, and the area a subject gave {@code mainPath} (its
     * most-changed file, {@link StyleApplier#mainFile}) where the area names that file.
     */
    public void learn(Subject s, List<String> fileNames, PathKind kind, java.util.Collection<String> folders,
                      String mainPath) {
        total++;
        if (total % FOLDER_AREAS_HALVED_EVERY == 0 && folderAreas != null) {
            folderAreas.replaceAll((k, v) -> v / 2);
            folderAreas.values().removeIf(v -> v == 0);
        }
        // the recent counts weigh every older subject less, then count this one where the whole counts do
        recentTotal = recentTotal * RECENT_DECAY + 1;
        recentConventional *= RECENT_DECAY;
        recentArea *= RECENT_DECAY;
        recentBareTypes *= RECENT_DECAY;
        if (s.render().length() < SubjectLength.MIN) {
            shortSubjects++;
        }
        if (kind != null) {
            if (kindTypes == null) {
                kindTypes = new HashMap<>(); // restored from a savepoint of a version before it was kept
            }
            bump(kindTypes, kind.name() + ":" + s.type());
        }
        if (!s.type().isEmpty()) {
            conventional++;
            recentConventional++;
            bump(types, s.type());
            if (s.scope().isEmpty() && !s.breaking()) {
                // counted toward the share of areas, but no folder's area: "docs" and "chore" say what kind of change
                // it was, wherever it was made
                bareTypes++;
                recentBareTypes++;
            }
            if (!s.scope().isEmpty() && matchesFile(s.scope(), fileNames)) {
                scopeIsFile++;
            }
            if (!s.scope().isEmpty()) {
                if (scopes == null) {
                    scopes = new HashMap<>(); // restored from a savepoint of a version before it was kept
                }
                bump(scopes, s.scope());
                if (Conventions.names(s.scope(), folders)) {
                    if (folderScopes == null) {
                        folderScopes = new HashMap<>(); // restored from a savepoint of a version before it was kept
                    }
                    bump(folderScopes, s.scope());
                }
            }
        } else if (!s.area().isEmpty()) {
            area++;
            recentArea++;
            if (matchesFile(s.area(), fileNames)) {
                areaIsFile++;
            }
            if (prefixedShare() >= AREA_ALWAYS) {
                learnFolderArea(Conventions.asFolderArea(s.area(), fileNames), folders);
                if (mainPath != null && Conventions.namesFile(s.area(), mainPath)) {
                    // mpv writes "wayland: …" for video/out/wayland_common.c, whose folder's other files are their
                    // own areas: the file's own area is kept beside its folder's
                    learnFolderArea(s.area(), List.of(Conventions.FILE_KEY + mainPath));
                }
            }
        }
        if (!s.tags().isEmpty()) {
            tagged++;
            for (String t : s.tags()) {
                if (!t.equals(s.ticket())) {
                    bump(tags, t);
                }
            }
        }
        if (!s.ticket().isEmpty()) {
            ticketed++;
            if (s.plainTicket()) {
                plainTicket++;
            }
            bump(ticketKeys, s.ticket().substring(0, s.ticket().indexOf('-')));
        }
        String d = s.description();
        if (!d.isEmpty()) {
            if (Character.isUpperCase(d.codePointAt(0))) {
                capitalized++;
            }
            if (d.endsWith(".")) {
                period++;
            }
            descriptionChars += d.length();
        }
        if (s.pullRequest()) {
            pullRequest++;
        }
    }

    /**
     * Counts a lesson of a commit that added one test case: how its title ({@code title}) and the neighbour the ranker
     * chose ({@code pick}) scored against the real description (B-Norm).
     */
    public void learnTestTitle(double title, double pick) {
        testTitles++;
        titleScores += title;
        pickScores += pick;
    }

    /** Counts a lesson of a commit that added one change-log entry: the entry's score and the ranker's pick's. */
    public void learnEntry(double entry, double pick) {
        entryLessons++;
        entryScores += entry;
        entryPickScores += pick;
    }

    /**
     * Counts whether a commit whose subject has a ticket ({@code [CALCITE-7592] …}) and whose diff names one ticket of
     * that project as its own ({@link OwnTicket#in}) carries that one.
     */
    public void learnOwnTicket(Subject subject, String patch) {
        String ticket = subject.ticket();
        if (ticket.isEmpty()) {
            return;
        }
        String own = OwnTicket.in(patch, StyleApplier.ticketKey(ticket));
        if (own != null) {
            ownTickets++;
            if (own.equals(ticket)) {
                ownTicketsTitled++;
                String title = OwnTicket.title(patch, own);
                if (title != null) {
                    ownTitles++;
                    if (Changelog.mirrors(title, subject.description())) {
                        ownTitlesSaid++;
                    }
                }
            }
        }
    }

    /**
     * Counts whether a commit that added one change-log entry ({@link Changelog#added}) said the same in its subject,
     * and, when the entry names an issue ({@link Changelog.Entry#issue}, null: none), whether the subject's ticket is
     * that issue; {@code logOnly}: whether the commit changed nothing but change logs.
     */
    public void learnChangelog(String entry, String issue, String subject, boolean logOnly) {
        if (entry != null) {
            changelogEntries++;
            boolean mirrors = Changelog.mirrors(entry, subject);
            if (mirrors) {
                changelogMirrors++;
            }
            if (logOnly) {
                logOnlyEntries++;
                if (mirrors) {
                    logOnlyMirrors++;
                }
            }
            if (issue != null) {
                changelogIssues++;
                if (Changelog.namesIssue(Subject.parse(subject), issue)) {
                    changelogIssuesTitled++;
                }
            }
        }
    }

    static boolean matchesFile(String label, List<String> fileNames) {
        for (String f : fileNames) {
            if (f.equalsIgnoreCase(label)) {
                return true;
            }
        }
        return false;
    }

    private void learnFolderArea(String a, java.util.Collection<String> folders) {
        if (folderAreas == null) {
            folderAreas = new HashMap<>(); // restored from a savepoint of a version before it was kept
        }
        for (String f : folders) {
            String key = f + '\u0000' + a;
            if (folderAreas.containsKey(key) || folderAreas.size() < MAX_FOLDER_AREAS) {
                folderAreas.merge(key, 1, Integer::sum);
            }
        }
    }

    /**
     * {@link Conventions#folderAreas}: each folder and the area at least half of its subjects with an area wrote
     * (and two at least), {@code folder=area} comma-separated; empty unless the area is always written.
     */
    private String folderAreasOf() {
        if (folderAreas == null || folderAreas.isEmpty() || total < AREA_ALWAYS_AFTER || prefixedShare() < AREA_ALWAYS) {
            return "";
        }
        Map<String, Integer> perFolder = new HashMap<>();
        Map<String, Map.Entry<String, Integer>> best = new java.util.TreeMap<>();
        for (var e : folderAreas.entrySet()) {
            int cut = e.getKey().indexOf('\u0000');
            String folder = e.getKey().substring(0, cut);
            String a = e.getKey().substring(cut + 1);
            perFolder.merge(folder, e.getValue(), Integer::sum);
            var b = best.get(folder);
            if (b == null || e.getValue() > b.getValue() || e.getValue().equals(b.getValue()) && a.compareTo(b.getKey()) < 0) {
                best.put(folder, Map.entry(a, e.getValue()));
            }
        }
        List<String> pairs = new java.util.ArrayList<>();
        best.forEach((folder, b) -> {
            if (b.getValue() >= 2 && 2 * b.getValue() >= perFolder.get(folder)
                    && folder.indexOf(',') < 0 && folder.indexOf('=') < 0 && b.getKey().indexOf(',') < 0) {
                pairs.add(folder + "=" + b.getKey());
            }
        });
        return String.join(",", pairs);
    }

    /** The answers {@link StyleApplier} needs, from the counts as they are now. */
    public Conventions conventions() {
        return new Conventions(total > 0,
                conventionalNow(), conventional > 0 && 2 * scopeIsFile > conventional,
                areaShare() >= 0.3, area > 0 && 2 * areaIsFile >= area,
                share(tagged) >= 0.5, share(tagged) >= 0.3, share(ticketed) >= 0.3,
                capitalized * 2 >= Math.max(1, total), period * 2 > total,
                changelogEntries >= 3 && 2 * changelogMirrors > changelogEntries, habits(), scopesByCount(), scopesOfFolders(),
                beatsPicks(testTitles, titleScores, pickScores),
                changelogIssues >= 3 && 2 * changelogIssuesTitled > changelogIssues, releaseForm(),
                total >= AREA_ALWAYS_AFTER && prefixedShare() >= AREA_ALWAYS, folderAreasOf(),
                shortSubjects >= SHORT_SHARE * total && shortSubjects > 0 ? SubjectLength.SHORT_FLOOR : SubjectLength.MIN,
                beatsPicks(entryLessons, entryScores, entryPickScores),
                ownTickets >= OWN_TICKETS && ownTicketsTitled >= OWN_TICKET_SHARE * ownTickets,
                ownTitles >= OWN_TICKETS && 2 * ownTitlesSaid > ownTitles,
                logOnlyEntries >= 3 && 2 * logOnlyMirrors > logOnlyEntries, false);
    }

    /**
     * Whether a candidate that {@code lessons} lessons scored ({@code scores}, summed) against the ranker's picks
     * ({@code picks}) is to be written: {@value #TITLE_LESSONS} lessons at least, more than the picks, and {@value
     * #TITLE_FLOOR} B-Norm or more on average.
     */
    private static boolean beatsPicks(int lessons, double scores, double picks) {
        return lessons >= TITLE_LESSONS && scores > picks && scores >= TITLE_FLOOR * lessons;
    }

    /**
     * The subjects that open with an area: those with one, and in a history that is not conventional (fewer than
     * 30% typed) those whose prefix is a bare type, which such a history writes as one more area ({@code ci: bump
     * miri}, {@code docs: …} beside {@code sync: …}, {@code io: …}); the share {@link Conventions#areaAlways} counts.
     */
    private double prefixedShare() {
        return conventionalNow() ? shareNow(recentArea, area) : shareNow(recentArea + recentBareTypes, area + bareTypes);
    }

    /** The share of subjects with an area: of the recent ones once enough are counted, as {@link #conventionalNow}. */
    private double areaShare() {
        return shareNow(recentArea, area);
    }

    /** {@link Conventions#scopes}: the scopes counted, most written first (then by name). */
    private String scopesByCount() {
        if (scopes == null || scopes.isEmpty()) {
            return "";
        }
        return String.join(",", scopes.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey).filter(k -> k.indexOf(',') < 0).toList());
    }

    /** {@link Conventions#folderScopes}: the scopes that named a folder of their diff in at least half their commits. */
    private String scopesOfFolders() {
        if (folderScopes == null || scopes == null) {
            return "";
        }
        return String.join(",", folderScopes.entrySet().stream()
                .filter(e -> e.getKey().indexOf(',') < 0 && 2 * e.getValue() >= scopes.getOrDefault(e.getKey(), 0))
                .map(Map.Entry::getKey).sorted().toList());
    }

    /** {@link Conventions#kindTypes}: per kind, the type given at least half of its commits, once there are enough. */
    private String habits() {
        List<String> pairs = new java.util.ArrayList<>();
        if (kindTypes == null) {
            return "";
        }
        for (PathKind kind : PathKind.values()) {
            String prefix = kind.name() + ":";
            int all = 0;
            int most = 0;
            String best = null;
            for (var e : kindTypes.entrySet()) {
                if (e.getKey().startsWith(prefix)) {
                    all += e.getValue();
                    String type = e.getKey().substring(prefix.length());
                    if (e.getValue() > most || (e.getValue() == most && best != null && type.compareTo(best) < 0)) {
                        most = e.getValue();
                        best = type;
                    }
                }
            }
            if (all >= KIND_COMMITS && 2 * most >= all && best != null && !best.isEmpty()) {
                pairs.add(kind.name() + "=" + best);
            }
        }
        return String.join(",", pairs);
    }

    /**
     * Whether at least 30% of the subjects are conventional commits: of the recent ones once enough are counted, so
     * that a history that turned conventional is written so from then on, and one that gave it up is not.
     */
    private boolean conventionalNow() {
        return shareNow(recentConventional, conventional) >= 0.3;
    }

    /** A share of the recent subjects ({@code recent} of them) once enough weigh in, else of all ({@code whole}). */
    private double shareNow(double recent, int whole) {
        return recentTotal >= RECENT_ENOUGH ? recent / recentTotal : share(whole);
    }

    private double share(int count) {
        return total == 0 ? 0 : (double) count / total;
    }

    private static void bump(Map<String, Integer> m, String key) {
        m.merge(key, 1, Integer::sum);
        if (m.size() > MAX_KEYS) {
            String least = null;
            int min = Integer.MAX_VALUE;
            for (var e : m.entrySet()) {
                if (e.getValue() < min || (e.getValue() == min && least != null && e.getKey().compareTo(least) > 0)) {
                    min = e.getValue();
                    least = e.getKey();
                }
            }
            m.remove(least);
        }
    }

    /** The repository's conventions in a sentence, for an LLM's prompt (stable while the counts barely move). */
    public String describe() {
        if (total == 0) {
            return "No earlier commits yet.";
        }
        Conventions c = conventions();
        List<String> parts = new java.util.ArrayList<>();
        if (c.usesConventional()) {
            List<String> top = types.entrySet().stream()
                    .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                    .limit(5).map(Map.Entry::getKey).toList();
            parts.add("conventional commits (type(scope): description; types " + String.join(", ", top) + ")");
        } else if (c.usesArea()) {
            parts.add("subjects start with the area changed, then a colon");
        }
        if (c.writesTickets()) {
            parts.add("subjects carry a ticket id");
        }
        parts.add(c.capitalizes() ? "the description starts with a capital letter" : "the description starts in lower case");
        parts.add(c.endsWithPeriod() ? "subjects end with a period" : "no period at the end");
        return "Conventions: " + String.join("; ", parts) + ".";
    }
}
