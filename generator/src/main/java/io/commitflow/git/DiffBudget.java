package io.commitflow.git;

import java.io.Serializable;

/**
 * Per-commit limits on diff work, so that a commit with 100k files or a 1 GB blob costs bounded time and
 * memory. What is cut is recorded in {@link DiffedCommit#truncation()}.
 *
 * @param maxFiles     files described in detail; the rest are only counted
 * @param maxLines     lines of patch text kept
 * @param maxBytes     bytes of patch text kept
 * @param maxBlobBytes blobs larger than this are summarised like binary files, never loaded for diffing
 */
public record DiffBudget(int maxFiles, int maxLines, int maxBytes, int maxBlobBytes) implements Serializable {

    public static final DiffBudget DEFAULT = new DiffBudget(300, 5_000, 256 * 1024, 8 * 1024 * 1024);

    /** Says what the budget cut of a commit with {@code totalFiles} files, empty when nothing. */
    String truncation(int totalFiles, PatchText patch) {
        String files = totalFiles > maxFiles ? "files " + totalFiles + ">" + maxFiles : "";
        String text = patch.truncation();
        return files.isEmpty() || text.isEmpty() ? files + text : files + "; " + text;
    }

    public DiffBudget {
        if (maxFiles < 1 || maxLines < 1 || maxBytes < 1 || maxBlobBytes < 1) {
            throw new IllegalArgumentException("diff budget values must be positive: " + this);
        }
    }
}
