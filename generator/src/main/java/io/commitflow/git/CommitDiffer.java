package io.commitflow.git;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.Reason;
import org.eclipse.jgit.api.errors.CanceledException;
import org.eclipse.jgit.diff.ContentSource;
import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.DiffConfig;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.RenameDetector;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.CanonicalTreeParser;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes a commit's diff from a mirror the way git shows it: histogram algorithm, rename detection with
 * git's defaults (50% similarity, rename limit 1000; JGit's own defaults are 60% and 400), merges against
 * the first parent, root commits against the empty tree, binaries and oversized blobs summarised, full object
 * ids on {@code index} lines (as {@code git diff --full-index}).
 *
 * <p>Each file is diffed once; its patch is written once into a reused buffer and fed to the budgeted patch
 * text and the patch-id; its line counts come from the edit list. The patch-id ({@code git patch-id --stable})
 * covers the whole commit, so it is left out ({@code null}) when the commit has more files than the budget
 * describes.
 *
 * <p>Not thread-safe (it reuses its buffers and readers from commit to commit): one per thread, as each operator
 * instance has. Close it to close the readers it keeps.
 *
 * <pre>{@code
 * DiffedCommit d = new CommitDiffer(DiffBudget.DEFAULT).diff(repository, commitEvent);
 * }</pre>
 */
public final class CommitDiffer implements AutoCloseable {
    /** git's {@code diff.renames} similarity default, in percent. */
    public static final int GIT_RENAME_SCORE = 50;
    /** git's {@code diff.renameLimit} default. */
    public static final int GIT_RENAME_LIMIT = 1000;

    private static final DiffAlgorithm ALGORITHM = DiffAlgorithm.getAlgorithm(DiffAlgorithm.SupportedAlgorithm.HISTOGRAM);

    /** The diff settings of an empty configuration: rename detection reads only its rename limit, which we set. */
    private static final DiffConfig NO_DIFF_CONFIG = new Config().get(DiffConfig.KEY);

