package io.commitflow.generate;

import io.commitflow.git.DiffedCommit;

import java.util.List;
import java.util.Map;

/**
 * What the generator reads from one diff, computed once: its retrieval terms, its word signature, the fingerprints
 * of its added and removed lines, and the versions it introduces. Generation and learning both take it, so the
 * patch text is scanned once per commit.
 */
public record DiffFeatures(Map<String, Integer> terms, int[] signature, long[] lines, List<String> newVersions) {

    public static DiffFeatures of(DiffedCommit d) {
        String patch = d.patch();
        return new DiffFeatures(DiffTokens.of(d), DiffTokens.signature(patch), DiffTokens.lineFingerprints(patch),
                DiffTokens.newVersions(patch));
    }

    /** {@link DiffTokens#versionShape} of this diff. */
    public String versionShape() {
        return DiffTokens.shapeOf(newVersions);
    }
}
