package io.commitflow.event;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A tenant decided by the topic its record came from, and keys that keep two tenants' repositories apart. */
class TenantsTest {
    private static final String SHA = "95790bf891e76fee5e1747ab589903a6a1f80f22";
    private static final String NEW = "da1560886d4f094c3e6c9ef40349f7d38b5d27d7";
    private final EventParser parser = new EventParser(EventParser.DEFAULT_MAX_EVENT_BYTES);

    private static RawRecord record(String topic, String json) {
        return new RawRecord(new Origin(topic, 0, 7, 1_700_000_000_000L), null, json.getBytes(StandardCharsets.UTF_8));
    }

    private static String commit(String tenantField) {
        return "{\"type\":\"commit\"," + tenantField + "\"repo\":\"app\",\"sha\":\"" + SHA + "\",\"ts\":1700000000000}";
    }

    @Test
    void aTopicPerTenantIsReadByPatternAndNamesItsTenant() {
        Tenants.Source events = new Tenants.Source("commitflow.events.{tenant}");

        assertThat(events.tenantOf("commitflow.events.acme")).isEqualTo("acme");
        assertThat(events.tenantOf("commitflow.events.team-2.eu")).isEqualTo("team-2.eu");
        assertThat(events.tenantOf("commitflow.events.")).isNull();
        assertThat(events.tenantOf("commitflowXevents.acme")).as("the fixed part is literal, not a pattern").isNull();
        assertThat(events.tenantOf("commitflow.requests.acme")).isNull();
        assertThat(Tenants.topicOf("commitflow.replies.{tenant}", "acme")).isEqualTo("commitflow.replies.acme");
        assertThat(Tenants.topicOf("commitflow.replies", "acme")).isEqualTo("commitflow.replies");
    }

    @Test
    void topicNamesAreChecked() {
        assertThat(Tenants.checkTopic("--events-topic", "a.{tenant}.events")).isEqualTo("a.{tenant}.events");
        assertThatThrownBy(() -> Tenants.checkTopic("--events-topic", "a.{tenant}.{tenant}"))
                .hasMessageContaining("more than once");
        assertThatThrownBy(() -> Tenants.checkTopic("--dlq-topic", "dead letters"))
                .hasMessageContaining("--dlq-topic").hasMessageContaining("not a Kafka topic name");
        assertThatThrownBy(() -> new Tenants.Source("shared")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void twoTenantsRepositoriesOfOneNameAreTwoKeysWhereEachHasTopicsOfItsOwn() throws Exception {
        CommitEvent a = ((EventParser.Result.Commit) parser.parse(record("t", commit("\"tenant\":\"a\",")))).event();
        CommitEvent b = ((EventParser.Result.Commit) parser.parse(record("t", commit("\"tenant\":\"b\",")))).event();

        assertThat(RepoKeys.PER_TENANT.of(a)).isEqualTo("a/app").isNotEqualTo(RepoKeys.PER_TENANT.of(b));
        assertThat(RepoKeys.PER_TENANT.commit(a)).isNotEqualTo(RepoKeys.PER_TENANT.commit(b));
        // shared topics: one namespace, and the keys of savepoints written before tenants had topics of their own
        assertThat(RepoKeys.GLOBAL.of(a)).isEqualTo("app").isEqualTo(RepoKeys.GLOBAL.of(b));
        assertThat(RepoKeys.GLOBAL.commit(a)).isEqualTo("app\u0000" + SHA);
        assertThat(RepoKeys.forTopic("commitflow.events.{tenant}")).isEqualTo(RepoKeys.PER_TENANT);
        assertThat(RepoKeys.forTopic("commitflow.events")).isEqualTo(RepoKeys.GLOBAL);
    }

    @Test
    void theSourcesTenantIsTheEventsAndAnotherClaimIsADeadLetter() {
        var mine = parser.parse(record("events.acme", commit("\"tenant\":\"acme\",")), "acme");
        var unclaimed = parser.parse(record("events.acme", commit("")), "acme");
        var other = parser.parse(record("events.acme", commit("\"tenant\":\"globex\",")), "acme");

        assertThat(((EventParser.Result.Commit) mine).event().tenant()).isEqualTo("acme");
        assertThat(((EventParser.Result.Commit) unclaimed).event().tenant()).as("no claim: the topic's tenant")
                .isEqualTo("acme");
        assertThat(other).isInstanceOf(EventParser.Result.Rejected.class);
        DeadLetter d = ((EventParser.Result.Rejected) other).deadLetter();
        assertThat(d.reason()).isEqualTo(Reason.WRONG_TENANT.name());
        assertThat(d.detail()).contains("globex").contains("acme");
        assertThat(d.tenant()).as("filed under the tenant whose topic it came from").isEqualTo("acme");
        // the same claim on a shared topic is trusted
        assertThat(((EventParser.Result.Commit) parser.parse(record("events", commit("\"tenant\":\"globex\",")))).event()
                .tenant()).isEqualTo("globex");
    }

    @Test
    void aServersPayloadTakesTheTopicsTenantNotItsPathsFirstSegment() {
        String gerrit = """
                {"refUpdate":{"oldRev":"%s","newRev":"%s","refName":"refs/heads/master","project":"platform/infra"},
                 "type":"ref-updated","eventCreatedOn":1596732123}
                """.formatted(SHA, NEW);

        PushEvent shared = ((EventParser.Result.Push) parser.parse(record("events", gerrit))).event();
        PushEvent own = ((EventParser.Result.Push) parser.parse(record("events.acme", gerrit), "acme")).event();

        assertThat(shared.tenant()).isEqualTo("platform");
        assertThat(own.tenant()).isEqualTo("acme");
        assertThat(RepoKeys.PER_TENANT.of(own)).isEqualTo("acme/platform/infra");
    }

    @Test
    void aRecordThatIsNotJsonIsStillItsTopicsTenantsDeadLetter() {
        var r = parser.parse(record("events.acme", "not json"), "acme");

        assertThat(((EventParser.Result.Rejected) r).deadLetter().tenant()).isEqualTo("acme");
        assertThat(((EventParser.Result.Rejected) parser.parse(record("events", "not json"))).deadLetter().tenant())
                .isEmpty();
    }
}