    private final DiffBudget budget;
    /** The patch of the file being written, reused for every file. */
    private final PatchBytes file = new PatchBytes();
    private final ObjectCache objects;
    /** The last commit's ignore file: most commits of a history share one. */
    private IgnoreFile ignore;
    /**
     * A reader per repository, kept open from one commit to the next, the most recently used last. A reader's
     * delta-base cache is its own (JGit's {@code WindowCursor}): a reader opened for each commit inflates every blob's
     * delta chain again from its base, where a kept one finds the bases the commits before it inflated. Keyed by the
     * {@link Repository} instance, so that a mirror closed and opened again ({@link Mirrors}) gets a fresh reader.
     */
    private final Map<Repository, ObjectReader> readers = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Repository, ObjectReader> eldest) {
            if (size() <= MAX_READERS) {
                return false;
            }
            eldest.getValue().close();
            return true;
        }
    };
    /** Readers kept: each holds up to {@link JGitCaches#DELTA_BASE_CACHE} of delta bases (softly referenced). */
    static final int MAX_READERS = 16;

    public CommitDiffer(DiffBudget budget) {
        this(budget, ObjectCache.DEFAULT_BYTES);
    }

    /** @param cacheBytes bytes of trees and blobs kept from one commit to the next (0: none), see {@link ObjectCache} */
    public CommitDiffer(DiffBudget budget, long cacheBytes) {
        JGitCaches.install();
        this.budget = budget;
        this.objects = new ObjectCache(cacheBytes, budget.maxBlobBytes());
    }

    public DiffedCommit diff(Repository repo, CommitEvent commit) throws InvalidEventException, IOException {
        ObjectReader reader = readers.computeIfAbsent(repo, Repository::newObjectReader);
        try (RevWalk walk = new RevWalk(reader)) { // a walk given a reader leaves it open
            RevCommit c = parse(repo, walk, commit);
            ObjectId oldTree = c.getParentCount() == 0 ? null : walk.parseCommit(c.getParent(0)).getTree();
            // the real message, to learn from, when the event did not carry it
            CommitEvent known = commit.message() != null ? commit : new CommitEvent(commit.tenant(), commit.repo(),
                    commit.sha(), commit.parents(), commit.author(), commit.ts(), c.getFullMessage(), commit.patch(),
                    commit.traceId(), commit.origin());
            return diff(repo, reader, known, oldTree, c.getTree());
        } catch (IOException e) {
            // a read error may have left the reader in any state: the next commit gets a fresh one
            ObjectReader broken = readers.remove(repo);
            if (broken != null) {
                broken.close();
            }
            throw e;
        }
    }

    /** The repositories whose readers are kept, least recently used first. */
    List<Repository> keptReaders() {
        return List.copyOf(readers.keySet());
    }

    /** Closes the readers kept between commits. */
    @Override
    public void close() {
        readers.values().forEach(ObjectReader::close);
        readers.clear();
    }

    /** Diffs two trees ({@code oldTree} null for the empty tree) with the reader of the caller. */
    public DiffedCommit diff(Repository repo, ObjectReader reader, CommitEvent commit, ObjectId oldTree, ObjectId newTree)
            throws IOException {
        Deadline deadline = new Deadline(budget.maxTime());
        PatchText text = new PatchText(budget.maxBytes(), budget.maxLines());
        // keyed by the Git directory, not the Repository: no closed repository is kept alive by the cache
        Object mirror = repo.getDirectory() != null ? repo.getDirectory().getPath() : repo;
        ObjectReader cached = objects.reader(mirror, reader); // not closed: the caller's reader stays open
        try {
            List<DiffEntry> entries = withoutIgnored(gitPairs(scan(cached, oldTree, newTree, deadline), cached),
                    cached, newTree);
            deadline.check(commit, "detecting renames");
            boolean whole = entries.size() <= budget.maxFiles();
            PatchId patchId = whole ? new PatchId() : null;
            GitPatchWriter writer = new GitPatchWriter(cached, ALGORITHM, file, budget.maxBlobBytes());
            int shown = Math.min(entries.size(), budget.maxFiles());
            List<FileChange> files = new ArrayList<>(shown);
            for (DiffEntry entry : entries.subList(0, shown)) {
                deadline.check(commit, "at file " + (files.size() + 1) + " of " + entries.size());
                boolean binary = writer.write(entry);
                text.write(file.array(), 0, file.size());
                if (patchId != null) {
                    patchId.write(file.array(), 0, file.size());
                }
                files.add(FileChange.of(entry, binary, writer.added(), writer.deleted()));
            }
            deadline.check(commit, "after its last file");
            // git cannot compute a patch-id without the blobs either; ours would not be comparable
            String id = patchId == null || writer.missingBlobs() > 0 ? null : patchId.hex();
            String cut = budget.truncation(entries.size(), text);
            if (writer.missingBlobs() > 0) {
                String missing = "blobs missing from the mirror " + writer.missingBlobs();
                cut = cut.isEmpty() ? missing : cut + "; " + missing;
            }
            return DiffedCommit.of(commit, files, entries.size(), text.text(), cut, "mirror", id);
        } finally {
            file.release();
        }
    }

    /**
     * {@code entries} without the files the commit's {@link IgnoreFile} names, unless it names them all: a commit that
     * only changes a lock file is described by it.
     */
    private List<DiffEntry> withoutIgnored(List<DiffEntry> entries, ObjectReader reader, ObjectId newTree)
            throws IOException {
        ignore = IgnoreFile.of(reader, newTree, ignore);
        if (ignore == null) {
            return entries;
        }
        List<DiffEntry> kept = new ArrayList<>(entries.size());
        for (DiffEntry e : entries) {
            if (!ignore.ignores(e.getChangeType() == DiffEntry.ChangeType.DELETE ? e.getOldPath() : e.getNewPath())) {
                kept.add(e);
            }
        }
        return kept.isEmpty() ? entries : kept;
    }

    /**
     * The changed paths with JGit's rename detection, as {@code DiffFormatter.scan} finds them (a recursive tree walk
     * that skips equal subtrees, then the rename detector), without a formatter: none of the repository's diff
     * settings can change what we write (algorithm, rename score and limit are ours; the headers are written by
     * {@link GitPatchWriter}), so its configuration is not read for each commit.
     */
    private List<DiffEntry> scan(ObjectReader reader, ObjectId oldTree, ObjectId newTree, Deadline deadline)
            throws IOException {
        TreeWalk walk = new TreeWalk(reader);
        walk.addTree(oldTree == null ? new EmptyTreeIterator() : new CanonicalTreeParser(null, reader, oldTree));
        walk.addTree(newTree == null ? new EmptyTreeIterator() : new CanonicalTreeParser(null, reader, newTree));
        walk.setRecursive(true);
        walk.setFilter(TreeFilter.ANY_DIFF);
        List<DiffEntry> files = DiffEntry.scan(walk);
        RenameDetector renames = new RenameDetector(reader, NO_DIFF_CONFIG);
        // one below git's threshold: JGit's blended score can sit a point under git's content score;
        // gitPairs() applies git's own threshold afterwards
        renames.setRenameScore(GIT_RENAME_SCORE - 1);
        renames.setRenameLimit(GIT_RENAME_LIMIT);
        // content similarity loads both blobs: never for blobs the budget would not diff
        renames.setBigFileThreshold(budget.maxBlobBytes());
        renames.addAll(files);
        try {
            ContentSource content = missingAsEmpty(reader);
            return renames.compute(new ContentSource.Pair(content, content), deadline);
        } catch (CanceledException e) {
            return List.of(); // the deadline cancelled it: the caller's check reports the time
        }
    }

    /**
     * Blobs for the rename detector, a blob the mirror lacks (a partial clone's, or a snapshot's largest files) read as
     * empty: it resembles nothing, so its file stays a deletion or an addition, and the patch writer summarises it
     * ("blobs missing from the mirror") as it does for any other file, instead of the whole commit failing.
     */
    private static ContentSource missingAsEmpty(ObjectReader reader) {
        ContentSource blobs = ContentSource.create(reader);
        return new ContentSource() {
            @Override
            public long size(String path, ObjectId id) throws IOException {
                try {
                    return blobs.size(path, id);
                } catch (MissingObjectException e) {
                    return 0;
                }
            }

            @Override
            public ObjectLoader open(String path, ObjectId id) throws IOException {
                try {
                    return blobs.open(path, id);
                } catch (MissingObjectException e) {
                    return new ObjectLoader.SmallObject(Constants.OBJ_BLOB, new byte[0]);
                }
            }
        };
    }

    /**
     * The end of one commit's diff time ({@link DiffBudget#maxTime()}): the rename detector asks it whether to stop
     * (as a progress monitor), the file loop checks it between files.
     */
    private static final class Deadline extends org.eclipse.jgit.lib.EmptyProgressMonitor {
        private final long start = System.nanoTime();
        private final long limitNanos;

        Deadline(java.time.Duration limit) {
            this.limitNanos = limit.isZero() ? Long.MAX_VALUE : limit.toNanos();
        }

        @Override
        public boolean isCancelled() {
            return System.nanoTime() - start > limitNanos;
        }

        void check(CommitEvent commit, String where) throws DiffTimeoutException {
            if (isCancelled()) {
                throw new DiffTimeoutException("the diff of " + commit.sha() + " took longer than "
                        + java.time.Duration.ofNanos(limitNanos).toMillis() + " ms (--max-diff-time), stopped "
                        + where + " after " + (System.nanoTime() - start) / 1_000_000 + " ms");
            }
        }
    }

    /**
     * Makes JGit's pairs git's: git with {@code -M} pairs a deleted file with one added file, and JGit also reports
     * the further added files that resemble it as copies: git calls those additions. JGit's rename scores blend in
     * path-name similarity: each rename gets git's content score, and one below git's threshold is split back
     * into a deletion and an addition. The result is in git's order (by path).
     */
    private List<DiffEntry> gitPairs(List<DiffEntry> entries, ObjectReader reader) throws IOException {
        List<DiffEntry> out = new ArrayList<>(entries.size());
        for (DiffEntry e : entries) {
            if (e.getChangeType() == DiffEntry.ChangeType.COPY) {
                out.add(GitEntry.added(e));
            } else if (e.getChangeType() == DiffEntry.ChangeType.RENAME && e.getScore() < 100) {
                int score = gitScore(e, reader);
                if (score >= GIT_RENAME_SCORE) {
                    out.add(GitEntry.withScore(e, score));
                } else {
                    out.add(GitEntry.deleted(e));
                    out.add(GitEntry.added(e));
                }
            } else {
                out.add(e);
            }
        }
        out.sort((x, y) -> comparePaths(path(x), path(y)));
        return out;
    }

    private int gitScore(DiffEntry e, ObjectReader reader) throws IOException {
        ObjectLoader a;
        ObjectLoader b;
        try {
            a = reader.open(e.getOldId().toObjectId(), Constants.OBJ_BLOB);
            b = reader.open(e.getNewId().toObjectId(), Constants.OBJ_BLOB);
        } catch (MissingObjectException missing) {
            return 0; // a blob the mirror lacks resembles nothing (missingAsEmpty): a deletion and an addition
        }
        if (a.getSize() > budget.maxBlobBytes() || b.getSize() > budget.maxBlobBytes()) {
            return e.getScore(); // JGit skipped content for these too: keep its (exact-rename) answer
        }
        return GitSimilarity.percent(a.getCachedBytes(budget.maxBlobBytes()), b.getCachedBytes(budget.maxBlobBytes()));
    }

    private static String path(DiffEntry e) {
        return e.getChangeType() == DiffEntry.ChangeType.DELETE ? e.getOldPath() : e.getNewPath();
    }

    /** Byte order of the UTF-8 paths, as git sorts them. */
    private static int comparePaths(String x, String y) {
        byte[] a = x.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] b = y.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return java.util.Arrays.compareUnsigned(a, b);
    }

    /** Diff entries JGit's API does not let us build: an addition, a deletion, a rename with another score. */
    private static final class GitEntry extends DiffEntry {
        private static final org.eclipse.jgit.lib.AbbreviatedObjectId ZERO =
                org.eclipse.jgit.lib.AbbreviatedObjectId.fromObjectId(ObjectId.zeroId());

        static DiffEntry added(DiffEntry from) {
            GitEntry a = new GitEntry();
            a.oldId = ZERO;
            a.oldMode = org.eclipse.jgit.lib.FileMode.MISSING;
            a.oldPath = DEV_NULL;
            a.newId = from.getNewId();
            a.newMode = from.getNewMode();
            a.newPath = from.getNewPath();
            a.changeType = ChangeType.ADD;
            return a;
        }

        static DiffEntry deleted(DiffEntry from) {
            GitEntry d = new GitEntry();
            d.oldId = from.getOldId();
            d.oldMode = from.getOldMode();
            d.oldPath = from.getOldPath();
            d.newId = ZERO;
            d.newMode = org.eclipse.jgit.lib.FileMode.MISSING;
            d.newPath = DEV_NULL;
            d.changeType = ChangeType.DELETE;
            return d;
        }

        static DiffEntry withScore(DiffEntry from, int score) {
            GitEntry r = new GitEntry();
            r.oldId = from.getOldId();
            r.oldMode = from.getOldMode();
            r.oldPath = from.getOldPath();
            r.newId = from.getNewId();
            r.newMode = from.getNewMode();
            r.newPath = from.getNewPath();
            r.changeType = from.getChangeType();
            r.score = score;
            return r;
        }
    }

    private static RevCommit parse(Repository repo, RevWalk walk, CommitEvent commit)
            throws InvalidEventException, IOException {
        MirrorDamage.checkIdLength("sha", commit.sha(), commit.repo());
        try {
            return walk.parseCommit(ObjectId.fromString(commit.sha()));
        } catch (MissingObjectException e) {
            String damage = MirrorDamage.describe(repo);
            if (!damage.isEmpty()) {
                // not worth waiting for: a fetch does not repair a corrupt pack
                throw new InvalidEventException(Reason.GIT_ERROR,
                        "commit " + commit.sha() + " cannot be read from the mirror of " + commit.repo() + ": " + damage);
            }
            throw new InvalidEventException(Reason.UNKNOWN_COMMIT,
                    "commit " + commit.sha() + " is not in the mirror of " + commit.repo());
        } catch (IncorrectObjectTypeException e) {
            throw new InvalidEventException(Reason.INVALID_FIELD, commit.sha() + " is not a commit");
        }
    }
}
