package io.commitflow.git;

import org.eclipse.jgit.ignore.IgnoreNode;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.treewalk.TreeWalk;

import java.io.IOException;
import java.io.InputStream;

/**
 * A repository's {@value #NAME}: gitignore patterns of the files (lock files, generated code) that are left out of
 * the diff a suggestion is written from. Read from the top of the commit's own tree, so a commit is described by the
 * file as it stood in that commit; the developer's hook reads the same file from the work tree with git's own
 * matching ({@code git ls-files --ignored --exclude-from}), and this matches as git does: a path is left out when a
 * folder above it is, or when its own last matching pattern says so ({@code !} patterns take it back).
 */
public final class IgnoreFile {
    public static final String NAME = ".commitflowignore";
    /** A larger file is not read: patterns, not data. */
    static final int MAX_BYTES = 64 * 1024;

    private final IgnoreNode node;
    private final ObjectId blob;

    private IgnoreFile(IgnoreNode node, ObjectId blob) {
        this.node = node;
        this.blob = blob;
    }

    /** The patterns of {@code text} (tests and drafts). */
    public static IgnoreFile parse(InputStream text) throws IOException {
        IgnoreNode n = new IgnoreNode();
        n.parse(text);
        return new IgnoreFile(n, null);
    }

    /**
     * The ignore file at the top of {@code tree}, null when it has none, it is not a file, it is larger than
     * {@value #MAX_BYTES} bytes or has no pattern; {@code last} (may be null) is returned again when the blob is the
     * same, so a history that keeps one file parses it once.
     */
    static IgnoreFile of(ObjectReader reader, AnyObjectId tree, IgnoreFile last) throws IOException {
        if (tree == null) {
            return null;
        }
        try (TreeWalk w = TreeWalk.forPath(reader, NAME, tree)) {
            if (w == null || (w.getRawMode(0) & 0170000) != 0100000) {
                return null;
            }
            ObjectId id = w.getObjectId(0);
            if (last != null && id.equals(last.blob)) {
                return last;
            }
            if (reader.getObjectSize(id, Constants.OBJ_BLOB) > MAX_BYTES) {
                return null;
            }
            IgnoreNode n = new IgnoreNode();
            try (InputStream in = reader.open(id, Constants.OBJ_BLOB).openStream()) {
                n.parse(in);
            }
            return n.getRules().isEmpty() ? null : new IgnoreFile(n, id);
        }
    }

    /** Whether the file at {@code path} (slash-separated, from the top) is left out. */
    public boolean ignores(String path) {
        int slash = -1;
        while ((slash = path.indexOf('/', slash + 1)) > 0) {
            if (Boolean.TRUE.equals(node.checkIgnored(path.substring(0, slash), true))) {
                return true; // git does not look inside an ignored folder: nothing under it can be taken back
            }
        }
        return Boolean.TRUE.equals(node.checkIgnored(path, false));
    }
}
