package io.commitflow.git;

import java.io.Serializable;
import java.time.Duration;

/**
 * Per-commit limits on diff work, so that a commit with 100k files or a 1 GB blob costs bounded time and
 * memory. What is cut is recorded in {@link DiffedCommit#truncation()}; a diff past its time is refused
 * ({@link DiffTimeoutException}).
 *
 * @param maxFiles     files described in detail; the rest are only counted
 * @param maxLines     lines of patch text kept
 * @param maxBytes     bytes of patch text kept
 * @param maxBlobBytes blobs larger than this are summarised like binary files, never loaded for diffing
 * @param maxTime      how long one commit's diff may take ({@link Duration#ZERO}: no limit). It is checked during
 *                     rename detection and between files, so a diff stops at most one file's work (bounded by
 *                     {@code maxBlobBytes}) past it
 */
public record DiffBudget(int maxFiles, int maxLines, int maxBytes, int maxBlobBytes, Duration maxTime)
        implements Serializable {

    public static final Duration DEFAULT_MAX_TIME = Duration.ofSeconds(10);

    public static final DiffBudget DEFAULT = new DiffBudget(300, 5_000, 256 * 1024, 8 * 1024 * 1024);

    /** The default budget without a time limit: for eval and the benches, whose figures must not depend on load. */
    public static final DiffBudget UNTIMED = DEFAULT.withMaxTime(Duration.ZERO);

    /** A budget with the default time limit. */
    public DiffBudget(int maxFiles, int maxLines, int maxBytes, int maxBlobBytes) {
        this(maxFiles, maxLines, maxBytes, maxBlobBytes, DEFAULT_MAX_TIME);
    }

    /** This budget with another time limit ({@link Duration#ZERO}: none, as eval and the benches diff). */
    public DiffBudget withMaxTime(Duration time) {
        return new DiffBudget(maxFiles, maxLines, maxBytes, maxBlobBytes, time);
    }

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
        if (maxTime == null || maxTime.isNegative()) {
            throw new IllegalArgumentException("the diff time limit must be zero (none) or positive, not " + maxTime);
        }
    }
}
