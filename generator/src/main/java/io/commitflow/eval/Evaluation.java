package io.commitflow.eval;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.Origin;
import io.commitflow.generate.Bleu;
import io.commitflow.generate.DiffFeatures;
import io.commitflow.generate.Draft;
import io.commitflow.generate.Faithfulness;
import io.commitflow.generate.RepoKnowledge;
import io.commitflow.generate.RetrievalGenerator;
import io.commitflow.generate.Subject;
import io.commitflow.generate.SubjectLength;
import io.commitflow.git.CommitDiffer;
import io.commitflow.git.DiffBudget;
import io.commitflow.git.DiffedCommit;
import io.commitflow.gpu.CpuEngine;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * The online, chronological evaluation: over the first-parent chain without merges, each of the last {@code test}
 * commits is generated from only the {@code history} commits before it (their diffs and real messages), by
 * commitflow's generator (the job's code) and by the {@link NnGen} baseline, and both subjects are scored against
 * the real subject with B-Norm and ROUGE-L, raw and with GitHub's squash suffix {@code (#123)} removed from both
 * (no generator can know the number). Each subject, the real one too, is also judged for
 * {@linkplain Faithfulness faithfulness}: does it name only identifiers, files and versions its diff contains? Each
 * test commit then joins both memories, as in the job. Commits by {@linkplain Bots bots} are learned from but not
 * scored: the test commits are the last {@code test} by people; where the chain holds {@code test + history}
 * commits they are looked for only among those after the first {@code history}, so each has the whole history (a
 * bot-dominated chain then tests fewer). A shorter chain keeps the last {@code test} commits by people and learns
 * from what is before them (at least one commit).
 */
public final class Evaluation {
    /** One test commit's outcome; the {@code unsupported} lists name what each subject claims beyond the diff. */
    public record Row(String sha, String reference, String commitflow, String nngen, double bnorm, double nngenBnorm,
                      double rougeL, double nngenRougeL, double similarity, double bnormNoSuffix,
                      double nngenBnormNoSuffix, List<String> unsupported, List<String> nngenUnsupported,
                      List<String> referenceUnsupported, List<String> carried, List<String> nngenCarried,
                      boolean conforms, boolean nngenConforms, boolean referenceConforms, double rougeLNoSuffix,
                      double nngenRougeLNoSuffix, String hindsight, double hindsightBnorm,
                      double hindsightBnormNoSuffix, double realFormBnorm) {}

    /**
     * The averages, in percent; {@code unfaithful…} are the shares of subjects naming something their diff does not
     * contain; {@code carried…} the shares of generated subjects naming an issue, ticket or pull-request number the
     * real subject does not (an old one, carried over); {@code conforming…} the shares of subjects of 20–72
     * characters (what a load tester checks); {@code history} is how many commits preceded the first test commit;
     * {@code bots} how many bot commits among the test commits were learned from but not scored; {@code hindsight}
     * the B-Norm of the generator's subjects had it chosen each exemplar with hindsight (NaN unless asked for: {@link
     * Evaluation#Evaluation(int, int, int, boolean)}), and {@code realForm} that of its own subjects with the real
     * subject's conventional type and scope and {@code Area:} in place of its own ({@link #withRealForm}; NaN as well).
     */
    public record Summary(int commits, int history, double bnorm, double nngenBnorm, double rougeL, double nngenRougeL,
                          double bnormNoSuffix, double nngenBnormNoSuffix, double unfaithful, double nngenUnfaithful,
                          double referenceUnfaithful, double carried, double nngenCarried, double conforming,
                          double nngenConforming, double referenceConforming, int bots, double rougeLNoSuffix,
                          double nngenRougeLNoSuffix, int fleet, double hindsight, double hindsightNoSuffix,
                          double realForm) {
        public double ratio() {
            return nngenBnorm == 0 ? 0 : bnorm / nngenBnorm;
        }

        public double ratioNoSuffix() {
            return nngenBnormNoSuffix == 0 ? 0 : bnormNoSuffix / nngenBnormNoSuffix;
        }

        /** {@code hindsight} over NNGen's B-Norm (NaN when not asked for). */
        public double hindsightRatio() {
            return nngenBnorm == 0 ? 0 : hindsight / nngenBnorm;
        }

        /** The same, both subjects and the real one without a trailing {@code (#n)}. */
        public double hindsightRatioNoSuffix() {
            return nngenBnormNoSuffix == 0 ? 0 : hindsightNoSuffix / nngenBnormNoSuffix;
        }
    }

