package io.commitflow.cli;

import io.commitflow.event.EventParser;
import io.commitflow.event.Origin;
import io.commitflow.event.RawRecord;
import io.commitflow.event.WireFormat;
import io.commitflow.job.BootstrapOption;
import io.commitflow.job.KafkaPropertiesOption;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** {@code commitflow push-event}: one push event to Kafka, as the post-receive hook sends it. */
@Command(name = "push-event", mixinStandardHelpOptions = true,
        description = {"Publishes one push event (a ref update) to Kafka and waits for the broker's acknowledgement. "
                + "tools/hooks/post-receive calls it for every ref a push updates.",
                "The event is checked with the job's own parser first: what the job would dead-letter is refused here.",
                "Its record carries a W3C traceparent: the environment's TRACEPARENT (and TRACESTATE) when set, else a "
                        + "new trace sampled as OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG say (default: sampled)."},
        footer = {"", "Example: ./commitflow push-event --bootstrap localhost:9092 --tenant acme --repo team/app.git "
                + "--ref refs/heads/main --before 0000…0000 --after 3f2a…"})
public final class PushEventCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    BootstrapOption bootstrapOption = new BootstrapOption();

    @Mixin
    EventsTopicOption topic = new EventsTopicOption();

    @Option(names = "--tenant", defaultValue = "default", paramLabel = "NAME", description = "Tenant (default: ${DEFAULT-VALUE}).")
    String tenant;

    @Option(names = "--repo", required = true, paramLabel = "NAME", description = "Repository name under the job's mirror root.")
    String repo;

    @Option(names = "--ref", required = true, paramLabel = "REF", description = "The updated ref, e.g. refs/heads/main.")
    String ref;

    @Option(names = "--before", required = true, paramLabel = "SHA", description = "The ref's old value (40 zeros: created).")
    String before;

    @Option(names = "--after", required = true, paramLabel = "SHA", description = "The ref's new value (40 zeros: deleted).")
    String after;

    @Option(names = "--pusher", defaultValue = "unknown", paramLabel = "NAME", description = "Who pushed (default: ${DEFAULT-VALUE}).")
    String pusher;

    @Mixin
    KafkaPropertiesOption kafkaProperties = new KafkaPropertiesOption();

    @Override
    public Integer call() throws Exception {
        String bootstrap = bootstrapOption.required(spec);
        String eventsTopic = topic.name(); // a name it cannot use is refused before Kafka is asked
        Map<String, String> properties = kafkaProperties.properties();
        long now = System.currentTimeMillis();
        byte[] value = WireFormat.push(tenant, repo, ref, before, after, pusher, now);
        var parsed = new EventParser(EventParser.DEFAULT_MAX_EVENT_BYTES)
                .parse(new RawRecord(Origin.synthetic(now), null, value));
        if (parsed instanceof EventParser.Result.Rejected r) {
            throw new UserError("not a valid push event: " + r.deadLetter().reason() + ": " + r.deadLetter().detail());
        }
        KafkaReach.require(bootstrap, properties, KafkaReach.DEFAULT_WAIT);
        try (KafkaProducer<byte[], byte[]> producer = eventProducer(bootstrap, "commitflow-push-event", properties)) {
            ProducerTrace trace = ProducerTrace.of(System.getenv());
            ProducerRecord<byte[], byte[]> record = eventRecord(eventsTopic, repo, now, value, trace);
            var meta = producer.send(record).get(45, TimeUnit.SECONDS);
            spec.commandLine().getOut().printf("sent %s %s..%s of %s to %s-%d@%d, trace %s%n", ref, before, after, repo,
                    meta.topic(), meta.partition(), meta.offset(), trace.traceId());
            return 0;
        }
    }

    /**
     * A producer of events as the Git servers' hooks send them: every replica acknowledges, idempotent, and a
     * broker's hiccup retried for up to 30 s.
     */
    static KafkaProducer<byte[], byte[]> eventProducer(String bootstrap, String clientId, Map<String, String> properties) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        p.putAll(properties);
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** An event's record: keyed by its repository, so that a repository's events keep their order, and traced. */
    static ProducerRecord<byte[], byte[]> eventRecord(String topic, String repo, long ts, byte[] value, ProducerTrace trace) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, null, ts, repo.getBytes(StandardCharsets.UTF_8), value);
        trace.addTo(record.headers());
        return record;
    }
}
