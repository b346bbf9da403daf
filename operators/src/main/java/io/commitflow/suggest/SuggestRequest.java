package io.commitflow.suggest;

import io.commitflow.generate.Conventions;
import io.commitflow.generate.RepoKnowledge;
import io.commitflow.git.DiffedCommit;

import java.util.List;

/**
 * What the index stage hands the async suggest stage for one commit: everything the answer depends on, fixed when
 * the request is made, so that the same request gives the same suggestion whenever it is answered — also when
 * Flink replays it from a checkpoint after a failover.
 *
 * @param diff        the commit and its diff
 * @param signature   the diff's word signature (the bag-of-words query is made from it)
 * @param lines       fingerprints of its added and removed lines (revert detection)
 * @param newVersions versions the diff introduces
 * @param queryIndex  the TF-IDF query vector, sparse: its non-zero positions
 * @param queryValue  … and their values (under the repository's IDF when the request was made)
 * @param windowFrom  the repository's rows this request may see: running numbers from (inclusive)
 * @param windowTo    … to (exclusive)
 * @param conventions the repository's conventions when the request was made
 * @param tier        the tenant's priority tier ({@code gold}, {@code silver}, {@code bronze})
 * @param prefix      for a tenant with an LLM: the repository's stable prompt prefix from the prompt cache; else empty
 * @param prefixReused the same prefix went with the repository's previous request (the server likely holds it)
 */
public record SuggestRequest(DiffedCommit diff, int[] signature, long[] lines, List<String> newVersions,
                             int[] queryIndex, float[] queryValue, long windowFrom, long windowTo, Conventions conventions,
                             String tier, String prefix, boolean prefixReused) {

    public RepoKnowledge.Window window() {
        return new RepoKnowledge.Window(windowFrom, windowTo);
    }

    public String repo() {
        return diff.commit().repo();
    }

    public float[] query(int dimension) {
        float[] v = new float[dimension];
        for (int i = 0; i < queryIndex.length; i++) {
            v[queryIndex[i]] = queryValue[i];
        }
        return v;
    }
}
