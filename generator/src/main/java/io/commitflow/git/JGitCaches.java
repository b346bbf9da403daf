package io.commitflow.git;

import org.eclipse.jgit.storage.file.WindowCacheConfig;

/**
 * Sizes JGit's process-wide pack caches for a process that reads many commits: JGit's defaults (10 MiB of pack
 * windows, 10 MiB of delta bases) make it re-inflate the same pack regions over and over on a busy mirror.
 * Installed once per JVM, before the first mirror is opened.
 */
final class JGitCaches {
    static final long PACKED_GIT_LIMIT = 256L << 20;
    static final int WINDOW_SIZE = 64 << 10;
    static final int DELTA_BASE_CACHE = 64 << 20;
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
        c.setStreamFileThreshold(DELTA_BASE_CACHE);
        c.install();
        installed = true;
    }
}
