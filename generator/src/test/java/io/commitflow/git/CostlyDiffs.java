package io.commitflow.git;

import org.eclipse.jgit.junit.TestRepository;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;

/**
 * Commits whose diff is slow on purpose, for the diff's time limit: each changed file swaps two long runs of a
 * repeated line ({@code a…a b…b} becomes {@code b…b a…a}). No line is rare enough for the histogram diff, which
 * hands the file to Myers' O(N·D) fallback; two blobs serve every file, so the repository stays small.
 */
public final class CostlyDiffs {
    private CostlyDiffs() {}

    /** A commit on {@code parent} (made here when null) that changes {@code files} files so, {@code run} lines each. */
    public static RevCommit commit(TestRepository<Repository> git, RevCommit parent, int files, int run) throws Exception {
        String a = "a\n".repeat(run) + "b\n".repeat(run);
        String b = "b\n".repeat(run) + "a\n".repeat(run);
        TestRepository<Repository>.CommitBuilder before = git.commit().message("the slow files, before");
        if (parent != null) {
            before.parent(parent);
        }
        for (int i = 0; i < files; i++) {
            before.add("slow/f" + i + ".txt", a);
        }
        RevCommit first = before.create();
        TestRepository<Repository>.CommitBuilder after = git.commit().parent(first).message("Swap the runs");
        for (int i = 0; i < files; i++) {
            after.add("slow/f" + i + ".txt", b);
        }
        return after.create();
    }
}
