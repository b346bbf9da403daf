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
    /** A revert's subject, {@code Revert "…"} as git writes it or {@code revert "…"} after a conventional type. */
    private static final java.util.regex.Pattern REVERT = java.util.regex.Pattern.compile("(?i)revert\\b\\s*\"");
    private final TemplateGenerator fallback = new TemplateGenerator();

    public RetrievalGenerator() {
        this(ExemplarRanker.DEFAULT_WEIGHTS);
    }

    public RetrievalGenerator(ExemplarRanker.Weights weights) {
        this.weights = weights;
    }

    public ExemplarRanker.Weights weights() {
        return weights;
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
        return generate(diff, features, memory, query, fleet, null);
    }

    /**
     * {@link #generate(DiffedCommit, DiffFeatures, RepoKnowledge, float[], RepoKnowledge)} where {@code judge} (null:
     * none) chooses the exemplar with hindsight: of the ranked exemplars whose edited subject is supported by this
     * diff, the one whose finished subject {@code judge} scores highest, where the generator takes the first. What
     * {@code commitflow eval --hindsight} reports: how far a perfect ranker would get with the same exemplars and the
     * same edits, that is, how much of the distance to a goal choosing can close and how much writing must.
     */
    public Draft generate(DiffedCommit diff, DiffFeatures features, RepoKnowledge memory, float[] query,
                          RepoKnowledge fleet, java.util.function.ToDoubleFunction<String> judge) {
        RepoKnowledge.Window window = memory.window();
        Conventions conventions = memory.model().style.conventions();
        int ranker = ranker(memory.model());
        List<RepoKnowledge.Neighbor> own = nearest(diff, features, memory, query, window);
        if (memory.reverted(features.lines(), diff.commit().ts(), window) != null) {
            // a revert needs no fleet; its own neighbours say whether this repository titles undos as reverts
            return compose(diff, features, memory, window, conventions, ranker, own, List.of(), judge);
        }
        if (fleet == null || fleet.size() == 0 || memory.size() >= YOUNG) {
            return compose(diff, features, memory, window, conventions, ranker, own, List.of(), judge);
        }
        List<RepoKnowledge.Neighbor> theirs = fleet.neighbors(fleet.vector(features.terms()),
                fleet.bag(features.signature()), weights.k(), weights.kBag(), Long.MAX_VALUE, fleet.window());
        return compose(diff, features, memory, window, conventions, ranker, own, carryOver(diff, theirs), judge);
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
    public record Lesson(double[][] terms, double[] score, double title, double pick) {
        public Lesson(double[][] terms, double[] score) {
            this(terms, score, Double.NaN, 0);
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
        List<RepoKnowledge.Neighbor> nn = sameKind(nearest(diff, features, memory, query, window), diff);
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
        if (title == null) {
            return new Lesson(f, score);
        }
        double titled = new PairwiseBleu(List.of(MessageTokens.of(title), MessageTokens.of(real))).sentence(0, 1);
        double picked = score[ExemplarRanker.best(f, RankerChoice.GRID.get(ranker(memory.model())).terms())];
        return new Lesson(f, score, titled, picked);
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
        model.ranker.observe(lesson.terms(), lesson.score());
    }

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
        return compose(diff, features, memory, window, conventions, ranker, neighbours, fleetNeighbours, null);
    }

    /** {@link #compose(DiffedCommit, DiffFeatures, RepoKnowledge, RepoKnowledge.Window, Conventions, int, List, List)},
     * the exemplar chosen by {@code judge} with hindsight where it is not null (see {@link #generate(DiffedCommit,
     * DiffFeatures, RepoKnowledge, float[], RepoKnowledge, java.util.function.ToDoubleFunction)}). */
    Draft compose(DiffedCommit diff, DiffFeatures features, RepoKnowledge memory, RepoKnowledge.Window window,
                  Conventions conventions, int ranker, List<RepoKnowledge.Neighbor> neighbours,
                  List<RepoKnowledge.Neighbor> fleetNeighbours, java.util.function.ToDoubleFunction<String> judge) {
        long notAfter = diff.commit().ts();
        IndexedCommit reverted = memory.reverted(features.lines(), notAfter, window);
        if (reverted != null && undoesAreReverts(memory, neighbours, window)) {
            // git's own revert message: the diff undoes an earlier commit exactly
            String subject = SubjectLength.fit(revertSubject(reverted.subject()), diff);
            return new Draft(subject, "This reverts commit " + reverted.sha() + ".", "revert", "", BACKEND, 1.0,
                    List.of(reverted.sha()));
        }
        boolean merge = diff.commit().parents().size() > 1;
        List<RepoKnowledge.Neighbor> voters = sameKind(neighbours, diff);
        List<RepoKnowledge.Neighbor> nn = voters;
        if (!fleetNeighbours.isEmpty()) {
            nn = new ArrayList<>(voters);
            nn.addAll(sameKind(fleetNeighbours, diff));
            // stable: on equal scores the repository's own commit first
            nn.sort(java.util.Comparator.comparingDouble((RepoKnowledge.Neighbor n) -> -n.score()));
            nn = List.copyOf(nn.subList(0, Math.min(nn.size(), Math.max(neighbours.size(), fleetNeighbours.size()))));
        }
        List<String> files = RepoKnowledge.fileNames(diff);
        Draft template = fallback.generate(diff);
        List<Subject> subjects = RepoKnowledge.subjects(nn);
        List<Subject> voterSubjects = voters == nn ? subjects : RepoKnowledge.subjects(voters);
        List<IndexedCommit> moves = merge || !RepoKnowledge.onlyMoves(features.lines()) ? List.of()
                : titledAlike(memory.moves(MOVE_WITNESSES, notAfter, window));
        if (!moves.isEmpty()) {
            // the diff only moves lines, as the history's "Sort members" do: those are the exemplars, not the
            // commits that last changed these files
            nn = new ArrayList<>();
            for (IndexedCommit m : moves) {
                nn.add(new RepoKnowledge.Neighbor(m, 1f));
            }
            subjects = RepoKnowledge.subjects(nn);
        }
        List<String> codeFiles = StyleApplier.codeFiles(diff);
        // the type the history gives a diff of only tests (docs, CI…), read once for every candidate
        String habit = conventions.habitualType(PathKind.of(diff));
        Subject s;
        List<String> exemplars;
        Changelog.Entry added = conventions.subjectIsChangelogEntry() && !merge ? Changelog.added(diff.patch()) : null;
        String entry = added == null ? null : added.text();
        java.util.Set<String> typos;
        String title;
        if (entry != null) {
            // the history writes the change log's entry as the subject, and this diff adds one: its own words
            s = StyleApplier.styled(Subject.parse(entry), voters, voterSubjects, conventions, files, codeFiles,
                    template.type(), habit);
            String issue = added.issue();
            if (conventions.entryIssueIsTicket() && s.ticket().isEmpty() && issue != null) {
                // and the issue the entry names is the subject's ticket, as the history writes it: "[LANG-1819] Fix
                // …" — this diff's own number, never an old one
                List<String> tags = new ArrayList<>();
                tags.add(issue);
                tags.addAll(s.tags());
                s = new Subject(List.copyOf(tags), issue, false, s.type(), s.scope(), s.breaking(), s.area(),
                        s.description(), s.pullRequest());
            }
            exemplars = nn.isEmpty() ? List.of() : exemplars(nn.get(0), nn);
        } else if (conventions.subjectIsTestTitle() && !merge && (title = TestTitle.of(diff.patch())) != null) {
            // the history's subjects say what its tests' titles say, and this diff adds one test: its own words
            s = StyleApplier.styled(new Subject(List.of(), "", false, "", "", false, "", title, false), voters,
                    voterSubjects, conventions, files, codeFiles, template.type(), habit);
            exemplars = nn.isEmpty() ? List.of() : exemplars(nn.get(0), nn);
        } else if (!merge && !(typos = Typos.corrections(diff.patch())).isEmpty()) {
            // the diff only corrects misspelt words: "Fix typo", in the repository's form; its neighbours by content
            // are whatever else touched those files
            String place = Typos.place(diff.patch());
            String fix = typos.size() > 1 ? "Fix typos" : "Fix typo";
            s = StyleApplier.styled(Subject.parse(fix), voters, voterSubjects, conventions, files, codeFiles,
                    template.type(), habit);
            if (place != null) {
                // "DiffTools: Fix typo in Javadoc"; where that is still too short to stand ("Fix typo in Javadoc"),
                // the length rule names the file instead: "Fix typo in ConcurrentUtils"
                Subject placed = s.withDescription(s.description() + " in "
                        + (place.equals("comment") && typos.size() > 1 ? "comments" : place));
                s = placed.render().length() >= SubjectLength.MIN ? placed : s;
            }
            exemplars = List.of();
        } else if (nn.isEmpty()) {
            s = styledTemplate(template, voters, voterSubjects, conventions, files, codeFiles, habit,
                        diff.patch());
            exemplars = List.of();
        } else {
            // the best exemplar whose subject, edited for this diff, names only what this diff contains
            // 0 (nothing learned, or a request from before the choice was kept): this generator's own weights
            ExemplarRanker.Weights rank = ranker > 0 && ranker < RankerChoice.GRID.size()
                    ? RankerChoice.GRID.get(ranker) : weights;
            // a fleet commit's row number counts another memory's rows: it has no age here
            java.util.Set<IndexedCommit> foreign = java.util.Set.of();
            if (!fleetNeighbours.isEmpty()) {
                foreign = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
                for (RepoKnowledge.Neighbor n : fleetNeighbours) {
                    foreign.add(n.commit());
                }
            }
            List<Integer> order = ExemplarRanker.order(nn, subjects, features.signature(), features.versionShape(),
                    diff.commit().author(), window.to(), foreign, rank);
            // only a diff that moves to one new version can rewrite a bump's "from A to B": scan its patch for the old
            // one then, not for every suggestion
            List<String> oldVersions = features.newVersions().size() == 1 ? DiffTokens.oldVersions(diff.patch()) : List.of();
            // a diff of a test is about the class it tests: an exemplar's class becomes that one
            String underTest = SubjectEditor.classUnderTest(files, diff.patch());
            SubjectEditor.Member member = null;
            boolean memberRead = false;
            s = null;
            int chosen = -1;
            double judged = Double.NEGATIVE_INFINITY;
            for (int i : order) {
                RepoKnowledge.Neighbor candidate = nn.get(i);
                if (REVERT.matcher(subjects.get(i).description()).lookingAt()
                        || subjects.get(i).type().equalsIgnoreCase("revert")) {
                    // a revert's subject fits only the diff that undoes that commit (found above); also in the
                    // conventional form, "revert: fix(runtime-dom): ensure v-show respects display value …", whose
                    // "fix(runtime-dom)" the member edit had made "nextTick()"
                    continue;
                }
                if (!SubjectEditor.startsAsProse(subjects.get(i).description())) {
                    continue; // "+=codecov => notifications": a history's oddity, no suggestion
                }
                Subject edited = SubjectEditor.adapt(subjects.get(i), candidate.commit().files(), files, underTest,
                        oldVersions, features.newVersions());
                // a copyright notice's year is the one this diff writes
                edited = edited.withDescription(SubjectEditor.editYear(edited.description(), diff.patch()));
                // and a release train's year and month, the one this diff points at
                edited = edited.withDescription(SubjectEditor.editYearMonth(edited.description(), diff.patch()));
                // a build id the exemplar moved to ("Update Orbit to R20220830213456") becomes the one this diff adds
                edited = edited.withDescription(SubjectEditor.replaceCarried(edited.description(),
                        candidate.commit().signature(), features.signature(), diff.patch()));
                if (SubjectEditor.namesMember(edited.description())) {
                    if (!memberRead) { // the patch is read for its declarations only when an exemplar names a member
                        member = SubjectEditor.changedMember(diff.patch());
                        memberRead = true;
                    }
                    edited = edited.withDescription(SubjectEditor.editMember(edited.description(), member, diff.patch()));
                }
                Subject styled = withoutUnsupportedArea(StyleApplier.styled(edited, voters, voterSubjects, conventions,
                        files, codeFiles, template.type(), habit), diff.patch());
                if (styled.render().length() > SubjectLength.MAX && !edited.scope().isEmpty()
                        && !edited.scope().equals(styled.scope())
                        && styled.withScope(edited.scope()).render().length() <= SubjectLength.MAX) {
                    // the voted scope would cut a description that fits whole under the exemplar's own: "fix(types):
                    // calling readonly() with ref() should return Readonly<Ref<T>>" had become "fix(reactivity): …
                    // should return"
                    styled = styled.withScope(edited.scope());
                }
                // a bump names the library this diff bumps, not another one near it
                Subject bump = BumpedArtifact.named(styled, diff.patch(), features.newVersions());
                if (bump != null) {
                    styled = bump;
                }
                if (bump != null && !SubjectEditor.namesOtherFiles(edited.description(), candidate.commit().files(), files)
                        && Faithfulness.faithful(styled.render(), diff.patch())
                        && Faithfulness.movesAsStated(styled.description(), diff.patch())
                        && Faithfulness.numbers(edited.description()).isEmpty()
                        && SubjectEditor.yearMonthsAdded(styled.description(), diff.patch())
                        && SubjectEditor.nameVersionsAdded(styled.description(), diff.patch())
                        && SubjectLength.keepsPhrase(styled, diff)
                        && SubjectEditor.carriedName(styled.description(), candidate.commit().signature(),
                                features.signature(), diff.patch()) == null) {
                    if (judge == null) {
                        s = styled;
                        chosen = i;
                        break;
                    }
                    // with hindsight: every supported exemplar, finished as the draft would be, is scored
                    double score = judge.applyAsDouble(finished(styled, diff, window, conventions).render());
                    if (score > judged) {
                        s = styled;
                        chosen = i;
                        judged = score;
                    }
                }
            }
            if (chosen < 0) {
                // no exemplar's subject, edited for this diff, is supported by it: an edit that cannot be justified
                // is not made; the diff's own description, in the repository's form
                s = styledTemplate(template, voters, voterSubjects, conventions, files, codeFiles, habit,
                        diff.patch());
                exemplars = List.of();
            } else {
                exemplars = exemplars(nn.get(chosen), nn);
            }
        }
        s = finished(s, diff, window, conventions);
        if (merge && StyleApplier.isGitMerge(s)) {
            // git's merge subject names what was merged, which no exemplar's can: "Merge branch 'gen-split'" for a
            // merge of 'perf-diff' (the demo's); the merged commit is this merge's own
            s = s.withDescription(mergeOf(diff.commit().parents().get(1)));
        }
        String type = s.type().isEmpty() ? template.type() : s.type();
        float score = nn.isEmpty() ? 0 : nn.get(0).score();
        return new Draft(s.render(), template.body(), type, s.scope(), BACKEND, score, exemplars);
    }

    /**
     * The subject git writes when a commit is merged by its id ({@code git merge 1a2b3c4}): {@code Merge commit
     * '1a2b3c4'}, the id abbreviated to git's default seven characters.
     */
    static String mergeOf(String mergedSha) {
        return "Merge commit '" + mergedSha.substring(0, Math.min(7, mergedSha.length())) + "'";
    }

    /** The last touches every draft gets: the scope its main file's folder names where due, and 20–72 characters. */
    private static Subject finished(Subject s, DiffedCommit diff, RepoKnowledge.Window window, Conventions conventions) {
        if (window.to() - window.from() < SCOPE_BY_PATH_ROWS || conventions.namesAFolder(s.scope())) {
            s = withPathScope(s, diff, conventions);
        }
        return SubjectLength.fit(s, diff);
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
     * Conventions#namesAFile}: vuejs/core, 300 suggestions, B-Norm with 20 commits 22.71 -> 22.99, 50 26.07 -> 26.37,
     * 200 26.89 -> 27.76, 1,000 27.99 -> 28.97, with 20 and its fleet 25.02 -> 25.30); unchanged when it has none, or
     * is a bump, whose scope the exemplar keeps ({@code chore(deps)}).
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

    /** How many of a history's newest commits that only moved lines are asked how it titles one. */
    static final int MOVE_WITNESSES = 10;

    /**
     * The verbs that say lines were moved. jgit titles its moves "Format tools/BUILD with buildifier", which an
     * edited file name made into "Documentation: Format config-options file with buildifier" for a Markdown file
     * sorted by hand: a verb that says how, not what, is no title for another move.
     */
    static final java.util.Set<String> MOVE_VERBS = java.util.Set.of("sort", "sorted", "reorder", "reordered",
            "order", "move", "moved", "rearrange", "reorganize", "reorganise", "organize", "organise", "group");

    /**
     * Of {@code moves} (newest first), the ones whose description starts with the verb of moving ({@link
     * #MOVE_VERBS}) at least half of them start with ("Sort"), when there are three or more; none otherwise: a history
     * that titles its moves every which way has no title for them.
     */
    static List<IndexedCommit> titledAlike(List<IndexedCommit> moves) {
        if (moves.size() < 3) {
            return List.of();
        }
        java.util.Map<String, Integer> verbs = new java.util.HashMap<>();
        List<String> firsts = new ArrayList<>();
        for (IndexedCommit m : moves) {
            String d = Subject.parse(m.subject()).description().strip();
            int space = d.indexOf(' ');
            String verb = (space < 0 ? d : d.substring(0, space)).toLowerCase(java.util.Locale.ROOT);
            firsts.add(verb);
            verbs.merge(verb, 1, Integer::sum);
        }
        for (String verb : firsts) { // the newest's verb first, where two are written by half each
            if (MOVE_VERBS.contains(verb) && 2 * verbs.get(verb) >= moves.size()) {
                List<IndexedCommit> alike = new ArrayList<>();
                for (int i = 0; i < moves.size(); i++) {
                    if (firsts.get(i).equals(verb)) {
                        alike.add(moves.get(i));
                    }
                }
                return alike;
            }
        }
        return List.of();
    }

    /**
     * A revert's subject as git writes it: {@code Revert "X"}. A squash-merged commit's pull-request number is left out
     * of the quotation, as GitHub's revert quotes the pull request's title ({@code Revert "Pin to Node.js 21 on CI"},
     * not "… CI (#16451)"; babel's five and two of vuejs/core's three such reverts): an old number is never carried
     * into a new subject. A revert's revert puts the change back, and is titled as the change was: git 2.43 writes
     * {@code Reapply "X"}, but of the re-applications in the tuned histories and their fleets 13 say X again (jgit 5,
     * flink-connector-kafka 2, commons-text 2, commons-lang, commons-io, vuejs/core, egit one each), one says
     * "Reapply" and two "Revert "Revert …"".
     */
    static String revertSubject(String reverted) {
        String quoted = Faithfulness.withoutSquashSuffix(reverted);
        if (quoted.startsWith("Revert \"") && quoted.endsWith("\"") && quoted.length() > 9) {
            return quoted.substring(8, quoted.length() - 1);
        }
        return "Revert \"" + quoted + "\"";
    }

    /** How many of the nearest neighbours are asked how this repository titles a commit that undoes another. */
    static final int UNDO_WITNESSES = 5;

    /**
     * Whether this repository titles a diff that exactly undoes an earlier commit as git's revert: yes, unless the
     * nearest of {@code neighbours} that undid an earlier commit themselves mostly did not say so. jgit's "Prepare
     * 7.2.0-SNAPSHOT builds" undoes the release commit before it line for line, as every earlier "Prepare" did.
     */
    static boolean undoesAreReverts(RepoKnowledge memory, List<RepoKnowledge.Neighbor> neighbours,
                                    RepoKnowledge.Window window) {
        int undos = 0;
        int reverts = 0;
        for (int i = 0; i < Math.min(UNDO_WITNESSES, neighbours.size()); i++) {
            IndexedCommit n = neighbours.get(i).commit();
            IndexedCommit undone = memory.reverted(new long[] {n.added(), n.removed()}, n.ts(),
                    new RepoKnowledge.Window(window.from(), n.seq()));
            if (undone != null) {
                undos++;
                reverts += REVERT.matcher(n.subject()).lookingAt() ? 1 : 0;
            }
        }
        return undos == 0 || reverts * 2 >= undos;
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

    /** The neighbours of {@code diff}'s kind, in order: "Merge …" subjects describe merges only, and only merges. */
    private static List<RepoKnowledge.Neighbor> sameKind(List<RepoKnowledge.Neighbor> nn, DiffedCommit diff) {
        boolean merge = diff.commit().parents().size() > 1;
        List<RepoKnowledge.Neighbor> out = new ArrayList<>(nn);
        out.removeIf(n -> n.commit().merge() != merge);
        return out;
    }

    /** The template's description of the diff, in the imperative and in the repository's form. */
    private static Subject styledTemplate(Draft template, List<RepoKnowledge.Neighbor> voters, List<Subject> subjects,
                                          Conventions conventions, List<String> files, List<String> codeFiles,
                                          String habit, String patch) {
        Subject t = Subject.parse(template.subject());
        Subject styled = StyleApplier.styled(t.withDescription(SubjectEditor.imperative(t.description())), voters,
                subjects, conventions, files, codeFiles, template.type(), habit);
        // the neighbours' area may name a class this diff does not touch ("CommitGraphWriter: Update
        // config-options.md"): the template's own words stand alone
        return withoutUnsupportedArea(styled, patch);
    }

    /**
     * {@code s} without its area where the area names what {@code patch} does not contain and the rest is supported:
     * the area is voted by the neighbours, not written by the exemplar, so it costs the exemplar nothing to lose it
     * (jgit with 20 commits: a voted area turned every exemplar down, and "Prepare 7.7.0-SNAPSHOT builds" became
     * "Update 89 files in MANIFEST.MF").
     */
    static Subject withoutUnsupportedArea(Subject s, String patch) {
        if (s.area().isEmpty() || Faithfulness.faithful(s.render(), patch)) {
            return s;
        }
        Subject bare = new Subject(s.tags(), s.ticket(), s.plainTicket(), s.type(), s.scope(), s.breaking(), "",
                s.description(), s.pullRequest());
        return Faithfulness.faithful(bare.render(), patch) ? bare : s;
    }

    /** The exemplar first, then the most similar other neighbours: three commits in all at most. */
    private static List<String> exemplars(RepoKnowledge.Neighbor pick, List<RepoKnowledge.Neighbor> nn) {
        List<String> exemplars = new ArrayList<>();
        exemplars.add(pick.commit().sha());
        for (RepoKnowledge.Neighbor n : nn) {
            if (exemplars.size() < 3 && !exemplars.contains(n.commit().sha())) {
                exemplars.add(n.commit().sha());
            }
        }
        return List.copyOf(exemplars);
    }
}
