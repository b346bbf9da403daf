package io.commitflow.job;

import io.commitflow.event.PushEvent;
import io.commitflow.job.HostileInputITCase.Hostile;
import org.eclipse.jgit.revwalk.RevCommit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

/**
 * Hostile Gerrit {@code ref-updated}, Gitea push and GitLab push payloads for {@link HostileInputITCase}, each with
 * the one reason the job gives for it (as {@code EventParser}, {@code ServerPayloads} and the push stage decide),
 * and the payloads the job must accept: valid pushes, and pushes it skips by design. Repository {@code acme/web}
 * exists in the mirror; {@code ghost/…} never does.
 */
final class ServerPayloadKinds {
    private static final String ZERO = PushEvent.ZERO_SHA1;

    private ServerPayloadKinds() {}

    /** One hostile kind per payload defect; the kind's name starts with its server ({@code gerrit:}, …). */
    static List<Function<Random, Hostile>> all(List<RevCommit> web) {
        String w4 = web.get(4).name();
        String w5 = web.get(5).name();
        String tree = web.get(5).getTree().name();
        List<Function<Random, Hostile>> k = new ArrayList<>();

        // Gerrit: {"type":"ref-updated","refUpdate":{"oldRev","newRev","refName","project"},…}
        k.add(kind("gerrit: no refUpdate", "MISSING_FIELD", r -> "{\"type\":\"ref-updated\",\"submitter\":{\"name\":\"a\"}}"));
        k.add(kind("gerrit: refUpdate null", "MISSING_FIELD", r -> "{\"type\":\"ref-updated\",\"refUpdate\":null}"));
        k.add(kind("gerrit: refUpdate not an object", "WRONG_TYPE", r -> "{\"type\":\"ref-updated\",\"refUpdate\":"
                + pick(r, "\"acme/web\"", "[1]", "42", "true") + "}"));
        k.add(kind("gerrit: no project", "MISSING_FIELD", r -> gerrit(null, q("refs/heads/main"), q(w4), q(w5))));
        k.add(kind("gerrit: project not a string", "WRONG_TYPE", r -> gerrit(pick(r, "7", "{\"name\":\"acme/web\"}",
                "[\"acme/web\"]", "false"), q("refs/heads/main"), q(w4), q(w5))));
        k.add(kind("gerrit: traversal in project", "BAD_REPO_NAME", r -> gerrit(q(pick(r, "../acme/web", "acme/../../etc",
                "/etc/passwd", "acme//web", "acme/web/..", "acme\\\\web", "p/" + "x".repeat(300), "acme/web\\u0085")),
                q("refs/heads/main"), q(w4), q(w5))));
        k.add(kind("gerrit: refName not a string", "WRONG_TYPE", r -> gerrit(q("acme/web"), pick(r, "1", "{}", "[]"), q(w4), q(w5))));
        k.add(kind("gerrit: bad refName", "INVALID_FIELD", r -> gerrit(q("acme/web"), q(pick(r, "refs/heads/a..b",
                "refs/heads/ma\\u0000in", "refs/heads/x y", "refs/heads/" + "a".repeat(2000), "HEAD~1")), q(w4), q(w5))));
        k.add(kind("gerrit: bad sha", "INVALID_FIELD", r -> gerrit(q("acme/web"), q("refs/heads/main"),
                q(pick(r, "abc", "G" + w4.substring(1), w4 + "0", "")), q(w5))));
        k.add(kind("gerrit: sha not a string", "WRONG_TYPE", r -> gerrit(q("acme/web"), q("refs/heads/main"), q(w4),
                pick(r, "12345", "[\"" + w5 + "\"]", "true"))));
        k.add(kind("gerrit: type not a string", "WRONG_TYPE", r -> "{\"type\":7,\"refUpdate\":{}}"));
        k.add(kind("gerrit: another event type", "UNKNOWN_TYPE", r -> "{\"type\":\"" + pick(r, "change-merged",
                "patchset-created", "comment-added", "ref-updated ", "REF-UPDATED") + "\",\"refUpdate\":{}}"));
        k.add(kind("gerrit: duplicate refUpdate, the last one wins", "WRONG_TYPE", r -> "{\"type\":\"ref-updated\",\"refUpdate\":"
                + "{\"oldRev\":\"" + w4 + "\",\"newRev\":\"" + w5 + "\",\"refName\":\"main\",\"project\":\"acme/web\"},\"refUpdate\":\"x\"}"));
        k.add(kind("gerrit: unknown new revision", "UNKNOWN_COMMIT", r -> gerrit(q("acme/web"),
                q(pick(r, "main", "refs/heads/main", "refs/changes/01/1/1")), q(w4), q(HostileInputITCase.randomHex(r)))));
        k.add(kind("gerrit: new revision is a tree", "INVALID_FIELD", r -> gerrit(q("acme/web"), q("refs/heads/main"), q(w4), q(tree))));
        k.add(kind("gerrit: SHA-256 revisions", "INVALID_FIELD", r -> gerrit(q("acme/web"), q("refs/heads/main"),
                q(pick(r, "a".repeat(64), ZERO)), q("b".repeat(64)))));
        k.add(kind("gerrit: no such project", "NO_MIRROR", r -> gerrit(q("ghost/p" + r.nextInt(1000)), q("refs/heads/main"),
                q(w4), q(w5))));
        k.add(kind("gerrit: lenient fields of the wrong type", "NO_MIRROR", r -> "{\"type\":\"ref-updated\",\"refUpdate\":{"
                + "\"oldRev\":\"" + w4 + "\",\"newRev\":\"" + w5 + "\",\"refName\":\"main\",\"project\":\"ghost/lenient\"},"
                + "\"submitter\":" + pick(r, "\"alice\"", "42", "[]", "{\"name\":\"" + "n".repeat(100_000) + "\"}")
                + ",\"eventCreatedOn\":" + pick(r, "\"yesterday\"", "-5", "1e30", "null") + "}"));
        // a JVM whose file names are not UTF-8 cannot make these a path at all: BAD_REPO_NAME there
        k.add(kind("gerrit: unicode project", Set.of("NO_MIRROR", "BAD_REPO_NAME"), r -> gerrit(q(pick(r, "acme/web\\u202e", "acme/w\\u0435b",
                "acme\\u2215web", "\\uff41cme/web", "acme/web\\u200b")), q("refs/heads/main"), q(w4), q(w5))));
        k.add(kind("gerrit: broken unicode project", "BAD_REPO_NAME", r -> gerrit(q(pick(r, "acme/web\\ud800",
                "acme/\\udc00web", "acme/web\\u3000")), q("refs/heads/main"), q(w4), q(w5))));
        k.add(kind("gerrit: bad tenant", "INVALID_FIELD", r -> "{\"type\":\"ref-updated\",\"tenant\":\""
                + pick(r, "", "../x", "a b", "t".repeat(65)) + "\",\"refUpdate\":{\"oldRev\":\"" + w4 + "\",\"newRev\":\""
                + w5 + "\",\"refName\":\"main\",\"project\":\"acme/web\"}}"));

        // Gitea: {"ref","before","after","repository":{"full_name"},"pusher":{…}}
        k.add(kind("gitea: no full_name", "MISSING_FIELD", r -> gitea(null, q("refs/heads/main"), q(w4), q(w5))));
        k.add(kind("gitea: full_name not a string", "WRONG_TYPE", r -> gitea(pick(r, "1", "{}", "[\"acme/web\"]", "true"),
                q("refs/heads/main"), q(w4), q(w5))));
        k.add(kind("gitea: repository not an object, so no known shape", "MISSING_FIELD", r -> "{\"ref\":\"refs/heads/main\","
                + "\"before\":\"" + w4 + "\",\"after\":\"" + w5 + "\",\"repository\":" + pick(r, "\"acme/web\"", "[]", "5") + "}"));
        k.add(kind("gitea: traversal in full_name", "BAD_REPO_NAME", r -> gitea(q(pick(r, "../../etc/passwd", "acme/web/..",
                "acme//web", "/acme/web", "a/" + "b".repeat(300), "acme/web\\u3000", "acme/./web")), q("refs/heads/main"), q(w4), q(w5))));
        k.add(kind("gitea: ref not a string", "WRONG_TYPE", r -> gitea(q("acme/web"), pick(r, "1", "[]", "{\"name\":\"main\"}"),
                q(w4), q(w5))));
        k.add(kind("gitea: bad ref", "INVALID_FIELD", r -> gitea(q("acme/web"), q(pick(r, "main", "refs/heads/../x",
                "refs/heads/a:b", "refs/heads/^x")), q(w4), q(w5))));
        k.add(kind("gitea: bad sha", "INVALID_FIELD", r -> gitea(q("acme/web"), q("refs/heads/main"), q(w4),
                q(pick(r, "zz", w5.substring(1), "0x" + w5.substring(2), " " + w5.substring(1))))));
        k.add(kind("gitea: sha not a string", "WRONG_TYPE", r -> gitea(q("acme/web"), q("refs/heads/main"),
                pick(r, "0", "{}", "false"), q(w5))));
        k.add(kind("gitea: duplicate after, the last one wins", "INVALID_FIELD", r -> "{\"ref\":\"refs/heads/main\",\"before\":\""
                + w4 + "\",\"after\":\"" + w5 + "\",\"after\":\"nope\",\"repository\":{\"full_name\":\"acme/web\"}}"));
        k.add(kind("gitea: unknown after", "UNKNOWN_COMMIT", r -> gitea(q("acme/web"), q("refs/heads/main"), q(w4),
                q(HostileInputITCase.randomHex(r)))));
        k.add(kind("gitea: unknown before", "UNKNOWN_COMMIT", r -> gitea(q("acme/web"), q("refs/heads/main"),
                q(HostileInputITCase.randomHex(r)), q(w5))));
        k.add(kind("gitea: after is a tree", "INVALID_FIELD", r -> gitea(q("acme/web"), q("refs/heads/main"), q(ZERO), q(tree))));
        k.add(kind("gitea: no such repository, pusher of the wrong type", "NO_MIRROR", r -> "{\"ref\":\"refs/heads/main\","
                + "\"before\":\"" + w4 + "\",\"after\":\"" + w5 + "\",\"repository\":{\"full_name\":\"ghost/g" + r.nextInt(1000)
                + "\"},\"pusher\":" + pick(r, "7", "\"bob\"", "null", "{\"login\":[]}") + "}"));
        k.add(kind("gitea: tenant not a string", "WRONG_TYPE", r -> "{\"tenant\":" + pick(r, "1", "{}", "[]") + ",\"ref\":"
                + "\"refs/heads/main\",\"before\":\"" + w4 + "\",\"after\":\"" + w5 + "\",\"repository\":{\"full_name\":\"acme/web\"}}"));

        // GitLab: {"object_kind":"push"|"tag_push","ref","before","after","project":{"path_with_namespace"}}
        k.add(kind("gitlab: not a push", "UNKNOWN_TYPE", r -> gitlab(q(pick(r, "merge_request", "pipeline", "note", "Push",
                "build", "")), q("acme/web"), q(w4), q(w5))));
        k.add(kind("gitlab: object_kind not a string", "WRONG_TYPE", r -> gitlab(pick(r, "1", "{}", "[\"push\"]"),
                q("acme/web"), q(w4), q(w5))));
        k.add(kind("gitlab: no project", "MISSING_FIELD", r -> "{\"object_kind\":\"push\",\"ref\":\"refs/heads/main\","
                + "\"before\":\"" + w4 + "\",\"after\":\"" + w5 + "\"}"));
        k.add(kind("gitlab: project not an object", "WRONG_TYPE", r -> "{\"object_kind\":\"push\",\"ref\":\"refs/heads/main\","
                + "\"before\":\"" + w4 + "\",\"after\":\"" + w5 + "\",\"project\":" + pick(r, "\"acme/web\"", "3", "[{}]") + "}"));
        k.add(kind("gitlab: path_with_namespace not a string", "WRONG_TYPE", r -> gitlab(q("push"), pick(r, "1", "{}", "true"),
                q(w4), q(w5))));
        k.add(kind("gitlab: traversal in path_with_namespace", "BAD_REPO_NAME", r -> gitlab(q("push"), q(pick(r, "../../root",
                "acme/../..", "acme/web/", "group/ sub/web", "acme\\u0000/web")), q(w4), q(w5))));
        k.add(kind("gitlab: no ref", "MISSING_FIELD", r -> "{\"object_kind\":\"tag_push\",\"before\":\"" + w4 + "\",\"after\":\""
                + w5 + "\",\"project\":{\"path_with_namespace\":\"acme/web\"}}"));
        k.add(kind("gitlab: bad sha", "INVALID_FIELD", r -> gitlab(q("push"), q("acme/web"), q(pick(r, "-1", w4 + w4)), q(w5))));
        k.add(kind("gitlab: unknown after", "UNKNOWN_COMMIT", r -> gitlab(q(pick(r, "push", "tag_push")), q("acme/web"),
                q(ZERO), q(HostileInputITCase.randomHex(r)))));
        k.add(kind("gitlab: SHA-256 after", "INVALID_FIELD", r -> gitlab(q("push"), q("acme/web"), q(ZERO), q("c".repeat(64)))));
        k.add(kind("gitlab: no such project", "NO_MIRROR", r -> gitlab(q("push"), q("ghost/l" + r.nextInt(1000)), q(w4), q(w5))));
        k.add(kind("gitlab: object_kind null reads as Gitea, without full_name", "MISSING_FIELD", r -> "{\"object_kind\":null,"
                + "\"ref\":\"refs/heads/main\",\"before\":\"" + w4 + "\",\"after\":\"" + w5 + "\",\"project\":{\"path_with_namespace\":"
                + "\"acme/web\"},\"repository\":{\"name\":\"web\",\"url\":\"git@example.com:acme/web.git\"}}"));
        k.add(kind("gitlab: with a native type it reads as native, without repo", "MISSING_FIELD", r -> "{\"type\":\"push\","
                + "\"object_kind\":\"push\",\"ref\":\"refs/heads/main\",\"before\":\"" + w4 + "\",\"after\":\"" + w5
                + "\",\"project\":{\"path_with_namespace\":\"acme/web\"}}"));
        k.add(kind("gitlab: traceId not a string", "WRONG_TYPE", r -> "{\"traceId\":" + pick(r, "42", "{}", "[\"t\"]")
                + ",\"object_kind\":\"push\",\"ref\":\"refs/heads/main\",\"before\":\"" + w4 + "\",\"after\":\"" + w5
                + "\",\"project\":{\"path_with_namespace\":\"acme/web\"}}"));
        return k;
    }

