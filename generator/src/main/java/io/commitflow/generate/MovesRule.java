package io.commitflow.generate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A diff that only moves lines is titled as the history titles its moves ("Sort members"): the history's own moves
 * become the exemplars, in place of the commits that last changed these files. It writes no subject itself; the
 * rules after it write from the new exemplars.
 */
final class MovesRule implements SubjectRule {
    /** How many of a history's newest commits that only moved lines are asked how it titles one. */
    static final int MOVE_WITNESSES = 10;

    /**
     * The verbs that say lines were moved. jgit titles its moves "Format tools/BUILD with buildifier", which an
     * edited file name made into "Documentation: Format config-options file with buildifier" for a Markdown file
     * sorted by hand: a verb that says how, not what, is no title for another move.
     */
    static final Set<String> MOVE_VERBS = Set.of("sort", "sorted", "reorder", "reordered",
            "order", "move", "moved", "rearrange", "reorganize", "reorganise", "organize", "organise", "group");

    @Override
    public Written write(Composition c) {
        if (c.merge || !RepoKnowledge.onlyMoves(c.features.lines())) {
            return null;
        }
        List<IndexedCommit> moves = titledAlike(c.memory.moves(MOVE_WITNESSES, c.diff.commit().ts(), c.window));
        if (!moves.isEmpty()) {
            List<RepoKnowledge.Neighbor> nn = new ArrayList<>();
            for (IndexedCommit m : moves) {
                nn.add(new RepoKnowledge.Neighbor(m, 1f));
            }
            c.candidates = nn;
            c.subjects = RepoKnowledge.subjects(nn);
        }
        return null;
    }

    /**
     * Of {@code moves} (newest first), the ones whose description starts with the verb of moving ({@link
     * #MOVE_VERBS}) at least half of them start with ("Sort"), when there are three or more; none otherwise: a history
     * that titles its moves every which way has no title for them.
     */
    static List<IndexedCommit> titledAlike(List<IndexedCommit> moves) {
        if (moves.size() < 3) {
            return List.of();
        }
        Map<String, Integer> verbs = new HashMap<>();
        List<String> firsts = new ArrayList<>();
        for (IndexedCommit m : moves) {
            String d = Subject.parse(m.subject()).description().strip();
            int space = d.indexOf(' ');
            String verb = (space < 0 ? d : d.substring(0, space)).toLowerCase(Locale.ROOT);
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
}