    private final int test;
    private final int history;
    private final int longest;
    private final boolean hindsight;
    private final RetrievalGenerator generator;

    public Evaluation(int test, int history) {
        this(test, history, history);
    }

    public Evaluation(int test, int history, int longest) {
        this(test, history, longest, false);
    }

    /**
     * A run that is one point of a learning curve: its test commits are chosen as for {@code longest}, the largest
     * history of the curve, so that every point scores the same commits. With {@code hindsight}, each test commit is
     * also written a second time with the exemplar chosen knowing its real subject (of those the generator would
     * accept, the one whose finished subject scores best against it: {@link
     * RetrievalGenerator#exemplarDrafts}): the ceiling of
     * choosing among the same exemplars with the same edits. It costs a second draft per test commit.
     */
    public Evaluation(int test, int history, int longest, boolean hindsight) {
        this(test, history, longest, hindsight, RetrievalGenerator.DEFAULT_REUSE_FLOOR);
    }

    /** As above, with the generator's {@link RetrievalGenerator#reuseFloor} set to {@code reuseFloor}. */
    public Evaluation(int test, int history, int longest, boolean hindsight, double reuseFloor) {
        if (test < 1 || history < 1 || longest < history) {
            throw new IllegalArgumentException("test and history must be positive, and the longest history at least "
                    + "this one");
        }
        this.test = test;
        this.history = history;
        this.longest = longest;
        this.hindsight = hindsight;
        this.generator = new RetrievalGenerator(io.commitflow.generate.ExemplarRanker.DEFAULT_WEIGHTS, reuseFloor);
    }

    /**
     * The tenant's other repositories, for a young repository's fleet memory: of each, its last {@code perRepo}
     * first-parent commits without merges that are older than the first commit the evaluated repository learns from
     * (so nothing in the fleet is later than anything evaluated), less any commit the evaluated chain holds itself.
     */
    public record Fleet(List<Repository> repos, int perRepo) {
        public Fleet {
            repos = List.copyOf(repos);
            if (perRepo < 1) {
                throw new IllegalArgumentException("the fleet's commits per repository must be at least 1");
            }
        }
    }

    private record FleetCommit(int repo, RevCommit commit) {}

    /** Runs the protocol, reporting each test commit to {@code rows} and progress to {@code progress}. */
    public Summary run(Repository repo, Consumer<Row> rows, Consumer<String> progress) throws IOException {
        return run(repo, null, rows, progress);
    }

