package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The built-in generator: retrieves the repository's nearest earlier commits and adapts one of their subjects.
 * <ol>
 * <li>Choose: among the {@value ExemplarRanker#K} nearest neighbours, the description that agrees most with the others
 * (expected B-Norm against them, weighted by similarity — a minimum-Bayes-risk choice), plus a bonus for its own
 * similarity.</li>
 * <li>Edit: a word of that description naming one of its commit's changed files, which this diff does not change,
 * becomes the name of this diff's most-changed file.</li>
 * <li>Style: the repository's own form — conventional type and scope, {@code area: } prefix (the changed file's
 * name where the history does that), bracket tags, capitalisation, trailing period — voted by the neighbours and
 * counted from the history. A ticket id is reused only from the repository's previous commit when it touched the
 * same files; otherwise, where the history writes tickets, the form is kept with a placeholder number
 * ({@code [FLINK-XXXXX]}) for the author to fill in: never an invented number.</li>
 * </ol>
 * A diff that exactly undoes an earlier commit gets git's revert message. Deterministic: the same diff and the
 * same memory give the same draft.
 */
public final class RetrievalGenerator implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public static final String BACKEND = "retrieval";
    private final ExemplarRanker.Weights weights;

    public RetrievalGenerator() {
        this(ExemplarRanker.DEFAULT_WEIGHTS);
    }

    public RetrievalGenerator(ExemplarRanker.Weights weights) {
        this.weights = weights;
    }

    private final TemplateGenerator fallback = new TemplateGenerator();

    public ExemplarRanker.Weights weights() {
        return weights;
    }

    /** A draft from the memory as it is now: every learned row is visible. */
    public Draft generate(DiffedCommit diff, DiffFeatures features, RepoKnowledge memory, float[] query) {
        RepoKnowledge.Window window = memory.window();
        if (memory.reverted(features.lines(), diff.commit().ts(), window) == null) {
            List<RepoKnowledge.Neighbor> nn = memory.neighbors(query, memory.bag(features.signature()), weights.k(),
                    weights.kBag(), diff.commit().ts(), window);
            return compose(diff, features, memory, window, memory.model().style, nn);
        }
        return compose(diff, features, memory, window, memory.model().style, List.of());
    }

    /**
     * A draft from neighbours found already (by {@link RepoKnowledge#neighbors}, alone or in a batch), seeing only
     * the rows in {@code window} and the repository's {@code style} as it was when the request was made: the same
     * request gives the same draft however late it is answered.
     */
    public Draft compose(DiffedCommit diff, DiffFeatures features, RepoKnowledge memory, RepoKnowledge.Window window,
                         RepoStyle style, List<RepoKnowledge.Neighbor> neighbours) {
        long notAfter = diff.commit().ts();
        IndexedCommit reverted = memory.reverted(features.lines(), notAfter, window);
        if (reverted != null) {
            // git's own revert message: the diff undoes an earlier commit exactly
            String subject = "Revert \"" + reverted.subject() + "\"";
            return new Draft(subject, "This reverts commit " + reverted.sha() + ".", "revert", "", BACKEND, 1.0,
                    List.of(reverted.sha()));
        }
        boolean merge = diff.commit().parents().size() > 1;
        List<RepoKnowledge.Neighbor> nn = new ArrayList<>(neighbours);
        nn.removeIf(n -> n.commit().merge() != merge); // "Merge …" subjects describe merges only
        List<String> files = RepoKnowledge.fileNames(diff);
        Draft template = fallback.generate(diff);
        if (nn.isEmpty()) {
            Subject t = Subject.parse(template.subject());
            Subject s = styled(t.withDescription(SubjectEditor.imperative(t.description())), nn, style, files, mainIsSource(diff), memory.latest(notAfter, window),
                    template.type());
            return new Draft(s.render(), template.body(), typeOf(s, template), s.scope(), BACKEND, 0, List.of());
        }
        int best = ExemplarRanker.choose(nn, features.signature(), features.versionShape(), weights);
        RepoKnowledge.Neighbor pick = nn.get(best);
        Subject base = Subject.parse(pick.commit().subject());
        Subject edited = SubjectEditor.adapt(base, pick.commit().files(), files, features.newVersions());
        Subject s = styled(edited, nn, style, files, mainIsSource(diff), memory.latest(notAfter, window),
                template.type());
        List<String> exemplars = new ArrayList<>();
        exemplars.add(pick.commit().sha());
        for (RepoKnowledge.Neighbor n : nn) {
            if (exemplars.size() < 3 && !exemplars.contains(n.commit().sha())) {
                exemplars.add(n.commit().sha());
            }
        }
        return new Draft(s.render(), template.body(), typeOf(s, template), s.scope(), BACKEND, nn.get(0).score(),
                List.copyOf(exemplars));
    }

    private static String typeOf(Subject s, Draft template) {
        return s.type().isEmpty() ? template.type() : s.type();
    }

    /** Applies the repository's conventions to a subject. */
    static Subject styled(Subject s, List<RepoKnowledge.Neighbor> nn, RepoStyle style, List<String> files,
                          boolean mainIsSource, IndexedCommit previous, String fallbackType) {
        String type = "";
        String scope = "";
        String area = "";
        if (style.usesConventional()) {
            // the exemplar's type and scope fit its description; the neighbours (near in paths, so in scope)
            // overrule them only by a clear majority
            type = keepOrVote(nn, Subject::type, s.type().isEmpty() ? fallbackType : s.type());
            scope = keepOrVote(nn, Subject::scope, s.scope());
            if (!scope.isEmpty() && style.conventional > 0 && 2 * style.scopeIsFile > style.conventional && !files.isEmpty()) {
                scope = files.get(0);
            }
            if (type.isEmpty()) {
                type = fallbackType;
            }
        } else if (style.usesArea() && (nn.isEmpty() || share(nn, x -> !x.area().isEmpty()) >= 0.5)) {
            // the history names the area after the changed source file: RevWalk.java → "RevWalk: "
            boolean byFile = style.area > 0 && 2 * style.areaIsFile >= style.area && mainIsSource;
            area = byFile && !files.isEmpty() ? mainCodeFile(files) : vote(nn, Subject::area, s.area());
        }
        String ticket = "";
        boolean plain = false;
        Subject form = s;
        if (style.share(style.tagged) >= 0.5 && s.tags().isEmpty() && !s.plainTicket() && !nn.isEmpty()) {
            // the exemplar lacks the tags nearly every subject here has: take the form the neighbours vote for
            String voted = vote(nn, x -> String.join("][", x.tags()), "");
            form = voted.isEmpty() ? s : Subject.parse("[" + voted + "] x");
        }
        if (style.share(style.ticketed) >= 0.3) {
            Subject prev = previous == null ? null : Subject.parse(previous.subject());
            if (prev != null && !prev.ticket().isEmpty() && shares(previous.files(), files)) {
                // the previous commit touched the same files under a ticket: most likely the same work
                ticket = prev.ticket();
                plain = prev.plainTicket();
            } else if (!form.ticket().isEmpty()) {
                // the repository's ticket form, the number left for the author: never an invented one
                ticket = form.ticket().substring(0, form.ticket().indexOf('-') + 1) + TICKET_PLACEHOLDER;
                plain = form.plainTicket();
            }
        }
        List<String> tags = new ArrayList<>();
        if (style.share(style.tagged) >= 0.3) {
            if (!ticket.isEmpty() && !plain) {
                tags.add(ticket);
            }
            for (String t : form.tags()) {
                if (!t.equals(form.ticket())) {
                    tags.add(t); // the exemplar's own tags ([hotfix], [docs], [autoscaler]) fit its description
                }
            }
        }
        String d = s.description();
        if (!d.isEmpty() && style.total > 0) {
            d = style.capitalizes() ? Character.toUpperCase(d.charAt(0)) + d.substring(1)
                    : Character.toLowerCase(d.charAt(0)) + d.substring(1);
            boolean period = style.period * 2 > style.total;
            if (period && !d.endsWith(".")) {
                d = d + ".";
            } else if (!period && d.endsWith(".")) {
                d = d.substring(0, d.length() - 1);
            }
        }
        return new Subject(List.copyOf(tags), ticket, plain && !ticket.isEmpty(), type, scope, false, area, d, false);
    }

    /** The most-changed file that is not a test, when there is one: the class under test names the change. */
    static String mainCodeFile(List<String> files) {
        for (String f : files) {
            if (!f.endsWith("Test") && !f.endsWith("Tests") && !f.endsWith("IT") && !f.endsWith("ITCase")) {
                return f;
            }
        }
        return files.get(0);
    }

    /** Is the diff's most-changed file source code (not a build file, a manifest or docs)? */
    static boolean mainIsSource(DiffedCommit d) {
        return d.files().stream()
                .max(java.util.Comparator.comparingInt((io.commitflow.git.FileChange f) -> f.added() + f.deleted())
                        .thenComparing(io.commitflow.git.FileChange::path, java.util.Comparator.reverseOrder()))
                .map(f -> {
                    PathKind k = PathKind.of(f.path());
                    return k == PathKind.SOURCE || k == PathKind.TEST;
                })
                .orElse(false);
    }

    /** The similarity-weighted share of neighbours whose subject has {@code property}. */
    private static double share(List<RepoKnowledge.Neighbor> nn, java.util.function.Predicate<Subject> property) {
        double yes = 0;
        double all = 0;
        for (RepoKnowledge.Neighbor n : nn) {
            double w = Math.max(0, n.score());
            all += w;
            if (property.test(Subject.parse(n.commit().subject()))) {
                yes += w;
            }
        }
        return all == 0 ? 0 : yes / all;
    }

    private static boolean shares(List<String> a, List<String> b) {
        for (String x : a) {
            if (b.contains(x)) {
                return true;
            }
        }
        return false;
    }

    /** The exemplar's value, unless the neighbours' vote for another has at least {@value #OVERRULE} more weight. */
    private static String keepOrVote(List<RepoKnowledge.Neighbor> nn, java.util.function.Function<Subject, String> field,
                                     String own) {
        String winner = vote(nn, field, own);
        if (winner.equals(own)) {
            return own;
        }
        return share(nn, x -> field.apply(x).equals(winner)) - share(nn, x -> field.apply(x).equals(own)) >= OVERRULE
                ? winner : own;
    }

    static final double OVERRULE = 0.0;
    /** Stands for the ticket number in a suggested {@code [FLINK-XXXXX]}: the author knows it, the history does not. */
    public static final String TICKET_PLACEHOLDER = "XXXXX";

    /** The value the neighbours vote for, weighted by similarity; {@code fallback} when none votes. */
    private static String vote(List<RepoKnowledge.Neighbor> nn, java.util.function.Function<Subject, String> field,
                               String fallback) {
        Map<String, Double> votes = new HashMap<>();
        for (RepoKnowledge.Neighbor n : nn) {
            String v = field.apply(Subject.parse(n.commit().subject()));
            votes.merge(v, (double) Math.max(0, n.score()), Double::sum);
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
}
