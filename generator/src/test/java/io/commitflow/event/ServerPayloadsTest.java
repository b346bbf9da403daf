package io.commitflow.event;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The push notifications of Gerrit, Gitea and GitLab, in the shapes those servers publish. */
class ServerPayloadsTest {
    private static final String OLD = "95790bf891e76fee5e1747ab589903a6a1f80f22";
    private static final String NEW = "da1560886d4f094c3e6c9ef40349f7d38b5d27d7";
    private final EventParser parser = new EventParser(EventParser.DEFAULT_MAX_EVENT_BYTES);

    private EventParser.Result parse(String json) {
        return parser.parse(new RawRecord(new Origin("git-events", 1, 42, 1_700_000_000_123L), null,
                json.getBytes(StandardCharsets.UTF_8)));
    }

    private PushEvent push(String json) {
        EventParser.Result r = parse(json);
        assertThat(r).as(String.valueOf(r)).isInstanceOf(EventParser.Result.Push.class);
        return ((EventParser.Result.Push) r).event();
    }

    private DeadLetter rejected(String json) {
        EventParser.Result r = parse(json);
        assertThat(r).isInstanceOf(EventParser.Result.Rejected.class);
        return ((EventParser.Result.Rejected) r).deadLetter();
    }

    @Test
    void readsGerritRefUpdated() {
        PushEvent p = push("""
                {"submitter":{"name":"Administrator","email":"admin@example.com","username":"admin"},
                 "refUpdate":{"oldRev":"%s","newRev":"%s","refName":"refs/heads/master","project":"platform/infra"},
                 "type":"ref-updated","eventCreatedOn":1596732123}
                """.formatted(OLD, NEW));

        assertThat(p.repo()).isEqualTo("platform/infra");
        assertThat(p.ref()).isEqualTo("refs/heads/master");
        assertThat(p.before()).isEqualTo(OLD);
        assertThat(p.after()).isEqualTo(NEW);
        assertThat(p.pusher()).isEqualTo("admin");
        assertThat(p.ts()).isEqualTo(1_596_732_123_000L);
        assertThat(p.tenant()).isEqualTo("platform");
    }

    @Test
    void readsOldGerritShortBranchNamesAndNewBranches() {
        PushEvent p = push("""
                {"type":"ref-updated","refUpdate":{"oldRev":"0000000000000000000000000000000000000000",
                 "newRev":"%s","refName":"stable-3.9","project":"gerrit"}}
                """.formatted(NEW));

        assertThat(p.ref()).isEqualTo("refs/heads/stable-3.9");
        assertThat(p.createsRef()).isTrue();
        assertThat(p.tenant()).isEqualTo("default");
        assertThat(p.ts()).as("Kafka timestamp without eventCreatedOn").isEqualTo(1_700_000_000_123L);
    }

    @Test
    void marksGerritNoteDbUpdatesAsMetadata() {
        assertThat(push("""
                {"type":"ref-updated","refUpdate":{"oldRev":"%s","newRev":"%s","refName":"refs/changes/34/1234/meta",
                 "project":"gerrit"}}""".formatted(OLD, NEW)).metadataRef()).isTrue();
        assertThat(push("""
                {"type":"ref-updated","refUpdate":{"oldRev":"%s","newRev":"%s","refName":"refs/changes/34/1234/2",
                 "project":"gerrit"}}""".formatted(OLD, NEW)).metadataRef()).isFalse();
    }

    @Test
    void readsGiteaPushWebhook() {
        PushEvent p = push("""
                {"ref":"refs/heads/develop","before":"%s","after":"%s","compare_url":"http://localhost:3000/",
                 "commits":[{"id":"%s","message":"commit message","url":"http://x","author":{"name":"gitea"}}],
                 "total_commits":1,
                 "repository":{"id":140,"owner":{"id":1,"login":"gitea","username":"gitea"},"name":"webhooks",
                  "full_name":"gitea/webhooks","private":false},
                 "pusher":{"id":1,"login":"gitea","username":"gitea"},"sender":{"id":1,"login":"gitea"}}
                """.formatted(OLD, NEW, NEW));

        assertThat(p.repo()).isEqualTo("gitea/webhooks");
        assertThat(p.ref()).isEqualTo("refs/heads/develop");
        assertThat(p.after()).isEqualTo(NEW);
        assertThat(p.pusher()).isEqualTo("gitea");
        assertThat(p.tenant()).isEqualTo("gitea");
    }

    @Test
    void readsGitLabPushAndTagPush() {
        PushEvent p = push("""
                {"object_kind":"push","event_name":"push","before":"%s","after":"%s","ref":"refs/heads/master",
                 "checkout_sha":"%s","user_id":4,"user_name":"John Smith","user_username":"jsmith",
                 "user_email":"john@example.com","project_id":15,
                 "project":{"id":15,"name":"Diaspora","path_with_namespace":"Mike/diaspora","namespace":"Mike"},
                 "commits":[],"total_commits_count":4}
                """.formatted(OLD, NEW, NEW));

        assertThat(p.repo()).isEqualTo("Mike/diaspora");
        assertThat(p.pusher()).isEqualTo("jsmith");
        assertThat(p.tenant()).as("namespace as tenant, in the tenant alphabet").isEqualTo("mike");

        PushEvent tag = push("""
                {"object_kind":"tag_push","before":"0000000000000000000000000000000000000000","after":"%s",
                 "ref":"refs/tags/v1.0.0","user_name":"John Smith","project":{"path_with_namespace":"jsmith/example"}}
                """.formatted(NEW));
        assertThat(tag.ref()).isEqualTo("refs/tags/v1.0.0");
        assertThat(tag.pusher()).isEqualTo("John Smith");
    }

    @Test
    void prefersAnExplicitTenant() {
        PushEvent p = push("""
                {"object_kind":"push","tenant":"acme","before":"%s","after":"%s","ref":"refs/heads/main",
                 "project":{"path_with_namespace":"group/sub/app"}}""".formatted(OLD, NEW));

        assertThat(p.tenant()).isEqualTo("acme");
        assertThat(p.repo()).isEqualTo("group/sub/app");
    }

    @Test
    void rejectsOtherGitLabEventsAndBrokenPayloadsWithReasons() {
        assertThat(rejected("{\"object_kind\":\"merge_request\",\"project\":{}}").reason()).isEqualTo("UNKNOWN_TYPE");
        assertThat(rejected("{\"type\":\"ref-updated\",\"refUpdate\":\"x\"}").reason()).isEqualTo("WRONG_TYPE");
        DeadLetter missing = rejected("{\"type\":\"ref-updated\",\"refUpdate\":{\"oldRev\":\"" + OLD + "\",\"refName\":\"m\",\"project\":\"p\"}}");
        assertThat(missing.reason()).isEqualTo("MISSING_FIELD");
        assertThat(missing.detail()).contains("refUpdate.newRev");
        assertThat(rejected("""
                {"ref":"refs/heads/x","before":"%s","after":"%s","repository":{"full_name":"../../etc"}}
                """.formatted(OLD, NEW)).reason()).isEqualTo("BAD_REPO_NAME");
        assertThat(rejected("""
                {"object_kind":"push","before":"%s","after":"not-a-sha","ref":"refs/heads/x",
                 "project":{"path_with_namespace":"a/b"}}""".formatted(OLD)).reason()).isEqualTo("INVALID_FIELD");
        assertThat(rejected("{\"ref\":\"refs/heads/x\"}").reason()).as("no type, not a known payload").isEqualTo("MISSING_FIELD");
    }
}
