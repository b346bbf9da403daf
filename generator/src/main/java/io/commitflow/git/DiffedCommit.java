package io.commitflow.git;

import io.commitflow.event.CommitEvent;

import java.util.List;

/**
 * A commit with its diff against its first parent (or the empty tree), cut to the {@link DiffBudget}.
 *
 * @param files        the changed files, at most the budget's file count
 * @param totalFiles   how many files the commit really changed
 * @param linesAdded   lines added over {@code files}
 * @param linesDeleted lines deleted over {@code files}
 * @param patch        unified diff text, cut at a line boundary to the budget
 * @param truncation   what the budget cut ({@code "files 312>300; patch bytes"}), empty when nothing
 * @param source       {@code mirror} or {@code inline}
 * @param patchId      {@code git patch-id --stable} of the whole commit, {@code null} when it could not be computed
 *                     within the budget (more files than the budget describes)
 */
public record DiffedCommit(
        CommitEvent commit,
        List<FileChange> files,
        int totalFiles,
        int linesAdded,
        int linesDeleted,
        String patch,
        String truncation,
        String source,
        String patchId) {

    /** A diffed commit whose line counts are the sums over {@code files}. */
    public static DiffedCommit of(CommitEvent commit, List<FileChange> files, int totalFiles, String patch,
                                  String truncation, String source, String patchId) {
        int added = 0;
        int deleted = 0;
        for (FileChange f : files) {
            added += f.added();
            deleted += f.deleted();
        }
        return new DiffedCommit(commit, List.copyOf(files), totalFiles, added, deleted, patch, truncation, source, patchId);
    }

    public boolean truncated() {
        return !truncation.isEmpty();
    }
}
