package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;

import java.util.ArrayList;
import java.util.List;

/**
 * What the subject rules of {@link RetrievalGenerator} see of one request: the diff and its features, the
 * repository's memory as the request sees it ({@code window}) and its form ({@code conventions}), and the
 * candidates for exemplar, most similar first. Only its own neighbours ({@link #voters}) vote on the repository's
 * form; a young repository's fleet neighbours compete as exemplars among {@link #candidates}.
 */
final class Composition {
    final RetrievalGenerator generator;
    final DiffedCommit diff;
    final DiffFeatures features;
    final RepoKnowledge memory;
    final RepoKnowledge.Window window;
    final Conventions conventions;
    /** the index in {@link RankerChoice#GRID} of the weights that rank this request's exemplars (0: the generator's) */
    final int ranker;
    /** the repository's own neighbours, of any kind */
    final List<RepoKnowledge.Neighbor> neighbours;
    final List<RepoKnowledge.Neighbor> fleetNeighbours;
    final boolean merge;
    /** the repository's own neighbours of this diff's kind (merge or not): they vote on its form */
    final List<RepoKnowledge.Neighbor> voters;
    final List<Subject> voterSubjects;
    /** the exemplars to choose from, and their subjects; a rule may replace them ({@link MovesRule}) */
    List<RepoKnowledge.Neighbor> candidates;
    List<Subject> subjects;
    final List<String> files;
    final List<String> codeFiles;
    /** the diff's own description, for when no exemplar fits */
    final Draft template;
    /** the type the history gives a diff of only tests (docs, CI…), read once for every candidate */
    final String habit;
    /** where the area is always written: the one the history gives the main changed file's folders; else null */
    final String pathArea;
    /**
     * The author writes the past tense ("Added …", "Fixed …"): of the repository's own neighbours by the same
     * author that open with a known verb, at least {@value #PAST_TENSE_SUBJECTS} and more than half do so in the
     * past tense.
     * A history's mood is its authors': in one history a third of the subjects are written so, nearly all by the
     * authors who write every subject so, beside others who write the imperative.
     */
    final boolean pastTense;
    static final int PAST_TENSE_SUBJECTS = 2;
    /**
     * The conventions a subject is styled with: the repository's, and where the neighbours mix conventional commits
     * with plain subjects, the author's own answer to whether a subject is conventional where their neighbours give
     * one ({@link #authorConventional}): in a history where a quarter of the subjects are typed, they are mostly one
     * author's, and another's are plain.
     */
    final Conventions styleConventions;

    Composition(RetrievalGenerator generator, DiffedCommit diff, DiffFeatures features, RepoKnowledge memory,
                RepoKnowledge.Window window, Conventions conventions, int ranker,
                List<RepoKnowledge.Neighbor> neighbours, List<RepoKnowledge.Neighbor> fleetNeighbours) {
        this.generator = generator;
        this.diff = diff;
        this.features = features;
        this.memory = memory;
        this.window = window;
        this.conventions = conventions;
        this.ranker = ranker;
        this.neighbours = neighbours;
        this.fleetNeighbours = fleetNeighbours;
        merge = diff.commit().parents().size() > 1;
        voters = sameKind(neighbours, diff);
        List<RepoKnowledge.Neighbor> nn = voters;
        if (!fleetNeighbours.isEmpty()) {
            nn = new ArrayList<>(voters);
            nn.addAll(sameKind(fleetNeighbours, diff));
            // stable: on equal scores the repository's own commit first
            nn.sort(java.util.Comparator.comparingDouble((RepoKnowledge.Neighbor n) -> -n.score()));
            nn = List.copyOf(nn.subList(0, Math.min(nn.size(), Math.max(neighbours.size(), fleetNeighbours.size()))));
        }
        candidates = nn;
        files = RepoKnowledge.fileNames(diff);
        template = generator.template(diff);
        subjects = RepoKnowledge.subjects(nn);
        voterSubjects = voters == nn ? subjects : RepoKnowledge.subjects(voters);
        codeFiles = StyleApplier.codeFiles(diff);
        habit = conventions.habitualType(PathKind.of(diff));
        io.commitflow.git.FileChange main = StyleApplier.mainFile(diff);
        pathArea = conventions.areaAlways() && main != null ? conventions.areaOfPath(main.path()) : null;
        pastTense = writesPastTense(voters, voterSubjects, diff.commit().author());
        Boolean own = authorConventional(voters, voterSubjects, diff.commit().author(),
                memory.model().nextSeq - AUTHOR_RECENT);
        styleConventions = own == null ? conventions : conventions.withConventional(own);
    }

    static final int AUTHOR_SUBJECTS = 3;
    static final int AUTHOR_NEWEST = 4;
    /** How recent an author's neighbour must be to show their form: among the repository's newest this many rows. */
    static final int AUTHOR_RECENT = 300;