    /** One push from each server that together bring all of {@code web}'s commits: Gerrit creates main, the others move it. */
    static List<byte[]> validPushes(String repo, List<RevCommit> web) {
        return List.of(
                utf8(gerrit(q(repo), q("main"), q(ZERO), q(web.get(9).name()))), // older Gerrit: a branch name, no refs/heads/
                utf8(gitea(q(repo), q("refs/heads/main"), q(web.get(9).name()), q(web.get(19).name()))),
                utf8(gitlab(q("push"), q(repo), q(web.get(19).name()), q(web.get(29).name()))));
    }

    /**
     * Pushes the job skips by design (README, "Events"): Gerrit's NoteDb and other metadata refs, and ref deletions
     * from all three servers, one to a repository with no mirror. They point at {@code meta}'s real commits, so that
     * expanding one would show as a suggestion.
     */
    static List<byte[]> skippedByDesign(List<RevCommit> meta, Random r) {
        String m = meta.get(4).name();
        List<byte[]> out = new ArrayList<>();
        for (String ref : List.of("refs/changes/0" + (1 + r.nextInt(9)) + "/1/meta", "refs/changes/01/1/robot-comments",
                "refs/meta/config", "refs/users/01/1000001", "refs/sequences/changes", "refs/groups/ab/abcdef",
                "refs/external-ids", "refs/notes/review", "refs/draft-comments/01/1/1000001", "refs/starred-changes/01/1/1000001")) {
            out.add(utf8(gerrit(q("acme/meta"), q(ref), q(ZERO), q(m))));
        }
        out.add(utf8(gerrit(q("acme/meta"), q("refs/heads/gone"), q(m), q(ZERO))));
        out.add(utf8(gitea(q("acme/meta"), q("refs/heads/gone"), q(m), q(ZERO))));
        out.add(utf8(gitlab(q("tag_push"), q("acme/meta"), q(m), q(ZERO))));
        out.add(utf8(gitea(q("ghost/deleted"), q("refs/heads/gone"), q(m), q(ZERO))));
        return out;
    }

