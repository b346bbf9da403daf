package io.commitflow.git;

import io.commitflow.event.TestEvents;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.TreeFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Commits far beyond any budget stay within it, in time and memory: 100,000 files, and a 1 GiB blob. Memory is
 * measured as the bytes this thread allocates while diffing (HotSpot's per-thread counter), so a blob loaded by
 * mistake would show up as a gigabyte.
 */
class DiffBudgetLimitsTest {
    @TempDir
    Path root;
    private GitFixture fx;

    @BeforeEach
    void setUp() throws Exception {
        fx = new GitFixture(root, "huge.git");
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void describesACommitOfOneHundredThousandFilesWithinTheBudget() throws Exception {
        ObjectId commit;
        try (ObjectInserter ins = fx.repo.newObjectInserter()) {
            ObjectId blob = ins.insert(Constants.OBJ_BLOB, "generated\n".getBytes(StandardCharsets.UTF_8));
            TreeFormatter rootTree = new TreeFormatter();
            for (int d = 0; d < 100; d++) {
                TreeFormatter dir = new TreeFormatter();
                for (int f = 0; f < 1000; f++) {
                    dir.append(String.format("file%04d.txt", f), FileMode.REGULAR_FILE, blob);
                }
                rootTree.append(String.format("dir%03d", d), FileMode.TREE, ins.insert(dir));
            }
            commit = commit(ins, rootTree.insertTo(ins));
            ins.flush();
        }

        long before = allocated();
        DiffedCommit d = new CommitDiffer(DiffBudget.DEFAULT).diff(fx.repo, TestEvents.commit("huge", commit.name()));
        long bytes = allocated() - before;

        assertThat(d.totalFiles()).isEqualTo(100_000);
        assertThat(d.files()).hasSize(DiffBudget.DEFAULT.maxFiles());
        assertThat(d.truncation()).contains("files 100000>300");
        assertThat(d.patchId()).as("no patch-id for a commit the budget does not cover").isNull();
        assertThat(d.patch().length()).isLessThanOrEqualTo(DiffBudget.DEFAULT.maxBytes());
        // measured: 65 MB, mostly the 100,000 tree entries themselves
        assertThat(bytes).as("bytes allocated while diffing").isLessThan(256L << 20);
    }

    @Test
    void neverLoadsABlobOfOneGibibyte() throws Exception {
        long size = 1L << 30;
        ObjectId commit;
        try (ObjectInserter ins = fx.repo.newObjectInserter()) {
            ObjectId big = ins.insert(Constants.OBJ_BLOB, size, new Zeros(size));
            ObjectId small = ins.insert(Constants.OBJ_BLOB, "hello\n".getBytes(StandardCharsets.UTF_8));
            TreeFormatter tree = new TreeFormatter();
            tree.append("data.bin", FileMode.REGULAR_FILE, big);
            tree.append("readme.txt", FileMode.REGULAR_FILE, small);
            commit = commit(ins, tree.insertTo(ins));
            ins.flush();
        }

        long before = allocated();
        DiffedCommit d = new CommitDiffer(DiffBudget.DEFAULT).diff(fx.repo, TestEvents.commit("huge", commit.name()));
        long bytes = allocated() - before;

        assertThat(d.files()).extracting(FileChange::path).containsExactly("data.bin", "readme.txt");
        assertThat(d.files().get(0).binary()).isTrue();
        assertThat(d.files().get(1).added()).isEqualTo(1);
        assertThat(d.patch()).contains("Binary files /dev/null and b/data.bin differ");
        // measured: 2 MB; loading the blob would allocate 1 GiB
        assertThat(bytes).as("bytes allocated while diffing").isLessThan(16L << 20);
    }

    private ObjectId commit(ObjectInserter ins, ObjectId tree) throws Exception {
        CommitBuilder c = new CommitBuilder();
        c.setTreeId(tree);
        PersonIdent who = new PersonIdent("A U Thor", "a@example.com");
        c.setAuthor(who);
        c.setCommitter(who);
        c.setMessage("Huge commit\n");
        return ins.insert(c);
    }

    private static long allocated() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        return threads.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /** {@code size} zero bytes, streamed. */
    private static final class Zeros extends InputStream {
        private long left;

        Zeros(long size) {
            left = size;
        }

        @Override
        public int read() {
            return left-- > 0 ? 0 : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (left <= 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            java.util.Arrays.fill(b, off, off + n, (byte) 0);
            left -= n;
            return n;
        }
    }
}
