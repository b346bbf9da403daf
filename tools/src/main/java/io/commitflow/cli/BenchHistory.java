package io.commitflow.cli;

import io.commitflow.eval.Evaluation;
import io.commitflow.git.CommitDiffer;
import io.commitflow.git.DiffBudget;
import io.commitflow.git.DiffedCommit;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The commits a generator benchmark replays: the last {@code max} first-parent commits without merges of a
 * repository, oldest first, diffed as the job diffs them (before any timing), with their real messages.
 */
record BenchHistory(List<DiffedCommit> diffs, List<String> messages) {
    static BenchHistory load(Path repo, int max) throws IOException {
        List<DiffedCommit> diffs = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        try (Repository r = DiffBenchCommand.openRepository(repo); ObjectReader reader = r.newObjectReader();
             RevWalk walk = new RevWalk(reader)) {
            List<RevCommit> chain = Evaluation.chain(r, max);
            CommitDiffer differ = new CommitDiffer(DiffBudget.UNTIMED);
            for (int i = 0; i < chain.size(); i++) {
                RevCommit c = walk.parseCommit(chain.get(i));
                diffs.add(Evaluation.diff(r, reader, walk, differ, c, i));
                messages.add(c.getFullMessage());
            }
        }
        return new BenchHistory(List.copyOf(diffs), List.copyOf(messages));
    }

    int size() {
        return diffs.size();
    }
}
