package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;

import java.util.ArrayList;
import java.util.List;

/**
 * The built-in generator: retrieves the repository's nearest earlier commits and adapts one of their subjects.
 * In: a diff, its features and the repository's knowledge (rows and style). Out: a {@link Draft} naming the
 * exemplars it was written from.
 * <ol>
 * <li>Choose ({@link ExemplarRanker}): among the {@value ExemplarRanker#K} nearest neighbours, the description that
 * agrees most with the others and fits this diff best, by the weights this repository's history has rewarded
 * ({@link RankerChoice}, learned as each commit is: {@link #observe}).</li>
 * <li>Edit ({@link SubjectEditor}): the exemplar's file names and version become this diff's, its first word
 * imperative, its pull-request suffix gone. Of the ranked exemplars the first whose edited subject is
 * {@linkplain Faithfulness faithful} to this diff (names no identifier, file or version the diff lacks, no file
 * the exemplar changed and this diff does not, and no issue number of the exemplar's) is taken; when none is, the
 * diff's own {@link TemplateGenerator} description, styled. An exemplar that is itself a revert is never taken.</li>
 * <li>Style ({@link StyleApplier}): the repository's own form — type and scope, {@code area: }, tags and tickets,
 * capitalisation, trailing period — voted by the neighbours and counted from the history.</li>
 * </ol>
 * A diff that adds one change-log entry, in a repository whose subjects say what their entries say
 * ({@link Conventions#subjectIsChangelogEntry}), gets that entry as its subject (styled, fitted to 20–72
 * characters). A diff that exactly undoes an earlier commit gets git's revert message; with no neighbours the
 * {@link TemplateGenerator}'s subject is styled instead. Deterministic: the same diff and the same memory give the
 * same draft.
 */
