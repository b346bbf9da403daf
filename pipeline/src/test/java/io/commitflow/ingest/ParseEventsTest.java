package io.commitflow.ingest;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.DeadLetter;
import io.commitflow.event.Origin;
import io.commitflow.event.PushEvent;
import io.commitflow.event.RawRecord;
import io.commitflow.event.Reason;
import io.commitflow.event.WireFormat;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class ParseEventsTest {
    private static final String SHA = "0123456789abcdef0123456789abcdef01234567";
    private static final String SHA2 = "89abcdef0123456789abcdef0123456789abcdef";
    private static final int MAX_BYTES = 64 * 1024;

    private OneInputStreamOperatorTestHarness<RawRecord, CommitEvent> harness;
    private long offset;

    @BeforeEach
    void open() throws Exception {
        harness = ProcessFunctionTestHarnesses.forProcessFunction(new ParseEvents(MAX_BYTES));
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    @Test
    void parsesNativeCommitEvent() throws Exception {
        send("{\"type\":\"commit\",\"tenant\":\"acme\",\"repo\":\"tools/git\",\"sha\":\"" + SHA.toUpperCase()
                + "\",\"parents\":[\"" + SHA2 + "\"],\"author\":\"A U Thor <a@example.com>\",\"ts\":1700000000000,"
                + "\"message\":\"Fix the thing\\n\",\"traceId\":\"abc-123\",\"extra\":{\"ignored\":true}}");

        assertThat(harness.extractOutputValues()).singleElement().satisfies(c -> {
            assertThat(c.tenant()).isEqualTo("acme");
            assertThat(c.repo()).isEqualTo("tools/git");
            assertThat(c.sha()).isEqualTo(SHA);
            assertThat(c.parents()).containsExactly(SHA2);
            assertThat(c.ts()).isEqualTo(1_700_000_000_000L);
            assertThat(c.message()).isEqualTo("Fix the thing\n");
            assertThat(c.patch()).isNull();
            assertThat(c.traceId()).isEqualTo("abc-123");
            assertThat(c.origin().offset()).isEqualTo(0L);
        });
        assertThat(deadLetters()).isEmpty();
    }

    @Test
    void aRepositoryNameLosesItsGitSuffixOnceSoThatAppAndAppGitAreOneRepository() throws Exception {
        for (String name : new String[] {"team/app.git", "team/app", "team/App.git", "team/.git.git", "x.git/app.git"}) {
            send("{\"type\":\"commit\",\"repo\":\"" + name + "\",\"sha\":\"" + SHA + "\"}");
        }
        send("{\"type\":\"push\",\"repo\":\"team/app.git\",\"ref\":\"refs/heads/main\",\"before\":\"" + SHA
                + "\",\"after\":\"" + SHA2 + "\"}");

        assertThat(harness.extractOutputValues()).extracting(CommitEvent::repo)
                .containsExactly("team/app", "team/app", "team/App", "team/.git", "x.git/app");
        assertThat(harness.getSideOutput(ParseEvents.PUSHES)).extracting(r -> r.getValue().repo()).containsExactly("team/app");
        assertThat(deadLetters()).isEmpty();
    }

    @Test
    void fillsDefaultsForOptionalFields() throws Exception {
        send("{\"type\":\"commit\",\"repo\":\"r\",\"sha\":\"" + SHA + "\"}");

        CommitEvent c = harness.extractOutputValues().get(0);
        assertThat(c.tenant()).isEqualTo("default");
        assertThat(c.parents()).isEmpty();
        assertThat(c.ts()).as("Kafka timestamp when ts is absent").isEqualTo(1_000L);
        assertThat(c.traceId()).hasSize(32).isEqualTo(c.origin().derivedTraceId());
    }

    @Test
    void readsADraftWithItsPatchAndTraceId() throws Exception {
        send(new String(WireFormat.draft("acme", "team/app.git", SHA, 5L, "diff --git a/x b/x\n", "0af7651916cd43dd8448eb211c80319c"),
                java.nio.charset.StandardCharsets.UTF_8));
        send("{\"type\":\"commit\",\"repo\":\"r\",\"sha\":\"" + SHA + "\",\"draft\":false}");

        assertThat(harness.extractOutputValues()).hasSize(2).first().satisfies(c -> {
            assertThat(c.draft()).isTrue();
            assertThat(c.patch()).isEqualTo("diff --git a/x b/x\n");
            assertThat(c.message()).isNull();
            assertThat(c.traceId()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
            assertThat(c.repo()).as("normalised, as every event's").isEqualTo("team/app");
        });
        assertThat(harness.extractOutputValues().get(1).draft()).isFalse();
    }

    @Test
    void continuesTheTraceOfATraceparentHeaderBeforeTheEventsOwnTraceId() throws Exception {
        String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
        String header = "00-" + trace + "-00f067aa0ba902b7-01";
        harness.processElement(new RawRecord(origin().withTraceContext(header, null), null, ("{\"type\":\"commit\",\"repo\":\"r\","
                + "\"sha\":\"" + SHA + "\",\"traceId\":\"abc-123\"}").getBytes(StandardCharsets.UTF_8)), 1);
        harness.processElement(new RawRecord(origin().withTraceContext("not a traceparent", null), null, ("{\"type\":\"commit\","
                + "\"repo\":\"r\",\"sha\":\"" + SHA + "\",\"traceId\":\"abc-123\"}").getBytes(StandardCharsets.UTF_8)), 1);
        harness.processElement(new RawRecord(origin().withTraceContext(header, null), null, "{oops".getBytes(StandardCharsets.UTF_8)), 1);

        assertThat(harness.extractOutputValues()).extracting(CommitEvent::traceId).containsExactly(trace, "abc-123");
        assertThat(harness.extractOutputValues().get(0).origin().traceparent()).isEqualTo(header);
        assertThat(deadLetters()).singleElement().satisfies(d -> assertThat(d.traceId()).isEqualTo(trace));
    }

    @Test
    void acceptsIsoTimestamps() throws Exception {
        send("{\"type\":\"commit\",\"repo\":\"r\",\"sha\":\"" + SHA + "\",\"ts\":\"2024-01-02T03:04:05+01:00\"}");

        assertThat(harness.extractOutputValues().get(0).ts()).isEqualTo(1_704_161_045_000L);
    }

    @Test
    void routesPushesToTheirSideOutput() throws Exception {
        send("{\"type\":\"push\",\"repo\":\"r\",\"ref\":\"refs/heads/main\",\"before\":\"" + SHA + "\",\"after\":\"" + SHA2
                + "\",\"pusher\":\"alice\"}");

        assertThat(harness.extractOutputValues()).isEmpty();
        List<PushEvent> pushes = harness.getSideOutput(ParseEvents.PUSHES).stream().map(StreamRecord::getValue).toList();
        assertThat(pushes).singleElement().satisfies(p -> {
            assertThat(p.ref()).isEqualTo("refs/heads/main");
            assertThat(p.before()).isEqualTo(SHA);
            assertThat(p.after()).isEqualTo(SHA2);
            assertThat(p.createsRef()).isFalse();
            assertThat(p.deletesRef()).isFalse();
        });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "not JSON                 | {\"type\":                                              | NOT_JSON",
        "trailing garbage         | {\"type\":\"commit\"} x                                 | NOT_JSON",
        "array                    | [1,2]                                                   | NOT_OBJECT",
        "string                   | `\"commit\"`                                            | NOT_OBJECT",
        "no type                  | {\"repo\":\"r\"}                                        | MISSING_FIELD",
        "unknown type             | {\"type\":\"tag\"}                                      | UNKNOWN_TYPE",
        "numeric type             | {\"type\":7}                                            | WRONG_TYPE",
        "no repo                  | {\"type\":\"commit\",\"sha\":\"SHA\"}                   | MISSING_FIELD",
        "no sha                   | {\"type\":\"commit\",\"repo\":\"r\"}                    | MISSING_FIELD",
        "null sha                 | {\"type\":\"commit\",\"repo\":\"r\",\"sha\":null}       | MISSING_FIELD",
        "short sha                | {\"type\":\"commit\",\"repo\":\"r\",\"sha\":\"abc123\"} | INVALID_FIELD",
        "non-hex sha              | {\"type\":\"commit\",\"repo\":\"r\",\"sha\":\"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\"} | INVALID_FIELD",
        "numeric repo             | {\"type\":\"commit\",\"repo\":42,\"sha\":\"SHA\"}       | WRONG_TYPE",
        "absolute repo            | {\"type\":\"commit\",\"repo\":\"/etc\",\"sha\":\"SHA\"}  | BAD_REPO_NAME",
        "dot-dot repo             | {\"type\":\"commit\",\"repo\":\"a/../../b\",\"sha\":\"SHA\"} | BAD_REPO_NAME",
        "control char in repo     | {\"type\":\"commit\",\"repo\":\"a\\u0000b\",\"sha\":\"SHA\"} | BAD_REPO_NAME",
        "lone surrogate in repo   | {\"type\":\"commit\",\"repo\":\"app\\ud800\",\"sha\":\"SHA\"} | BAD_REPO_NAME",
        "backslash in repo        | {\"type\":\"commit\",\"repo\":\"a\\\\..\\\\b\",\"sha\":\"SHA\"} | BAD_REPO_NAME",
        "empty repo               | {\"type\":\"commit\",\"repo\":\"\",\"sha\":\"SHA\"}     | BAD_REPO_NAME",
        "bad tenant               | {\"type\":\"commit\",\"tenant\":\"a b\",\"repo\":\"r\",\"sha\":\"SHA\"} | INVALID_FIELD",
        "parents not array        | {\"type\":\"commit\",\"repo\":\"r\",\"sha\":\"SHA\",\"parents\":\"SHA\"} | WRONG_TYPE",
        "bad parent               | {\"type\":\"commit\",\"repo\":\"r\",\"sha\":\"SHA\",\"parents\":[\"x\"]} | INVALID_FIELD",
        "negative ts              | {\"type\":\"commit\",\"repo\":\"r\",\"sha\":\"SHA\",\"ts\":-5} | INVALID_FIELD",
        "float ts                 | {\"type\":\"commit\",\"repo\":\"r\",\"sha\":\"SHA\",\"ts\":1.5} | WRONG_TYPE",
        "bad ts string            | {\"type\":\"commit\",\"repo\":\"r\",\"sha\":\"SHA\",\"ts\":\"yesterday\"} | INVALID_FIELD",
        "message not string       | {\"type\":\"commit\",\"repo\":\"r\",\"sha\":\"SHA\",\"message\":{}} | WRONG_TYPE",
        "trace id with spaces     | {\"type\":\"commit\",\"repo\":\"r\",\"sha\":\"SHA\",\"traceId\":\"a b\"} | INVALID_FIELD",
        "draft without patch      | {\"type\":\"commit\",\"draft\":true,\"repo\":\"r\",\"sha\":\"SHA\"} | MISSING_FIELD",
        "draft with a message     | {\"type\":\"commit\",\"draft\":true,\"repo\":\"r\",\"sha\":\"SHA\",\"patch\":\"\",\"message\":\"m\"} | INVALID_FIELD",
        "draft not boolean        | {\"type\":\"commit\",\"draft\":\"yes\",\"repo\":\"r\",\"sha\":\"SHA\",\"patch\":\"\"} | WRONG_TYPE",
        "push without ref         | {\"type\":\"push\",\"repo\":\"r\",\"before\":\"SHA\",\"after\":\"SHA\"} | MISSING_FIELD",
        "push with short ref      | {\"type\":\"push\",\"repo\":\"r\",\"ref\":\"main\",\"before\":\"SHA\",\"after\":\"SHA\"} | INVALID_FIELD",
        "push with bad after      | {\"type\":\"push\",\"repo\":\"r\",\"ref\":\"refs/heads/x\",\"before\":\"SHA\",\"after\":\"HEAD\"} | INVALID_FIELD",
    })
    void rejectsInvalidEventWithReason(String name, String json, Reason reason) throws Exception {
        send(json.replace("SHA", SHA));

        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(deadLetters()).singleElement().satisfies(d -> {
            assertThat(d.reason()).isEqualTo(reason.name());
            assertThat(d.detail()).isNotBlank();
            assertThat(d.stage()).isEqualTo("parse");
            assertThat(d.raw()).isEqualTo(json.replace("SHA", SHA));
            assertThat(d.origin().partition()).isEqualTo(3);
            assertThat(d.origin().offset()).isEqualTo(0L);
        });
    }

    @Test
    void rejectsEmptyAndNullValues() throws Exception {
        harness.processElement(new RawRecord(origin(), null, null), 1);
        harness.processElement(new RawRecord(origin(), null, new byte[0]), 1);

        assertThat(deadLetters()).extracting(DeadLetter::reason).containsExactly("EMPTY", "EMPTY");
    }

    @Test
    void rejectsOversizedRecordWithoutParsingIt() throws Exception {
        String huge = "{\"type\":\"commit\",\"repo\":\"r\",\"sha\":\"" + SHA + "\",\"patch\":\"" + "x".repeat(MAX_BYTES) + "\"}";
        send(huge);

        DeadLetter d = deadLetters().get(0);
        assertThat(d.reason()).isEqualTo("TOO_LARGE");
        assertThat(d.detail()).contains(String.valueOf(huge.length()), String.valueOf(MAX_BYTES));
        assertThat(d.raw()).hasSizeLessThanOrEqualTo(4096);
    }

    @Test
    void rejectsDeepNesting() throws Exception {
        String deep = "{\"type\":\"commit\",\"x\":" + "[".repeat(1000) + "]".repeat(1000) + "}";
        send(deep);

        assertThat(deadLetters()).singleElement().satisfies(d -> {
            assertThat(d.reason()).isEqualTo("NOT_JSON");
            assertThat(d.detail()).containsIgnoringCase("nesting");
        });
    }

    @Test
    void rejectsInvalidUtf8() throws Exception {
        byte[] bad = {'{', '"', 't', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
        harness.processElement(new RawRecord(origin(), null, bad), 1);

        assertThat(deadLetters()).extracting(DeadLetter::reason).containsExactly("NOT_JSON");
    }

    @Test
    void keepsContextOfRejectedEventForOperators() throws Exception {
        send("{\"type\":\"commit\",\"tenant\":\"acme\",\"repo\":\"r\",\"sha\":\"nope\",\"traceId\":\"t-1\"}");

        DeadLetter d = deadLetters().get(0);
        assertThat(d.tenant()).isEqualTo("acme");
        assertThat(d.repo()).isEqualTo("r");
        assertThat(d.sha()).isEqualTo("nope");
        assertThat(d.traceId()).isEqualTo("t-1");
        assertThat(d.detail()).contains("sha must be 40 or 64 hex digits");
    }

    @Test
    void countsEveryRecordExactlyOnce() throws Exception {
        send("{\"type\":\"commit\",\"repo\":\"r\",\"sha\":\"" + SHA + "\"}");
        send("{\"type\":\"push\",\"repo\":\"r\",\"ref\":\"refs/heads/m\",\"before\":\"" + SHA + "\",\"after\":\"" + SHA2 + "\"}");
        send("garbage");

        assertThat(harness.extractOutputValues()).hasSize(1);
        assertThat(harness.getSideOutput(ParseEvents.PUSHES)).hasSize(1);
        assertThat(deadLetters()).hasSize(1);
    }

    private void send(String json) throws Exception {
        harness.processElement(new RawRecord(origin(), null, json.getBytes(StandardCharsets.UTF_8)), 1);
    }

    private Origin origin() {
        return new Origin("commitflow.events", 3, offset++, 1_000L);
    }

    private List<DeadLetter> deadLetters() {
        var out = harness.getSideOutput(DeadLetters.TAG);
        return out == null ? List.of() : out.stream().map(StreamRecord::getValue).collect(Collectors.toList());
    }
}
