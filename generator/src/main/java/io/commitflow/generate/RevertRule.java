package io.commitflow.generate;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A diff that exactly undoes an earlier commit gets git's own revert message, {@code Revert "X"} and "This reverts
 * commit …", unless the repository titles its undos otherwise ({@link #undoesAreReverts}).
 */
final class RevertRule implements SubjectRule {
    /** A revert's subject, {@code Revert "…"} as git writes it or {@code revert "…"} after a conventional type. */
    static final Pattern REVERT = Pattern.compile("(?i)revert\\b\\s*\"");
    /** How many of the nearest neighbours are asked how this repository titles a commit that undoes another. */
    static final int UNDO_WITNESSES = 5;

    @Override
    public Written write(Composition c) {
        IndexedCommit reverted = c.memory.reverted(c.features.lines(), c.diff.commit().ts(), c.window);
        if (reverted == null || !undoesAreReverts(c.memory, c.neighbours, c.window)) {
            return null;
        }
        String subject = SubjectLength.fit(subject(reverted.subject()), c.diff);
        return new Written(null, List.of(), new Draft(subject, "This reverts commit " + reverted.sha() + ".", "revert",
                "", RetrievalGenerator.BACKEND, 1.0, List.of(reverted.sha())));
    }

    /**
     * A revert's subject as git writes it: {@code Revert "X"}. A squash-merged commit's pull-request number is left out
     * of the quotation, as GitHub's revert quotes the pull request's title ({@code Revert "Pin to Node.js 21 on CI"},
     * not "… CI (#16451)"): an old number is never carried into a new subject. A revert's revert puts the change
     * back, and is titled as the change was: git 2.43 writes {@code Reapply "X"}, but of the re-applications in the
     * tuned histories and their fleets most say X again, one says "Reapply" and two "Revert "Revert …"".
     */
    static String subject(String reverted) {
        String quoted = Faithfulness.withoutSquashSuffix(reverted);
        if (quoted.startsWith("Revert \"") && quoted.endsWith("\"") && quoted.length() > 9) {
            return quoted.substring(8, quoted.length() - 1);
        }
        return "Revert \"" + quoted + "\"";
    }

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
}
