package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Writes an edited subject in the repository's own form. In: the subject, the neighbours it was chosen from, the
 * repository's {@link Conventions} and this diff's file names. Out: the
 * subject with the conventional type and scope, {@code area: } prefix (the changed file's name where the history
 * does that), bracket tags, capitalisation and trailing period that the neighbours vote for and the history counts.
 * <p>Where the history writes tickets, the form is kept with a placeholder number ({@code [FLINK-XXXXX]}) for the
 * author to fill in: never an invented number, and never an old one. (Reusing the previous commit's ticket when it
 * touched the same files was right for 29 of 64 such subjects on apache/flink-connector-kafka: a wrong number links
 * the change to someone else's issue.)
 */
public final class StyleApplier {
    /** Stands for the ticket number in a suggested {@code [FLINK-XXXXX]}: the author knows it, the history does not. */
    public static final String TICKET_PLACEHOLDER = "XXXXX";
    /**
     * Where an area is always written, the share of the neighbours' weight that must be bare for a bare exemplar to
     * stay bare: four fifths, the few forms such a history writes without an area (releases, version bumps), not a
     * neighbourhood where bare and prefixed subjects mix (at a half, ripgrep's "_rg: improve zsh completion function"
     * lost its area).
     */
    static final double BARE_FORM = 0.8;

    private StyleApplier() {}

    /** A description that is a release's version and nothing else: {@code v3.5.20}, {@code vue-router@4.1.0}. */
    private static final java.util.regex.Pattern RELEASE =
            java.util.regex.Pattern.compile("(?:[\\w@/.-]+@)?v?\\d+(?:\\.\\d+)+[\\w.+-]*");

    /**
     * A description that moves the project to its next version, {@code Update version to 1.16-SNAPSHOT}: a tagged
     * history may write it untagged, as its release tool does, and the tags of neighbours that are no version update
     * ("[FLINK-XXXXX][table-runtime]", voted by whatever last touched the poms of a young history) do not fit it.
     */
    private static final java.util.regex.Pattern VERSION_UPDATE = java.util.regex.Pattern.compile(
            "(?i)\\bversion\\b.*\\d+\\.\\d+|\\d+(?:\\.\\d+)+-SNAPSHOT\\b");

    /** An area of one or two words, no quotes, {@code commitflow mirror: }: not {@code ignore "PR: Breaking Change"}. */
    private static final java.util.regex.Pattern NAMED_AREA =
            java.util.regex.Pattern.compile("[^:\\s\"'`]+(?: [^:\\s\"'`]+)?:\\s");

    /** A command's long option after its name: {@code eval --history}, {@code demo --stay}. */
    private static final java.util.regex.Pattern COMMAND_OPTION = java.util.regex.Pattern.compile("\\s+--[a-z]");

    /** The subject git writes for a merge: {@code Merge branch 'x'}, {@code Merge pull request #12 from …}. */
    private static final java.util.regex.Pattern GIT_MERGE = java.util.regex.Pattern.compile(
            "Merge (?:(?:remote-tracking )?branch(?:es)?|pull request|tag|commit) ");

    /** Whether {@code s} is a subject git writes for a merge, bare: {@code Merge branch 'x' into y}. */
    static boolean isGitMerge(Subject s) {
        return s.tags().isEmpty() && s.type().isEmpty() && s.area().isEmpty()
                && GIT_MERGE.matcher(s.description()).lookingAt();
    }

    /** A ticket tag, {@code FLINK-23044}: its project's key, then its number (voted as {@code FLINK-0}). */
    private static final java.util.regex.Pattern TICKET = java.util.regex.Pattern.compile("^(?<key>[A-Z][A-Z0-9_]+-)\\d+$");

    /** A description that starts with an area of its own, spaces allowed ({@code Apache MINA sshd client: …}). */
    private static final java.util.regex.Pattern OWN_AREA = java.util.regex.Pattern.compile("[^:\\s][^:]{0,40}:\\s");

    /**
     * Applies the repository's conventions to a subject; {@code subjects} are the neighbours' subjects, parsed
     * ({@link RepoKnowledge#subjects}); {@code habit} is the type the history gives a diff of this one's kind
     * ({@link Conventions#habitualType}; null: none), which outweighs the neighbours' vote.
     */
    static Subject styled(Subject s, List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, Conventions conventions,
                          List<String> files, List<String> codeFiles, String fallbackType, String habit) {
        return styled(s, nn, subjects, conventions, files, codeFiles, fallbackType, habit, null);
    }

    /**
     * @param pathArea where the history always writes an area ({@link Conventions#areaAlways}): the area it gives
     *                 the main changed file's folders, null when it gives them none. The subject then always has an
     *                 area: this one, else the neighbours' vote, else the exemplar's.
     */
    static Subject styled(Subject s, List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, Conventions conventions,
                          List<String> files, List<String> codeFiles, String fallbackType, String habit,
                          String pathArea) {
        boolean areaAlways = conventions.areaAlways() && !conventions.usesConventional();
        boolean bare = false;
        if (isGitMerge(s)) {
            // git writes a merge's subject, and a history that titles its commits "RevWalk: …" still merges as
            // "Merge branch 'x'": the main file's area had made it "GitPatchWriter: Merge branch 'gen-split'"
            return s;
        }
        String type = "";
        String scope = "";
        String area = "";
        if (conventions.usesConventional() && !s.type().isEmpty()
                && (Faithfulness.bumpName(s.description()) != null || RELEASE.matcher(s.description()).matches())) {
            // a dependency update keeps the exemplar's own form, "chore(deps): update vitest to ^2.1.1": the fixes
            // whose diffs touch the same files say nothing of how this history files its updates; nor of its
            // releases, "release: v3.5.20" (a young history's neighbours had made it "fix(compiler-sfc): v3.5.20")
            type = s.type();
            scope = s.scope();
        } else if (conventions.usesConventional()) {
            // the neighbours are near in paths, so in scope: their vote, which counts the exemplar too, decides;
            // the exemplar's own type and scope stand when no neighbour has any weight
            type = vote(nn, subjects, Subject::type, s.type().isEmpty() ? fallbackType : s.type());
            if (habit != null) {
                // a diff of only tests (docs, CI…) takes the type the history gives such diffs: its neighbours are
                // the fixes whose tests look like these
                type = habit;
            }
            // the scope is voted by the neighbours of that type: a chore's empty scope says nothing of a fix's
            String voted = type;
            scope = voteWhere(nn, subjects, x -> x.type().equals(voted), Subject::scope, s.scope());
            if (scope.isEmpty()) {
                // an empty vote does not take the exemplar's own scope away: in a history that scopes some subjects
                // and not others (or scoped fewer of them once), its bare neighbours say only that a scope is not
                // always written, and "fix(headers): …" had become "fix: …" where the real subject had a scope
                scope = s.scope();
            }
            // the neighbours may date from before the project settled on a spelling: "custom-elements" became
            // "custom-element": write the spelling the history settled on
            scope = conventions.spelling(scope);
            if (!scope.isEmpty() && conventions.scopeIsUsuallyFile() && !files.isEmpty()) {
                scope = files.get(0);
            }
            if (type.isEmpty()) {
                type = fallbackType;
            }
        } else if (conventions.usesArea()) {
            // the history names the area after the changed source file: RevWalk.java → "RevWalk: ". Named whenever
            // the history names areas at all (30% of subjects or more), whatever share of the neighbours do: in a
            // history where less than half the subjects name one, waiting for half the neighbours to name it
            // left it out of most suggestions that needed it
            boolean byFile = conventions.areaIsUsuallyFile() && !codeFiles.isEmpty();
            if (byFile) {
                area = mainCodeFile(codeFiles);
            } else if (!areaAlways) {
                area = vote(nn, subjects, Subject::area, s.area());
            } else if (s.area().isEmpty() && s.type().isEmpty() && s.tags().isEmpty()
                    && bareShare(nn, subjects) >= BARE_FORM) {
                // nearly every subject has an area, but not this form: a bare exemplar whose neighbours nearly all
                // wrote bare subjects too is one of the few the history writes without one, its releases and version
                // bumps ("Now working on version 1.49.1" had become "version: now working on version 1.49.1"); it
                // keeps its own case, which the history's areas do not set
                bare = true;
            } else if (pathArea != null) {
                // nearly every subject has an area: the one the history gives these paths, else a changed file's
                // name that a neighbour wrote as its area, else the vote, else the exemplar's own; one of them is
                // there. A bare type is one more area here ("ci: bump miri")
                area = pathArea;
            } else if ((area = namedByNeighbours(files, subjects)) != null) {
                // "mime: …" for lib/mime.c, in a history whose folder (lib) has no area of its own
            } else {
                area = vote(nn, subjects, StyleApplier::areaOrBareType, areaOrBareType(s));
                area = !area.isEmpty() ? area : areaOrBareType(s);
            }
        }
        boolean ownCase = false;
        String own = areaOrBareType(s);
        if (!conventions.usesConventional() && !conventions.usesArea() && s.tags().isEmpty() && !own.isEmpty()
                && areaShare(nn, subjects, own) >= LOCAL_AREA) {
            // a history that seldom writes areas still writes them for some files: the exemplar's own, in its own
            // case, where the neighbours write it as often as a history must for its areas to be written at all
            // ("url: ensure minimum components for formatting" had lost its "url: " beside commits that wrote it)
            area = own;
            ownCase = true;
        }
        String ticket = "";
        boolean plain = false;
        Subject form = s;
        if (conventions.mostlyTagged() && s.tags().isEmpty() && !s.plainTicket() && !nn.isEmpty()) {
            // the exemplar lacks the tags nearly every subject here has: take the form the neighbours vote for,
            // each ticket's number aside ("[FLINK-23044][docs]" and "[FLINK-22740][docs]" are one form, which had
            // lost to a single "[hotfix][docs]")
            Function<Subject, String> tagsOf = x -> String.join("][", x.tags().stream()
                    .map(t -> TICKET.matcher(t).replaceFirst("${key}0")).toList());
            String voted;
            if (VERSION_UPDATE.matcher(s.description()).find()) {
                // a version update takes the form of the neighbours that are version updates too, and none when no
                // neighbour is one: flink-connector-kafka wrote "Update version to 1.16-SNAPSHOT" bare until its
                // externalised repository tagged them "[FLINK-37144][Connectors/Kafka]"
                voted = voteAmong(nn, subjects, x -> VERSION_UPDATE.matcher(x.description()).find(), tagsOf, "");
                voted = voted == null ? "" : voted;
            } else {
                voted = vote(nn, subjects, tagsOf, "");
            }
            form = voted.isEmpty() ? s : Subject.parse("[" + voted + "] x");
        }
        if (conventions.writesTickets() && form.ticket().isEmpty() && (s.area().isEmpty() || !conventions.usesArea())
                && s.tags().isEmpty() && type.isEmpty() && area.isEmpty() && !nn.isEmpty()) {
            // an exemplar without the plain ticket or the word prefix ("MINOR: ") that its neighbours write: the
            // form they vote for, the ticket's number left for the author ("Move LogLoader to storage module" had
            // lost "KAFKA-14482 " where nearly every subject of the history has one or the other). An exemplar's own
            // word prefix is no area in a history that seldom writes areas, so it was dropped above: it is one vote
            // among the neighbours' ("MINOR: fix rawtype warning in StandbyTask" had become a bare "Fix rawtype
            // warning in MockProcessorContext" where nearly every subject has a ticket or MINOR)
            String voted = vote(nn, subjects, x -> x.plainTicket() && !x.ticket().isEmpty()
                    ? "ticket " + ticketKey(x.ticket())
                    : x.area().isEmpty() || !x.tags().isEmpty() ? "" : "area " + x.area(), "");
            if (voted.startsWith("ticket ")) {
                form = Subject.parse(voted.substring("ticket ".length()) + "0: x");
            } else if (voted.startsWith("area ") && !areaAlways) {
                area = voted.substring("area ".length());
            }
        }
        if (conventions.writesTickets()) {
            if (!form.ticket().isEmpty()) {
                // the repository's ticket form, the number left for the author: never an invented one
                ticket = ticketKey(form.ticket()) + TICKET_PLACEHOLDER;
                plain = form.plainTicket();
            }
        }
        List<String> tags = new ArrayList<>();
        if (conventions.writesTags()) {
            if (!ticket.isEmpty() && !plain) {
                tags.add(ticket);
            }
            for (String t : form.tags()) {
                if (!t.equals(form.ticket())) {
                    tags.add(t); // the exemplar's own tags ([hotfix], [docs], [autoscaler]) fit its description
                }
            }
        } else if (!s.tags().isEmpty() && s.ticket().isEmpty()
                && s.tags().stream().noneMatch(t -> t.chars().anyMatch(Character::isDigit))) {
            // a history that seldom tags still tags one kind of change ("[releng] Bump japicmp base version",
            // "[errorprone] Fix pattern BadImport"): an exemplar's own word tags fit its description, and such a
            // subject names no area
            tags.addAll(s.tags());
            if (!areaAlways) {
                area = "";
            }
        }
        String d = s.description();
        if (!area.isEmpty()) {
            if (OWN_AREA.matcher(d).lookingAt()) {
                area = ""; // "Apache MINA sshd client: fix password authentication" names its area already
            } else if (SubjectLength.mentions(d, area)) {
                // "Fix NPE in DirCacheCheckout" under "DirCacheCheckout: " says it once, as people write it
                java.util.regex.Matcher at = java.util.regex.Pattern.compile(
                        "\\s+(?:in|for|of|on)\\s+" + java.util.regex.Pattern.quote(area) + "\\W*$",
                        java.util.regex.Pattern.CASE_INSENSITIVE).matcher(d);
                if (at.find() && at.start() > 0) {
                    d = d.substring(0, at.start());
                } else if (!areaAlways) {
                    area = ""; // "Make RevWalk reusable": the area inside the description reads better alone
                }
            }
        }
        if (!d.isEmpty() && conventions.hasHistory()) {
            if (!NAMED_AREA.matcher(d).lookingAt() && !bare && !ownCase) {
                // an area of its own is a name, written as the history wrote it: "commitflow mirror: clone on first
                // sight" had become "Commitflow mirror: …"
                d = recase(d, conventions.capitalizes());
            }
            boolean period = conventions.endsWithPeriod();
            if (period && !d.endsWith(".")) {
                d = d + ".";
            } else if (!period && d.endsWith(".")) {
                d = d.substring(0, d.length() - 1);
            }
        }
        return new Subject(List.copyOf(tags), ticket, plain && !ticket.isEmpty(), type, scope, false, area, d, false);
    }

    /** A ticket's project key with its dash, the number left out: {@code KAFKA-} of {@code KAFKA-14482}. */
    static String ticketKey(String ticket) {
        return ticket.substring(0, ticket.indexOf('-') + 1);
    }

    /**
     * The first of {@code files} (changed files' names, most lines changed first) that one of the neighbours'
     * {@code subjects} wrote as its area; null when none did.
     */
    static String namedByNeighbours(List<String> files, List<Subject> subjects) {
        for (String f : files) {
            for (Subject x : subjects) {
                if (x.area().equals(f)) {
                    return f;
                }
            }
        }
        return null;
    }

    /** A subject's area, or its type where it has no scope: how a history that is not conventional reads {@code ci: …}. */
    static String areaOrBareType(Subject x) {
        return !x.area().isEmpty() ? x.area() : x.scope().isEmpty() && !x.breaking() ? x.type() : "";
    }

    /**
     * {@code d} with its first letter in the repository's case, when its first word is a plain word ({@code fix},
     * {@code Javadoc}, {@code don't}); a name or a version keeps its own ({@code v7.21.7}, {@code org.apache…}, {@code README},
     * {@code ArrayUtils}, {@code getFoo()}).
     */
    static String recase(String d, boolean capital) {
        int end = 0;
        while (end < d.length() && (Character.isLetter(d.charAt(end)) || (end > 0 && d.charAt(end) == '\''))) {
            end++;
        }
        boolean wordEnds = end == d.length() || Character.isWhitespace(d.charAt(end)) || ",:;".indexOf(d.charAt(end)) >= 0;
        String rest = d.substring(Math.min(1, end), end);
        if (end == 0 || !wordEnds || !rest.equals(rest.toLowerCase(java.util.Locale.ROOT))
                || COMMAND_OPTION.matcher(d).region(end, d.length()).lookingAt()) {
            return d; // a command written with its options is a name: "eval --history takes several sizes"
        }
        return (capital ? Character.toUpperCase(d.charAt(0)) : Character.toLowerCase(d.charAt(0))) + d.substring(1);
    }

    /**
     * The most-changed file that is not a test, when there is one: the class under test names the change; or the
     * family it belongs to, when the diff changes that too ({@link #family}: eclipse-jgit/jgit's areas name the
     * interface, "MultiPackIndex: …", for most such diffs).
     */
    static String mainCodeFile(List<String> files) {
        for (String f : files) {
            if (!PathKind.testClass(f)) {
                return family(f, files);
            }
        }
        return files.get(0);
    }

    /**
     * The type whose family {@code main} belongs to, when this diff changes it too: the shortest changed name that
     * {@code main} extends at a word boundary and that is at least half as long ({@code MultiPackIndex} for {@code
     * MultiPackIndexV1}, {@code PackObjectSizeIndex} for {@code PackObjectSizeIndexWriter}): a change to an interface
     * and its implementation is named after the interface. {@code Pack} names no family of {@code PackReverseIndex},
     * nor {@code MergeTool} one of {@code MergeTools}.
     */
    static String family(String main, List<String> files) {
        String best = main;
        for (String f : files) {
            if (f.length() < best.length() && 2 * f.length() >= main.length() && main.startsWith(f)
                    && (Character.isUpperCase(main.charAt(f.length())) || Character.isDigit(main.charAt(f.length())))) {
                best = f;
            }
        }
        return best;
    }

    /**
     * The names ({@link RepoKnowledge#fileNames}) of the diff's source and test files, most lines changed first, when
     * its most-changed file is one ({@link #mainIsSource}); else none. An area is named after one of them: a Bazel
     * {@code BUILD} file beside a test is no area ("BUILD: Fix NPE in BlockListTest").
     */
    static List<String> codeFiles(DiffedCommit d) {
        if (!mainIsSource(d)) {
            return List.of();
        }
        return RepoKnowledge.fileNames(d, StyleApplier::isCode);
    }

    /** Is the diff's most-changed file source code (not a build file, a manifest or docs)? */
    static boolean mainIsSource(DiffedCommit d) {
        FileChange main = mainFile(d);
        return main != null && isCode(main);
    }

    /** The diff's most-changed file (added and deleted lines), the first by path of equals; null when none. */
    static FileChange mainFile(DiffedCommit d) {
        return mainFile(d.files());
    }

    /** The most-changed of {@code files} (added and deleted lines), the first by path of equals; null when none. */
    static FileChange mainFile(List<FileChange> files) {
        return files.stream()
                .max(Comparator.comparingInt((FileChange f) -> f.added() + f.deleted())
                        .thenComparing(FileChange::path, Comparator.reverseOrder()))
                .orElse(null);
    }

    /** A source or test file. */
    private static boolean isCode(FileChange f) {
        PathKind k = PathKind.of(f.path());
        return k == PathKind.SOURCE || k == PathKind.TEST;
    }

    /**
     * The value the neighbours whose subject has {@code property} vote for ({@link #vote}); all of them vote when
     * none has it.
     */
    private static String voteWhere(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, Predicate<Subject> property,
                                    Function<Subject, String> field, String fallback) {
        String voted = voteAmong(nn, subjects, property, field, fallback);
        return voted == null ? vote(nn, subjects, field, fallback) : voted;
    }

    /**
     * The value the neighbours whose subject has {@code property} vote for ({@code fallback} when none of them has any
     * weight); null when none has it.
     */
    private static String voteAmong(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, Predicate<Subject> property,
                                    Function<Subject, String> field, String fallback) {
        List<RepoKnowledge.Neighbor> some = new ArrayList<>();
        List<Subject> theirs = new ArrayList<>();
        for (int i = 0; i < nn.size(); i++) {
            if (property.test(subjects.get(i))) {
                some.add(nn.get(i));
                theirs.add(subjects.get(i));
            }
        }
        return some.isEmpty() ? null : vote(some, theirs, field, fallback);
    }

    /**
     * In a history that seldom writes areas, the share of the neighbours' weight ({@link #areaShare}) that must write
     * the exemplar's own area for it to stay: the share from which a whole history writes them ({@link
     * Conventions#usesArea}). At 0.15 kafka lost 0.23 B-Norm ({@code MINOR: } then outvoted its tickets); at 0.5
     * cobra and jq gained less.
     */
    static final double LOCAL_AREA = 0.3;

    /**
     * The share of the neighbours' weight (similarity squared, as {@link #vote} weighs them) whose subjects have neither
     * an area nor a type; 0 without neighbours.
     */
    static double bareShare(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects) {
        return weightShare(nn, subjects, x -> x.area().isEmpty() && x.type().isEmpty());
    }

    /**
     * The share of the neighbours' weight whose subject has {@code area} as its area or bare type ({@link
     * #areaOrBareType}).
     */
    static double areaShare(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, String area) {
        return weightShare(nn, subjects, x -> areaOrBareType(x).equals(area));
    }

    /** The share of the neighbours' weight, each its similarity squared, whose subject is {@code which}; 0 without any. */
    private static double weightShare(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects,
                                      Predicate<Subject> which) {
        double matching = 0;
        double all = 0;
        for (int i = 0; i < nn.size(); i++) {
            double similarity = Math.max(0, nn.get(i).score());
            all += similarity * similarity;
            if (which.test(subjects.get(i))) {
                matching += similarity * similarity;
            }
        }
        return all == 0 ? 0 : matching / all;
    }

    /**
     * The value the neighbours vote for, each weighted by its similarity squared: a near neighbour's form outweighs
     * several far ones, which matters most in a young repository, whose neighbours are all of its few commits
     * (weighted linearly, the vote went to the most frequent scope, near or far); {@code fallback} when none votes.
     */
    private static String vote(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, Function<Subject, String> field,
                               String fallback) {
        Map<String, Double> votes = new HashMap<>();
        for (int i = 0; i < nn.size(); i++) {
            String v = field.apply(subjects.get(i));
            double similarity = Math.max(0, nn.get(i).score());
            votes.merge(v, similarity * similarity, Double::sum);
        }
        String best = null;
        double bestVotes = 0;
        for (var e : votes.entrySet()) {
            if (e.getValue() > bestVotes + 1e-12 || (Math.abs(e.getValue() - bestVotes) <= 1e-12 && best != null
                    && e.getKey().compareTo(best) < 0)) {
                best = e.getKey();
                bestVotes = e.getValue();
            }
        }
        return best == null ? fallback : best;
    }

    /**
     * {@code s} without its area where the area names what {@code patch} does not contain and the rest is supported:
     * the area is voted by the neighbours, not written by the exemplar, so it costs the exemplar nothing to lose it (a
     * voted area in a short history turned every exemplar down, and "Prepare 7.7.0-SNAPSHOT builds" became "Update 89
     * files in MANIFEST.MF"). An area that is a path loses only the part the patch lacks ({@code ci/win32} → {@code
     * ci}).
     */
    static Subject withoutUnsupportedArea(Subject s, String patch) {
        if (s.area().isEmpty() || Faithfulness.faithful(s.render(), patch)) {
            return s;
        }
        Subject bare = s.withArea("");
        if (!Faithfulness.faithful(bare.render(), patch)) {
            return s;
        }
        // an area that is a path keeps as much of it as the diff supports, its folder at least: "ci/win32: …" for a
        // workflow change on macOS is "ci: …", not bare where nearly every subject names its area (mpv, ripgrep's
        // "ignore/walk:")
        for (int cut = s.area().lastIndexOf('/'); cut > 0; cut = s.area().lastIndexOf('/', cut - 1)) {
            Subject shorter = s.withArea(s.area().substring(0, cut));
            if (Faithfulness.faithful(shorter.render(), patch)) {
                return shorter;
            }
        }
        return bare;
    }
}
