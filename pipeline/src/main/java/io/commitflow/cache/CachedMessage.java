package io.commitflow.cache;

import java.util.List;

/**
 * A suggestion as the result cache keeps it: what was generated for a patch-id, and from which commit.
 *
 * @param sourceSha the commit the message was first generated for
 */
public record CachedMessage(String subject, String body, String type, String scope, String backend, double similarity,
                            List<String> exemplars, String sourceSha) {}