    private static Function<Random, Hostile> kind(String name, String reason, Function<Random, String> json) {
        return kind(name, Set.of(reason), json);
    }

    private static Function<Random, Hostile> kind(String name, Set<String> reasons, Function<Random, String> json) {
        return r -> new Hostile(name, utf8(json.apply(r)), reasons);
    }

    /** Gerrit's {@code ref-updated}; each argument is a JSON value, or {@code null} to leave the field out. */
    private static String gerrit(String project, String refName, String oldRev, String newRev) {
        return "{\"type\":\"ref-updated\",\"refUpdate\":{" + fields("oldRev", oldRev, "newRev", newRev, "refName", refName,
                "project", project) + "},\"submitter\":{\"name\":\"A\",\"username\":\"a\"},\"eventCreatedOn\":1700000000}";
    }

    private static String gitea(String fullName, String ref, String before, String after) {
        return "{" + fields("ref", ref, "before", before, "after", after) + ",\"repository\":{"
                + fields("full_name", fullName, "name", q("web")) + "},\"pusher\":{\"login\":\"alice\"}}";
    }

    private static String gitlab(String kind, String path, String before, String after) {
        return "{" + fields("object_kind", kind, "ref", q("refs/heads/main"), "before", before, "after", after,
                "user_username", q("carol")) + ",\"project\":{" + fields("path_with_namespace", path) + "}}";
    }

    private static String fields(String... nameValue) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < nameValue.length; i += 2) {
            if (nameValue[i + 1] != null) {
                b.append(b.isEmpty() ? "" : ",").append('"').append(nameValue[i]).append("\":").append(nameValue[i + 1]);
            }
        }
        return b.toString();
    }

    /** A JSON string of {@code s}, which is written as it goes in: escapes in it stay JSON escapes. */
    private static String q(String s) {
        return "\"" + s + "\"";
    }

    private static String pick(Random r, String... options) {
        return options[r.nextInt(options.length)];
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