    /**
     * Runs the protocol with a {@code fleet} (null for none): while the repository has learned fewer than
     * {@link RetrievalGenerator#YOUNG} commits, commitflow also draws on the fleet's; NNGen is given the same fleet
     * commits beside its history, always.
     */
    public Summary run(Repository repo, Fleet fleet, Consumer<Row> rows, Consumer<String> progress) throws IOException {
        List<RevCommit> chain = chain(repo, Integer.MAX_VALUE);
        if (chain.size() < 2) {
            throw new IllegalArgumentException("the first-parent chain has " + chain.size()
                    + " commit(s) without merges: at least two are needed, one to learn from and one to test");
        }
        // the test commits are the last ones by people (bots' commits among them are learned from, not scored); what
        // is before them is the history, up to the one asked for. Where the chain holds test + history commits, every
        // test commit has the whole history: when bots wrote most of them, fewer than the test commits asked for are
        // found rather than scoring a person's early commit from a few before it.
        int floor = chain.size() >= test + longest ? longest : 1;
        int firstTest = chain.size();
        int people = 0;
        while (firstTest > floor && people < test) {
            firstTest--;
            if (!Bots.is(chain.get(firstTest))) {
                people++;
            }
        }
        int used = Math.min(history, firstTest);
        int start = firstTest - used;
        if (used < history || people < test) {
            progress.accept(String.format("  the chain has %d commits without merges: testing the last %d by people "
                    + "(among its last %d commits), each from up to %d before it (asked: %d from %d)", chain.size(),
                    people, chain.size() - firstTest, used, test, history));
        }
        List<FleetCommit> fleetCommits = fleet == null ? List.of() : fleetCommits(fleet, chain, start, progress);
        CommitDiffer differ = new CommitDiffer(DiffBudget.UNTIMED);
        double[] sums = new double[19];
        int n = 0;
        int bots = 0;
        try (CpuEngine engine = new CpuEngine(io.commitflow.generate.FeatureSpace.DEFAULT_DIMENSION);
             ObjectReader reader = repo.newObjectReader(); RevWalk walk = new RevWalk(reader)) {
            RepoKnowledge memory = RepoKnowledge.fresh(engine, 0, history);
            NnGen nngen = new NnGen(history);
            RepoKnowledge fleetMemory = fleetCommits.isEmpty() ? null
                    : learnFleet(fleet, fleetCommits, engine, differ, nngen, progress);
            for (int i = start; i < chain.size(); i++) {
                RevCommit c = walk.parseCommit(chain.get(i));
                DiffedCommit d = diff(repo, reader, walk, differ, c, i);
                DiffFeatures features = DiffFeatures.of(d);
                float[] q = memory.vector(features.terms());
                String real = c.getFullMessage();
                if (i >= firstTest && Bots.is(c)) {
                    bots++;
                } else if (i >= firstTest) {
                    Draft draft = generator.generate(d, features, memory, q, fleetMemory);
                    String ours = draft.subject();
                    String theirs = Subject.firstLine(nngen.predict(d.patch()));
                    String ref = Subject.firstLine(real);
                    String bareRef = Faithfulness.withoutSquashSuffix(ref);
                    String bareOurs = Faithfulness.withoutSquashSuffix(ours);
                    String bareTheirs = Faithfulness.withoutSquashSuffix(theirs);
                    String patch = d.patch();
                    // what a subject may name: the patch, and every changed path, also those the size budget cut from
                    // the patch's text (a lock file's diff can fill it before package.json's starts)
                    String judged = withPaths(patch, d);
                    String best = null;
                    double bestBnorm = Double.NaN;
                    double bestBnormNoSuffix = Double.NaN;
                    double realFormBnorm = Double.NaN;
                    if (hindsight) {
                        best = hindsight(generator.exemplarDrafts(d, features, memory, q, fleetMemory), ours,
                                subject -> Bleu.bnorm(subject, ref));
                        bestBnorm = Bleu.bnorm(best, ref);
                        bestBnormNoSuffix = Bleu.bnorm(Faithfulness.withoutSquashSuffix(best), bareRef);
                        sums[16] += bestBnorm;
                        sums[17] += bestBnormNoSuffix;
                        realFormBnorm = Bleu.bnorm(withRealForm(ours, ref), ref);
                        sums[18] += realFormBnorm;
                    }
                    Row row = new Row(c.name(), ref, ours, theirs, Bleu.bnorm(ours, ref), Bleu.bnorm(theirs, ref),
                            Bleu.rougeL(ours, ref), Bleu.rougeL(theirs, ref), draft.similarity(),
                            Bleu.bnorm(bareOurs, bareRef), Bleu.bnorm(bareTheirs, bareRef),
                            Faithfulness.unsupported(ours, judged), Faithfulness.unsupported(theirs, judged),
                            Faithfulness.unsupported(ref, judged), carried(ours, ref, patch), carried(theirs, ref, patch),
                            SubjectLength.conforms(ours), SubjectLength.conforms(theirs), SubjectLength.conforms(ref),
                            Bleu.rougeL(bareOurs, bareRef), Bleu.rougeL(bareTheirs, bareRef), best, bestBnorm,
                            bestBnormNoSuffix, realFormBnorm);
                    sums[0] += row.bnorm();
                    sums[1] += row.nngenBnorm();
                    sums[2] += row.rougeL();
                    sums[3] += row.nngenRougeL();
                    sums[4] += row.bnormNoSuffix();
                    sums[5] += row.nngenBnormNoSuffix();
                    sums[6] += row.unsupported().isEmpty() ? 0 : 1;
                    sums[7] += row.nngenUnsupported().isEmpty() ? 0 : 1;
                    sums[8] += row.referenceUnsupported().isEmpty() ? 0 : 1;
                    sums[9] += row.carried().isEmpty() ? 0 : 1;
                    sums[10] += row.nngenCarried().isEmpty() ? 0 : 1;
                    sums[11] += row.conforms() ? 1 : 0;
                    sums[12] += row.nngenConforms() ? 1 : 0;
                    sums[13] += row.referenceConforms() ? 1 : 0;
                    sums[14] += row.rougeLNoSuffix();
                    sums[15] += row.nngenRougeLNoSuffix();
                    n++;
                    rows.accept(row);
                }
                generator.observe(d, features, memory, q, real);
                memory.learn(d, features, q, real);
                nngen.learn(d.patch(), real);
                if ((i - start + 1) % 500 == 0) {
                    progress.accept(String.format("  %d/%d commits (%d tested)", i - start + 1, chain.size() - start, n));
                }
            }
        }
        double[] pct = new double[sums.length];
        for (int i = 0; i < sums.length; i++) {
            pct[i] = n == 0 ? 0 : 100 * sums[i] / n;
        }
        return new Summary(n, used, pct[0], pct[1], pct[2], pct[3], pct[4], pct[5], pct[6], pct[7], pct[8], pct[9],
                pct[10], pct[11], pct[12], pct[13], bots, pct[14], pct[15], fleetCommits.size(),
                hindsight ? pct[16] : Double.NaN, hindsight ? pct[17] : Double.NaN, hindsight ? pct[18] : Double.NaN);
    }

