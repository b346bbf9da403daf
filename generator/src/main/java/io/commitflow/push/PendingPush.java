package io.commitflow.push;

import io.commitflow.event.PushEvent;

/**
 * A push whose new commits the mirror did not have yet, waiting for a retry.
 *
 * @param firstTry when it was first tried (processing time, ms)
 * @param attempts how often it was tried
 * @param nextTry  when to try again (processing time, ms)
 */
public record PendingPush(PushEvent push, long firstTry, int attempts, long nextTry) {}
