package io.commitflow.git;

import org.eclipse.jgit.storage.file.WindowCacheConfig;

/**
 * Sizes JGit's pack caches for a process that reads many commits: JGit's defaults (10 MiB of pack windows, shared by
 * the process) make it re-inflate the same pack regions over and over on a busy mirror. The delta-base cache is not
 * shared: each reader has its own of {@link #DELTA_BASE_CACHE} bytes, and {@link CommitDiffer} keeps up to
 * {@link CommitDiffer#MAX_READERS} readers open (on JGit's history a kept reader with 8 MiB diffed as fast as one with
 * 32 MiB, and 2 MiB was 20% slower). Installed once per JVM, before the first mirror is opened.
 */
final class JGitCaches {
    static final long PACKED_GIT_LIMIT = 256L << 20;
    static final int WINDOW_SIZE = 64 << 10;
    static final int DELTA_BASE_CACHE = 8 << 20;
    /** Blobs larger than this are streamed, not loaded whole (the diff budget's blob limit is far below it). */
    static final int STREAM_FILE_THRESHOLD = 64 << 20;
    private static boolean installed;

    private JGitCaches() {}

    static synchronized void install() {
        if (installed) {
            return;
        }
        WindowCacheConfig c = new WindowCacheConfig();
        c.setPackedGitLimit(PACKED_GIT_LIMIT);
        c.setPackedGitWindowSize(WINDOW_SIZE);
        c.setDeltaBaseCacheLimit(DELTA_BASE_CACHE);
        c.setStreamFileThreshold(STREAM_FILE_THRESHOLD);
        c.install();
        installed = true;
    }
}
