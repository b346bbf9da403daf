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

    /**
     * The features of a diff, in one pass over its patch: each line goes to the {@link DiffTokens#signature}, and
     * each added or removed line also to the identifiers, the line fingerprints and the versions. The same values
     * as {@link DiffTokens#of}, {@link DiffTokens#signature}, {@link DiffTokens#lineFingerprints} and
     * {@link DiffTokens#newVersions}, which read the patch once each (and split it into strings, three times).
     */
    public static DiffFeatures of(DiffedCommit d) {
        String patch = d.patch();
        Map<String, Integer> terms = DiffTokens.fileTerms(d);
        DiffTokens.Identifiers identifiers = new DiffTokens.Identifiers(terms);
        DiffTokens.Signature signature = new DiffTokens.Signature();
        DiffTokens.Versions versions = new DiffTokens.Versions();
        long added = 0;
        long removed = 0;
        for (int from = 0, to; from <= patch.length(); from = to + 1) {
            to = DiffTokens.lineEnd(patch, from);
            signature.scan(patch, from, to);
            if (DiffTokens.isChange(patch, from, to)) {
                identifiers.scan(patch, from, to);
                versions.scan(patch, from, to);
                if (patch.charAt(from) == '+') {
                    added += DiffTokens.lineHash(patch, from, to);
                } else {
                    removed += DiffTokens.lineHash(patch, from, to);
                }
            }
        }
        return new DiffFeatures(terms, signature.words(), new long[] {added, removed}, versions.introduced());
    }

    /** {@link DiffTokens#versionShape} of this diff. */
    public String versionShape() {
        return DiffTokens.shapeOf(newVersions);
    }
}
