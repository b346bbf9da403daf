package io.commitflow.generate;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.TestEvents;
import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;

import java.util.List;

/** Diffed commits for tests: a one-file Java change, and the same commit by another author. */
public final class TestDiffs {
    private TestDiffs() {}

    /** The same commit, as written by {@code author}. */
    public static DiffedCommit by(DiffedCommit d, String author) {
        CommitEvent c = d.commit();
        CommitEvent e = new CommitEvent(c.tenant(), c.repo(), c.sha(), c.parents(), author, c.ts(), c.message(),
                c.patch(), c.traceId(), c.origin(), c.draft());
        return DiffedCommit.of(e, d.files(), d.totalFiles(), d.patch(), d.truncation(), d.source(), d.patchId());
    }

    /** A one-file change of {@code cls} in a Java source tree, with its real message (null: none), event time 1 s. */
    public static DiffedCommit change(String repo, String sha, String cls, String method, String message, String patchId) {
        CommitEvent c = TestEvents.withMessage(TestEvents.commit(repo, sha), message);
        String path = "src/main/java/org/example/" + cls + ".java";
        String patch = "diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path + "\n@@ -1,3 +1,3 @@\n"
                + " class " + cls + " {\n-    void " + method + "() { return; }\n+    void " + method + "(int retries) { retry(retries); }\n }\n";
        return DiffedCommit.of(c, List.of(new FileChange("MODIFY", path, path, false, 1, 1, 0, "100644", "100644")), 1, patch,
                "", "mirror", patchId);
    }

    /** A commit of {@code cls} that moves method {@code b} before {@code a}: it only moves lines. */
    public static DiffedCommit move(String sha, String cls, String a, String b, String message) {
        DiffedCommit c = change("r", sha, cls, a, message, null);
        String path = "src/main/java/org/example/" + cls + ".java";
        return DiffedCommit.of(c.commit(), c.files(), 1, "diff --git a/" + path + " b/" + path + "\n--- a/" + path
                + "\n+++ b/" + path + "\n@@ -1,3 +1,3 @@\n+    void " + b + "() { }\n     void " + a + "() { }\n-    void "
                + b + "() { }\n", "", "mirror", null);
    }

    /** {@code d} with a test case titled {@code title} added to a spec file. */
    public static DiffedCommit withTest(DiffedCommit d, String title) {
        String spec = "diff --git a/src/renderer.spec.ts b/src/renderer.spec.ts\n--- a/src/renderer.spec.ts\n"
                + "+++ b/src/renderer.spec.ts\n@@ -1,1 +1,3 @@\n describe('renderer', () => {\n+  it('" + title
                + "', () => {\n+  })\n";
        return DiffedCommit.of(d.commit(), d.files(), 1, d.patch() + spec, "", "mirror", null);
    }

    /** {@code d} with the change-log entry {@code entry} added. */
    public static DiffedCommit withEntry(DiffedCommit d, String entry) {
        return withEntry(d, entry, null);
    }

    /** {@code d} with the change-log entry {@code entry} added, naming {@code issue} unless it is null. */
    public static DiffedCommit withEntry(DiffedCommit d, String entry, String issue) {
        String log = "diff --git a/src/changes/changes.xml b/src/changes/changes.xml\n--- a/src/changes/changes.xml\n"
                + "+++ b/src/changes/changes.xml\n@@ -1,1 +1,2 @@\n   <body>\n+<action "
                + (issue == null ? "" : "issue=\"" + issue + "\" ") + "type=\"add\">" + entry + "</action>\n";
        return DiffedCommit.of(d.commit(), d.files(), 1, d.patch() + log, "", "mirror", null);
    }
}