    /**
     * {@code generated} with the form of {@code reference} where a subject has one: its conventional type and scope
     * ({@code fix(runtime-core): }) and its {@code Area: }; the generated description, tags and ticket stay (a real
     * ticket's number is not form). What the generator would score if it always knew how the author would file the
     * commit: the share of the distance to the real subject that is in the voted form, not in the words.
     */
    static String withRealForm(String generated, String reference) {
        Subject ours = Subject.parse(generated);
        Subject real = Subject.parse(reference);
        return new Subject(ours.tags(), ours.ticket(), ours.plainTicket(), real.type(), real.scope(), real.breaking(),
                real.area(), ours.description(), false).render();
    }

    /** The fleet's commits to learn, oldest first (see {@link Fleet}). */
    private static List<FleetCommit> fleetCommits(Fleet fleet, List<RevCommit> chain, int start,
                                                  Consumer<String> progress) throws IOException {
        int before = chain.get(start).getCommitTime();
        java.util.Set<ObjectId> own = new java.util.HashSet<>(chain);
        List<FleetCommit> out = new ArrayList<>();
        for (int r = 0; r < fleet.repos().size(); r++) {
            List<RevCommit> theirs = new ArrayList<>();
            for (RevCommit c : chain(fleet.repos().get(r), Integer.MAX_VALUE)) {
                if (c.getCommitTime() < before && !own.contains(c)) {
                    theirs.add(c);
                }
            }
            for (RevCommit c : theirs.subList(Math.max(0, theirs.size() - fleet.perRepo()), theirs.size())) {
                out.add(new FleetCommit(r, c));
            }
        }
        out.sort(java.util.Comparator.comparingInt((FleetCommit f) -> f.commit().getCommitTime()));
        progress.accept(String.format("  fleet: %d commits of %d repositories, all older than the first commit learned "
                + "from (%s)", out.size(), fleet.repos().size(),
                java.time.Instant.ofEpochSecond(before).toString().substring(0, 10)));
        return out;
    }

    /** Learns the fleet's commits, oldest first, into a fleet memory and into NNGen's fleet. */
    private static RepoKnowledge learnFleet(Fleet fleet, List<FleetCommit> commits, CpuEngine engine,
                                            CommitDiffer differ, NnGen nngen, Consumer<String> progress)
            throws IOException {
        RepoKnowledge memory = RepoKnowledge.fresh(engine, 1, commits.size());
        List<ObjectReader> readers = new ArrayList<>();
        List<RevWalk> walks = new ArrayList<>();
        try {
            for (Repository r : fleet.repos()) {
                ObjectReader reader = r.newObjectReader();
                readers.add(reader);
                walks.add(new RevWalk(reader));
            }
            for (int i = 0; i < commits.size(); i++) {
                FleetCommit f = commits.get(i);
                Repository r = fleet.repos().get(f.repo());
                RevWalk walk = walks.get(f.repo());
                RevCommit c = walk.parseCommit(f.commit());
                DiffedCommit d = diff(r, readers.get(f.repo()), walk, differ, c, i);
                DiffFeatures features = DiffFeatures.of(d);
                memory.learn(d, features, memory.vector(features.terms()), c.getFullMessage());
                nngen.learnFleet(d.patch(), c.getFullMessage());
                if ((i + 1) % 500 == 0) {
                    progress.accept(String.format("  fleet: %d/%d commits learned", i + 1, commits.size()));
                }
            }
        } finally {
            walks.forEach(RevWalk::close);
            readers.forEach(ObjectReader::close);
        }
        return memory;
    }

