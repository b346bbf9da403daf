package io.commitflow.git;

import io.commitflow.event.TestEvents;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevBlob;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * For every commit of a repository built to hold the hard cases, the changed paths, change kinds, renames,
 * similarity scores and patch-ids equal what C git says ({@code git diff-tree -M}, {@code git patch-id
 * --stable}). Skipped, with a message, where no {@code git} binary exists.
 */
class GitParityTest {
    @TempDir
    static Path root;
    private static GitFixture fx;
    private static final Map<String, RevCommit> commits = new LinkedHashMap<>();

    @BeforeAll
    static void buildHistory() throws Exception {
        assumeTrue(CGit.available(), "no git binary on this machine: C git parity not checked");
        fx = new GitFixture(root, "parity.git");
        var g = fx.git;
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 120; i++) {
            big.append("    int field").append(i).append(" = ").append(i * 7).append(";\n");
        }
        String java = "class A {\n" + big + "}\n";
        byte[] png = new byte[600];
        for (int i = 0; i < png.length; i++) {
            png[i] = (byte) (i * 31);
        }
        RevBlob binary = g.blob(png);
        RevBlob script = g.blob("#!/bin/sh\necho hi\n");

        RevCommit c = g.commit().add("src/A.java", java).add("README.md", "# Parity\n\nSome text.\n")
                .add("img/logo.png", binary).add("empty.txt", "").message("root").create();
        commits.put("root commit with text, binary and empty files", c);
        c = step(c, "modify a few lines", b -> b.add("src/A.java", java.replace("field7 = 49", "field7 = 50")
                .replace("field90 = 630", "renamed90 = 630")));
        c = step(c, "pure rename", b -> b.rm("README.md").add("docs/README.md", "# Parity\n\nSome text.\n"));
        c = step(c, "rename with edits", b -> b.rm("src/A.java").add("src/main/A.java",
                java.replace("field7 = 49", "field7 = 50").replace("field90 = 630", "renamed90 = 630")
                        .replace("field3 = 21", "field3 = 22").replace("field60", "f60")));
        c = step(c, "copies from one deleted file", b -> b.rm("src/main/A.java")
                .add("src/B.java", java.replace("class A", "class B"))
                .add("src/C.java", java.replace("class A", "class C").replace("field1 = 7", "field1 = 8")));
        c = step(c, "mode change only", b -> b.add("run.sh", script));
        RevCommit withScript = c;
        c = fx.git.commit().parent(withScript).add("run.sh", script).edit(new org.eclipse.jgit.dircache.DirCacheEditor.PathEdit("run.sh") {
            @Override
            public void apply(org.eclipse.jgit.dircache.DirCacheEntry ent) {
                ent.setFileMode(FileMode.EXECUTABLE_FILE);
            }
        }).message("mode change only").create();
        commits.put("mode change only", c);
        c = step(c, "binary modified and text file deleted", b -> b.add("img/logo.png", g.blob(reverse(png))).rm("empty.txt"));
        c = step(c, "whitespace-only edit", b -> b.add("src/B.java", java.replace("class A", "class B")
                .replace("    int field5", "\tint field5").replace("= 14;", "=  14; ")));
        c = step(c, "CRLF file added", b -> b.add("win/notes.txt", "line one\r\nline two\r\nline three\r\n"));
        c = step(c, "CRLF file edited", b -> b.add("win/notes.txt", "line one\r\nline 2\r\nline three\r\nline four\r\n"));
        c = step(c, "no newline at end of file", b -> b.add("docs/README.md", "# Parity\n\nSome text, no newline"));
        c = step(c, "symlink added", b -> b.add("link", g.blob("docs/README.md")).edit(
                new org.eclipse.jgit.dircache.DirCacheEditor.PathEdit("link") {
                    @Override
                    public void apply(org.eclipse.jgit.dircache.DirCacheEntry ent) {
                        ent.setFileMode(FileMode.SYMLINK);
                    }
                }));
        c = step(c, "submodule added", b -> b.edit(new org.eclipse.jgit.dircache.DirCacheEditor.PathEdit("vendor/lib") {
            @Override
            public void apply(org.eclipse.jgit.dircache.DirCacheEntry ent) {
                ent.setFileMode(FileMode.GITLINK);
                ent.setObjectId(ObjectId.fromString("1234567890123456789012345678901234567890"));
            }
        }));
        c = step(c, "submodule moved forward", b -> b.edit(new org.eclipse.jgit.dircache.DirCacheEditor.PathEdit("vendor/lib") {
            @Override
            public void apply(org.eclipse.jgit.dircache.DirCacheEntry ent) {
                ent.setFileMode(FileMode.GITLINK);
                ent.setObjectId(ObjectId.fromString("abcdefabcdefabcdefabcdefabcdefabcdefabcd"));
            }
        }));
        c = step(c, "unicode path", b -> b.add("docs/résumé ü.txt", "Grüße\n"));
        RevCommit mainTip = step(c, "main moves on", b -> b.add("src/B.java", java.replace("class A", "class B2")));
        RevCommit side = fx.git.commit().parent(c).add("side.txt", "from the side branch\n").message("side").create();
        RevCommit merge = fx.git.commit().parent(mainTip).parent(side).add("side.txt", "from the side branch\n")
                .message("merge").create();
        commits.put("side branch commit", side);
        commits.put("merge commit, diffed against the first parent", merge);
        fx.git.update("refs/heads/main", merge);
    }

    private static byte[] reverse(byte[] b) {
        byte[] r = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            r[i] = b[b.length - 1 - i];
        }
        return r;
    }

    interface Edit {
        void apply(org.eclipse.jgit.junit.TestRepository<org.eclipse.jgit.lib.Repository>.CommitBuilder b) throws Exception;
    }

    private static RevCommit step(RevCommit parent, String name, Edit edit) throws Exception {
        var b = fx.git.commit().parent(parent).message(name);
        edit.apply(b);
        RevCommit c = b.create();
        commits.put(name, c);
        return c;
    }

    @AfterAll
    static void close() {
        if (fx != null) {
            fx.close();
        }
    }

    @Test
    void changedPathsKindsAndRenamesEqualGitDiffTree() throws Exception {
        CommitDiffer differ = new CommitDiffer(DiffBudget.DEFAULT);
        for (var e : commits.entrySet()) {
            RevCommit c = e.getValue();
            DiffedCommit ours = differ.diff(fx.repo, TestEvents.commit("parity", c.name()));
            String raw = CGit.run(fx.repo.getDirectory().toPath(), null, diffTreeArgs(c, "--raw", "--no-abbrev"));
            assertThat(describe(ours.files())).as(e.getKey()).isEqualTo(parseRaw(raw));
        }
    }

    @Test
    void patchIdsEqualGitPatchIdStable() throws Exception {
        CommitDiffer differ = new CommitDiffer(DiffBudget.DEFAULT);
        for (var e : commits.entrySet()) {
            RevCommit c = e.getValue();
            DiffedCommit ours = differ.diff(fx.repo, TestEvents.commit("parity", c.name()));
            Path dir = fx.repo.getDirectory().toPath();
            byte[] patch = CGit.runBytes(dir, diffTreeArgs(c, "-p", "--full-index"));
            String out = CGit.run(dir, patch, "patch-id", "--stable").strip();
            String expected = out.isEmpty() ? null : out.split(" ")[0];
            assertThat(ours.patchId()).as(e.getKey() + "\n--- git's patch:\n" + new String(patch) + "\n--- ours:\n" + ours.patch())
                    .isEqualTo(expected);
        }
    }

    private static String[] diffTreeArgs(RevCommit c, String... format) {
        List<String> a = new ArrayList<>(List.of("diff-tree", "-r", "-M", "--no-commit-id", "--no-ext-diff"));
        a.addAll(List.of(format));
        if (c.getParentCount() == 0) {
            a.addAll(List.of("--root", c.name()));
        } else {
            a.addAll(List.of(c.getParent(0).name(), c.name()));
        }
        return a.toArray(String[]::new);
    }

    /** "KIND score old -> new mode→mode" per file, sorted, from our diff. */
    private static TreeSet<String> describe(List<FileChange> files) {
        TreeSet<String> out = new TreeSet<>();
        for (FileChange f : files) {
            String kind = f.change().substring(0, 1);
            String score = f.change().equals("RENAME") || f.change().equals("COPY") ? String.format("%03d", f.score()) : "";
            out.add(kind + score + " " + f.oldPath() + " -> " + f.newPath() + " " + f.oldMode() + "→" + f.newMode());
        }
        return out;
    }

    /** The same description from {@code git diff-tree --raw}: ":old new oldId newId STATUS\tpath[\tpath]". */
    private static TreeSet<String> parseRaw(String raw) {
        TreeSet<String> out = new TreeSet<>();
        for (String line : raw.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] tab = line.split("\t");
            String[] meta = tab[0].substring(1).split(" ");
            String status = meta[4];
            String kind = status.substring(0, 1).equals("T") ? "M" : status.substring(0, 1);
            String oldMode = meta[0].equals("000000") ? "" : meta[0].replaceFirst("^0+", "");
            String newMode = meta[1].equals("000000") ? "" : meta[1].replaceFirst("^0+", "");
            String oldPath = kind.equals("A") ? "" : unquote(tab[1]);
            String newPath = kind.equals("D") ? "" : unquote(tab.length > 2 ? tab[2] : tab[1]);
            out.add(kind + status.substring(1) + " " + oldPath + " -> " + newPath + " " + oldMode + "→" + newMode);
        }
        return out;
    }

    /** git's C-style quoting of unusual paths ("docs/r\303\251sum\303\251"). */
    private static String unquote(String s) {
        if (!s.startsWith("\"")) {
            return s;
        }
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        for (int i = 1; i < s.length() - 1; i++) {
            char ch = s.charAt(i);
            if (ch == '\\') {
                char n = s.charAt(++i);
                if (n >= '0' && n <= '7') {
                    b.write(Integer.parseInt(s.substring(i, i + 3), 8));
                    i += 2;
                } else {
                    b.write(switch (n) {
                        case 't' -> '\t';
                        case 'n' -> '\n';
                        default -> n;
                    });
                }
            } else {
                b.write(ch);
            }
        }
        return b.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}