    /**
     * Whether the author writes conventional commits, as their own newest neighbours show it (at most {@value
     * #AUTHOR_NEWEST}, of the rows from {@code since} on: an author's form changes as the project's does): at least
     * {@value #AUTHOR_SUBJECTS} of them, two thirds or more typed (true) or a third or fewer (false); null otherwise,
     * and where four fifths or more of all the neighbours are of one form.
     */
    static Boolean authorConventional(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, String author,
                                      long since) {
        if (author == null || author.isEmpty()) {
            return null;
        }
        int allTyped = 0;
        List<Integer> theirs = new ArrayList<>();
        for (int i = 0; i < nn.size(); i++) {
            allTyped += subjects.get(i).type().isEmpty() ? 0 : 1;
            if (author.equals(nn.get(i).commit().author()) && nn.get(i).commit().seq() >= since) {
                theirs.add(i);
            }
        }
        theirs.sort(java.util.Comparator.comparingLong((Integer i) -> -nn.get(i).commit().seq()));
        int own = Math.min(theirs.size(), AUTHOR_NEWEST);
        int typed = 0;
        for (int i : theirs.subList(0, own)) {
            typed += subjects.get(i).type().isEmpty() ? 0 : 1;
        }
        if (own < AUTHOR_SUBJECTS || 5 * allTyped < nn.size() || 5 * allTyped > 4 * nn.size()) {
            return null; // the neighbours are of one form, or nearly: the repository's answer stands
        }
        if (3 * typed >= 2 * own) {
            return true;
        }
        return 3 * typed <= own ? false : null;
    }

    /** {@link #pastTense}, from the neighbours {@code nn} and their parsed {@code subjects}. */
    static boolean writesPastTense(List<RepoKnowledge.Neighbor> nn, List<Subject> subjects, String author) {
        if (author == null || author.isEmpty()) {
            return false;
        }
        int past = 0;
        int present = 0;
        for (int i = 0; i < nn.size(); i++) {
            if (!author.equals(nn.get(i).commit().author())) {
                continue;
            }
            String d = subjects.get(i).description();
            if (MoodEdit.opensInPast(d)) {
                past++;
            } else if (MoodEdit.opensInPresent(d)) {
                present++;
            }
        }
        return past >= PAST_TENSE_SUBJECTS && past > present;
    }

    String patch() {
        return diff.patch();
    }

    private String lowerPatch;
    private java.util.Map<String, Integer> sayers;

    /**
     * Whether the diff says the word ({@link OwnWords#stem}: its stem), ignoring case: in a changed line or a changed
     * file's path. Unchanged context lines do not count: a large diff's context holds most of a project's words.
     */
    boolean patchHolds(String word) {
        if (lowerPatch == null) {
            lowerPatch = OwnWords.changedText(diff.patch());
        }
        return lowerPatch.contains(OwnWords.stem(word));
    }

    /** How many of the candidates' subjects say the content word ({@link OwnWords#sayers}). */
    int sayers(String word) {
        if (sayers == null) {
            sayers = OwnWords.sayers(subjects);
        }
        return sayers.getOrDefault(word, 0);
    }

    /** {@code s} in the repository's form, as its own neighbours vote it. */
    Subject styled(Subject s) {
        return OwnTicket.fill(StyleApplier.styled(s, voters, voterSubjects, styleConventions, files, codeFiles,
                template.type(), habit, pathArea), patch(), styleConventions);
    }

    /** The exemplars a draft written from {@code pick} names: it first, then the most similar other candidates. */
    List<String> exemplarsFrom(RepoKnowledge.Neighbor pick) {
        List<String> exemplars = new ArrayList<>();
        exemplars.add(pick.commit().sha());
        for (RepoKnowledge.Neighbor n : candidates) {
            if (exemplars.size() < 3 && !exemplars.contains(n.commit().sha())) {
                exemplars.add(n.commit().sha());
            }
        }
        return List.copyOf(exemplars);
    }

    /** The exemplars of a draft written from the diff's own words: the nearest candidate's, if there is one. */
    List<String> nearestExemplars() {
        return candidates.isEmpty() ? List.of() : exemplarsFrom(candidates.get(0));
    }

    /** The neighbours of {@code diff}'s kind, in order: "Merge …" subjects describe merges only, and only merges. */
    static List<RepoKnowledge.Neighbor> sameKind(List<RepoKnowledge.Neighbor> nn, DiffedCommit diff) {
        boolean merge = diff.commit().parents().size() > 1;
        List<RepoKnowledge.Neighbor> out = new ArrayList<>(nn);
        out.removeIf(n -> n.commit().merge() != merge);
        return out;
    }
}