    /** {@code patch} and a line for each of {@code d}'s changed paths, old and new. */
    static String withPaths(String patch, DiffedCommit d) {
        StringBuilder b = new StringBuilder(patch);
        for (io.commitflow.git.FileChange f : d.files()) {
            b.append('\n').append(f.oldPath()).append(' ').append(f.newPath());
        }
        return b.toString();
    }

    /**
     * The issue, ticket and pull-request numbers a generated subject names that the real one does not and the diff
     * does not add: old ones, carried over. A number on an added line of {@code patch} is the commit's own (commons-lang's
     * {@code <action issue="LANG-1819">}), whether or not the real subject names it.
     */
    static List<String> carried(String generated, String reference, String patch) {
        List<String> out = new ArrayList<>(Faithfulness.numbers(generated));
        out.removeAll(Faithfulness.numbers(reference));
        out.removeIf(n -> added(patch, n));
        return out;
    }

    /** Whether {@code token} stands on an added line of {@code patch}, as a word of its own. */
    static boolean added(String patch, String token) {
        java.util.regex.Pattern word = java.util.regex.Pattern.compile(
                "(?<![\\w-])" + java.util.regex.Pattern.quote(token) + "(?![\\w-])");
        for (String line : patch == null ? new String[0] : patch.split("\n")) {
            if (line.startsWith("+") && !line.startsWith("+++") && line.contains(token) && word.matcher(line).find()) {
                return true;
            }
        }
        return false;
    }

    /** The commit as the job sees it; its event time is its place in the chain, so "earlier" means earlier in it. */
    public static DiffedCommit diff(Repository repo, ObjectReader reader, RevWalk walk, CommitDiffer differ, RevCommit c,
                                    long position) throws IOException {
        ObjectId parent = c.getParentCount() == 0 ? null : walk.parseCommit(c.getParent(0)).getTree();
        CommitEvent e = new CommitEvent("eval", "eval", c.name(), List.of(), io.commitflow.git.History.author(c),
                position, null, null, "", Origin.synthetic(0));
        return differ.diff(repo, reader, e, parent, c.getTree());
    }

    /** The last {@code max} commits of HEAD's first-parent chain that are no merges, oldest first. */
    public static List<RevCommit> chain(Repository repo, int max) throws IOException {
        List<RevCommit> out = new ArrayList<>();
        try (RevWalk walk = new RevWalk(repo)) {
            walk.setFirstParent(true);
            walk.markStart(walk.parseCommit(io.commitflow.git.History.resolve(repo, "HEAD")));
            for (RevCommit c : walk) {
                if (c.getParentCount() <= 1) {
                    out.add(c);
                    if (out.size() >= max) {
                        break;
                    }
                }
            }
        }
        Collections.reverse(out);
        return out;
    }

    /**
     * The subject the generator would have written had it chosen its exemplar with hindsight: of the drafts its
     * exemplar rule could write ({@link RetrievalGenerator#exemplarDrafts}), the first that {@code judge} scores best
     * (eval's judge: B-Norm against the real subject); {@code ours} when another rule wrote the subject.
     */
    public static String hindsight(List<Draft> drafts, String ours, java.util.function.ToDoubleFunction<String> judge) {
        String best = ours;
        double judged = Double.NEGATIVE_INFINITY;
        for (Draft d : drafts) {
            double score = judge.applyAsDouble(d.subject());
            if (score > judged) {
                best = d.subject();
                judged = score;
            }
        }
        return best;
    }
}