public final class RetrievalGenerator implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public static final String BACKEND = "retrieval";
    private final ExemplarRanker.Weights weights;
    private final double reuseFloor;
    private final TemplateGenerator fallback = new TemplateGenerator();

    /**
     * How alike (the retrieval score, 0–1) a neighbour's diff must be for its subject to be suggested for this one
     * ({@link #reuseFloor}), by default. Read by hand, blind, on six histories (50 test commits each), 30 to 43 of 50
     * subjects described another change without it; with it, 7 to 15 did, and B-Norm against the real subjects fell
     * by 8% over fifty-four histories (docs/quality.md, "A neighbour's subject only where its diff is alike").
     */
    public static final double DEFAULT_REUSE_FLOOR = 0.5;

    /** {@code floor}, checked to be a retrieval score (0–1) that {@link #reuseFloor} may be. */
    public static double checkedReuseFloor(double floor) {
        if (!(floor >= 0 && floor <= 1)) {
            throw new IllegalArgumentException("the reuse floor is a retrieval score, 0 to 1: " + floor);
        }
        return floor;
    }

    public RetrievalGenerator() {
        this(ExemplarRanker.DEFAULT_WEIGHTS, DEFAULT_REUSE_FLOOR);
    }

    public RetrievalGenerator(ExemplarRanker.Weights weights) {
        this(weights, DEFAULT_REUSE_FLOOR);
    }

    /**
     * A generator with the ranking weights {@code weights} and the reuse floor {@code reuseFloor} (0–1: 0 suggests
     * any neighbour's subject that passes the checks, as scored by B-Norm alone).
     */
    public RetrievalGenerator(ExemplarRanker.Weights weights, double reuseFloor) {
        this.weights = weights;
        this.reuseFloor = checkedReuseFloor(reuseFloor);
    }

    public ExemplarRanker.Weights weights() {
        return weights;
    }

    /**
     * How alike a neighbour's diff must be (its retrieval score) for {@link ExemplarRule} to suggest its subject for
     * this diff; below it, the rules after (this diff's own description) write.
     */
    public double reuseFloor() {
        return reuseFloor;
    }

    /**
     * A repository with fewer learned commits than this also draws exemplars from its fleet (its tenant's other
     * repositories) when it has one: {@link #generate(DiffedCommit, DiffFeatures, RepoKnowledge, float[], RepoKnowledge)}.
     */
    public static final int YOUNG = 50;

    /**
     * A draft for a repository that may be young: with fewer than {@link #YOUNG} commits of its own, the nearest
     * commits of {@code fleet} (every row visible: what it learned is all earlier) that changed a file of the same
     * name as this diff (a build file, a CI workflow, a document) compete with its own as exemplars, and the subject
     * still takes this repository's own form (its conventions, and only its own neighbours vote on type, scope and
     * tags). With a null or empty fleet, or an older repository, the same as
     * {@link #generate(DiffedCommit, DiffFeatures, RepoKnowledge, float[])}.
     */
    public Draft generate(DiffedCommit diff, DiffFeatures features, RepoKnowledge memory, float[] query,
                          RepoKnowledge fleet) {
        return compose(composition(diff, features, memory, query, fleet));
    }

    /**
     * Every draft the exemplar rule could write for this request, one per exemplar that passes its checks, in the
     * ranker's order (the first is {@link #generate}'s own when an exemplar wrote it); empty when a rule before it
     * writes the subject (a revert, a change-log entry, a test's title, a typo): the alternatives a caller may offer
     * beside the draft, or judge against a subject it knows.
     */
    public List<Draft> exemplarDrafts(DiffedCommit diff, DiffFeatures features, RepoKnowledge memory, float[] query,
                                      RepoKnowledge fleet) {
        Composition c = composition(diff, features, memory, query, fleet);
        for (SubjectRule rule : RULES) {
            if (rule instanceof ExemplarRule) {
                return ExemplarRule.all(c).stream().map(w -> draft(c, w)).toList();
            }
            if (rule.write(c) != null) {
                return List.of();
            }
        }
        return List.of();
    }

    Composition composition(DiffedCommit diff, DiffFeatures features, RepoKnowledge memory, float[] query,
                                    RepoKnowledge fleet) {
        RepoKnowledge.Window window = memory.window();
        Conventions conventions = memory.model().style.conventions();
        int ranker = ranker(memory.model());
        List<RepoKnowledge.Neighbor> own = nearest(diff, features, memory, query, window);
        if (memory.reverted(features.lines(), diff.commit().ts(), window) != null) {
            // a revert needs no fleet; its own neighbours say whether this repository titles undos as reverts
            return new Composition(this, diff, features, memory, window, conventions, ranker, own, List.of());
        }
        if (fleet == null || fleet.size() == 0 || memory.size() >= YOUNG) {
            return new Composition(this, diff, features, memory, window, conventions, ranker, own, List.of());
        }
        List<RepoKnowledge.Neighbor> theirs = fleet.neighbors(fleet.vector(features.terms()),
                fleet.bag(features.signature()), weights.k(), weights.kBag(), Long.MAX_VALUE, fleet.window());
        return new Composition(this, diff, features, memory, window, conventions, ranker, own, carryOver(diff, theirs));
    }

    /**
     * How alike (TF-IDF cosine, under the fleet's IDF) a fleet commit's diff must be to this one to carry over
     * although it changed no file of the same name: sibling repositories split from one project share much of their
     * history (Flink's connectors each hold the same format and table commits under other paths), and a tenant's
     * repositories make the same change in different files. Chosen with {@code eval --history 20 --fleet} against
     * file names alone, every fleet neighbour (0) and 0.3: it scored best on each tuned history (docs/quality.md).
     */
    public static final float FLEET_SIMILAR = 0.2f;

    /**
     * Of a young repository's neighbours in its fleet, those that may be its exemplars: work on files of the same
     * name (pom, package.json, a CI workflow, CONTRIBUTING), and work whose diff is alike ({@link #FLEET_SIMILAR});
     * another project's code subjects ("Reader for the multipack index") on a diff only loosely like this one do not.
     */
    public static List<RepoKnowledge.Neighbor> carryOver(DiffedCommit diff, List<RepoKnowledge.Neighbor> theirs) {
        List<String> files = RepoKnowledge.fileNames(diff);
        List<RepoKnowledge.Neighbor> out = new ArrayList<>(theirs);
        out.removeIf(n -> n.score() < FLEET_SIMILAR && n.commit().files().stream().noneMatch(files::contains));
        return out;
    }

    /** A draft from the memory as it is now: every learned row is visible. */
    public Draft generate(DiffedCommit diff, DiffFeatures features, RepoKnowledge memory, float[] query) {
        return generate(diff, features, memory, query, null);
    }

    /**
     * The index in {@link RankerChoice#GRID} of the weights that rank a request made now: what the repository's
     * history has rewarded so far. A request carries it, as it carries the conventions, so its answer does not
     * depend on what was learned while it waited.
     */
    public static int ranker(RepoModel model) {
        return model.ranker == null ? 0 : model.ranker.leader();
    }

    /**
     * Before {@code memory} learns a commit whose real message is {@code message}: ranks the commit's neighbours (as
     * a request made now would find them) under every weighting of {@link RankerChoice#GRID} and credits each with
     * how well its pick's description matches the real one. Costs one lookup and the ranker's terms; nothing when
     * the memory is empty. {@link #lesson} then {@link #learn}, in one call.
     */
    public void observe(DiffedCommit diff, DiffFeatures features, RepoKnowledge memory, float[] query, String message) {
        learn(memory.model(), lesson(diff, features, memory, query, message));
    }

    /**
     * The ranker learns from every commit of a repository with fewer than {@code 2 × }{@value #LESSON_ROWS} rows, and
     * from every {@code rows / }{@value #LESSON_ROWS}-th beyond: its lookup scans the repository's rows once per
     * query, unbatched, so a lesson at 5,000 rows costs as much as twenty at 250. Chosen by the row number, so the same
     * history gives the same lessons.
     */
    static final int LESSON_ROWS = 250;

    static long lessonStride(int rows) {
        return Math.max(1, rows / LESSON_ROWS);
    }

    /**
     * What the ranker learns from one commit: its neighbours' terms and how each one's description scored; for a
     * commit that adds one test case, how its title scored and how the neighbour the current ranker picks scored
     * (NaN and 0 otherwise), which {@link RepoStyle#learnTestTitle} weighs.
     */
    public record Lesson(double[][] terms, double[] score, double title, double pick, double entry) {
        public Lesson(double[][] terms, double[] score) {
            this(terms, score, Double.NaN, 0, Double.NaN);
        }
    }

    /**
     * The lesson of a commit whose real message is {@code message}, read from {@code memory} without changing it (a
     * lookup and the ranker's terms: a reader's work, which a caller may do under a read lock); null when there is
     * nothing to learn (an empty memory, no neighbour, or a commit between lessons: {@link #lessonStride}).
     */
    public Lesson lesson(DiffedCommit diff, DiffFeatures features, RepoKnowledge memory, float[] query, String message) {
        if (memory.size() == 0 || memory.model().nextSeq % lessonStride(memory.size()) != 0) {
            return null;
        }
        RepoKnowledge.Window window = memory.window();
        List<RepoKnowledge.Neighbor> nn = Composition.sameKind(nearest(diff, features, memory, query, window), diff);
        if (nn.isEmpty()) {
            return null;
        }
        List<Subject> subjects = RepoKnowledge.subjects(nn);
        // the description only: type, scope and tags are voted by the neighbours, not taken from the exemplar
        String real = Subject.parse(Subject.headline(message)).description();
        double[] score = new double[nn.size()];
        double[][] f = ExemplarRanker.features(nn, subjects, features.signature(), features.versionShape(),
                diff.commit().author(), window.to(), real, score);
        String title = TestTitle.of(diff.patch());
        String entry = ChangelogEntryRule.entry(diff);
        if (title == null && entry == null) {
            return new Lesson(f, score);
        }
        double picked = score[ExemplarRanker.best(f, RankerChoice.GRID.get(ranker(memory.model())).terms())];
        return new Lesson(f, score, title == null ? Double.NaN : sentence(title, real), picked,
                entry == null ? Double.NaN
                        : sentence(ChangelogEntryRule.asWritten(entry, nn,
                                Composition.writesPastTense(nn, subjects, diff.commit().author())), real));
    }

    private static double sentence(String candidate, String real) {
        return new PairwiseBleu(List.of(MessageTokens.of(candidate), MessageTokens.of(real))).sentence(0, 1);
    }

    /** Credits {@code model}'s ranking weights with a {@link #lesson} (null: nothing). */
    public static void learn(RepoModel model, Lesson lesson) {
        if (lesson == null) {
            return;
        }
        if (model.ranker == null) {
            model.ranker = new RankerChoice();
        }
        if (!Double.isNaN(lesson.title())) {
            model.style.learnTestTitle(lesson.title(), lesson.pick());
        }
        if (!Double.isNaN(lesson.entry())) {
            model.style.learnEntry(lesson.entry(), lesson.pick());
        }
        model.ranker.observe(lesson.terms(), lesson.score());
    }

    /**
     * The subject rules, in the order they are tried: the first that writes a subject wins. {@link MovesRule} writes
     * none: it makes the history's own moves the exemplars of a diff that only moves lines.
     */
    static final List<SubjectRule> RULES = List.of(new RevertRule(), new ReleaseRule(), new HeadingRule(),
            new MovesRule(), new ChangelogEntryRule(), new OwnTitleRule(), new TestTitleRule(), new TypoRule(),
            new RecurringFormRule(), new ExemplarRule(), new TemplateRule());

    /**
     * A draft from neighbours found already (by {@link RepoKnowledge#neighbors}, alone or in a batch), seeing only
     * the rows in {@code window}, and written with the repository's {@code conventions} and {@code ranker}
     * ({@link #ranker}) as they were when the request was made: the same request gives the same draft however late
     * it is answered. {@code fleetNeighbours} (from the tenant's other repositories, for a young repository) compete
     * as exemplars: the candidates are both lists, most similar first, as many as the larger list; only the
     * repository's own neighbours vote on its form.
     */
    public Draft compose(DiffedCommit diff, DiffFeatures features, RepoKnowledge memory, RepoKnowledge.Window window,
                         Conventions conventions, int ranker, List<RepoKnowledge.Neighbor> neighbours,
                         List<RepoKnowledge.Neighbor> fleetNeighbours) {
        return composed(diff, features, memory, window, conventions, ranker, neighbours, fleetNeighbours).draft();
    }

    /**
     * As {@link #compose(DiffedCommit, DiffFeatures, RepoKnowledge, RepoKnowledge.Window, Conventions, int, List,
     * List)}, keeping what the draft was composed from, so that the other subjects it could take are found without
     * composing it again ({@link Composed#others}).
     */
    public Composed composed(DiffedCommit diff, DiffFeatures features, RepoKnowledge memory,
                             RepoKnowledge.Window window, Conventions conventions, int ranker,
                             List<RepoKnowledge.Neighbor> neighbours, List<RepoKnowledge.Neighbor> fleetNeighbours) {
        Composition c = new Composition(this, diff, features, memory, window, conventions, ranker, neighbours,
                fleetNeighbours);
        return new Composed(c, compose(c));
    }

    /** A draft and the composition it came from. */
    public static final class Composed {
        private final Composition composition;
        private final Draft draft;

        private Composed(Composition composition, Draft draft) {
            this.composition = composition;
            this.draft = draft;
        }

        public Draft draft() {
            return draft;
        }

        /**
         * For a developer to choose from besides the draft's own: the subjects the other exemplars would give it
         * (edited for it, in the ranker's order), then its own description, at most {@code max}, none twice and none
         * equal to the draft's subject.
         */
        public List<String> others(int max) {
            java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
            for (SubjectRule.Written w : ExemplarRule.all(composition)) {
                out.add(RetrievalGenerator.draft(composition, w).subject());
            }
            out.add(RetrievalGenerator.draft(composition, new TemplateRule().write(composition)).subject());
            out.remove(draft.subject());
            return out.stream().limit(max).toList();
        }
    }

    private static Draft compose(Composition c) {
        for (SubjectRule rule : RULES) {
            SubjectRule.Written w = rule.write(c);
            if (w != null) {
                return draft(c, w);
            }
        }
        throw new IllegalStateException("the template rule writes for every diff");
    }

    /** The diff's own description, for when no exemplar fits ({@link TemplateRule}). */
    Draft template(DiffedCommit diff) {
        return fallback.generate(diff);
    }

    /**
     * A rule's subject with the last touches every draft gets ({@link #finished}), git's merge subject for a merge,
     * the template's body and, failing the subject's own, its type.
     */
    private static Draft draft(Composition c, SubjectRule.Written w) {
        if (w.whole() != null) {
            return w.whole();
        }
        Subject s = finished(w.subject(), c.diff, c.window, c.conventions);
        if (c.merge && StyleApplier.isGitMerge(s)) {
            // git's merge subject names what was merged, which no exemplar's can: "Merge branch 'gen-split'" for a
            // merge of 'perf-diff' (the demo's); the merged commit is this merge's own
            s = s.withDescription(mergeOf(c.diff.commit().parents().get(1)));
        }
        String type = s.type().isEmpty() ? c.template.type() : s.type();
        float score = c.candidates.isEmpty() ? 0 : c.candidates.get(0).score();
        return new Draft(s.render(), c.template.body(), type, s.scope(), BACKEND, score, w.exemplars());
    }

    /**
     * The subject git writes when a commit is merged by its id ({@code git merge 1a2b3c4}): {@code Merge commit
     * '1a2b3c4'}, the id abbreviated to git's default seven characters.
     */
    static String mergeOf(String mergedSha) {
        return "Merge commit '" + mergedSha.substring(0, Math.min(7, mergedSha.length())) + "'";
    }

    /**
     * The last touches every draft gets: the scope its main file's folder names where due, and 20–72 characters (from
     * 6 where the history writes short subjects itself, or where it names its main file and nothing sets the floor).
     */
    private static Subject finished(Subject s, DiffedCommit diff, RepoKnowledge.Window window, Conventions conventions) {
        if (window.to() - window.from() < SCOPE_BY_PATH_ROWS || conventions.namesAFolder(s.scope())) {
            s = withPathScope(s, diff, conventions);
        }
        return SubjectLength.fit(s, diff, conventions.subjectFloor(), conventions.subjectFloorIsSet());
    }

    /**
     * Below this many rows of history a conventional scope the neighbours voted for that no folder of the diff names
     * is replaced by the scope the main file's folder names ({@link #withPathScope}): a short history's few
     * neighbours vote for scopes of other packages. The gain shrinks as the history grows, and with a long history
     * the neighbours' vote is the better: they know the scopes no folder names ("types", "ssr", "hydration"). A scope
     * the history writes as a folder's name ({@link
     * Conventions#namesAFolder}) is replaced at any size: "fix(compiler-sfc)" for a diff only in
     * packages/compiler-core names a package the diff does not touch.
     */
    static final int SCOPE_BY_PATH_ROWS = 2000;

    /**
     * {@code s} with the scope the diff's main file's folder names ({@link Conventions#pathScope}:
     * {@code packages/runtime-core/src/apiWatch.ts} names {@code runtime-core} where the history writes that scope),
     * when its own scope is no folder of any changed file and names none of its files ({@link
     * Conventions#namesAFile}); unchanged when it has none, or is a bump, whose scope the exemplar keeps
     * ({@code chore(deps)}).
     */
    static Subject withPathScope(Subject s, DiffedCommit diff, Conventions conventions) {
        if (s.scope().isEmpty() || s.type().isEmpty() || diff.files().isEmpty()
                || Faithfulness.bumpNameWords(s.description()) != null) {
            return s;
        }
        if (Conventions.names(s.scope(), RepoKnowledge.folders(diff)) || Conventions.namesAFile(s.scope(), diff.files())) {
            // a folder's scope, or a feature's named after its file: "fix(hydration)" for hydration.ts,
            // "fix(custom-element)" for apiCustomElement.ts, not the folder's "runtime-core" and "runtime-dom"
            return s;
        }
        String[] parts = StyleApplier.mainFile(diff).path().split("/");
        String scope = conventions.pathScope(List.of(parts).subList(0, parts.length - 1));
        return scope == null ? s : s.withScope(scope);
    }

    /**
     * The repository's own nearest earlier commits in {@code window}, as a request made now finds them: a suggestion
     * and the ranker's lesson look up the same neighbours.
     */
    private List<RepoKnowledge.Neighbor> nearest(DiffedCommit diff, DiffFeatures features, RepoKnowledge memory,
                                                 float[] query, RepoKnowledge.Window window) {
        return memory.neighbors(query, memory.bag(features.signature()), weights.k(), weights.kBag(),
                diff.commit().ts(), window);
    }
}
