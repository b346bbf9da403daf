package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The manifests of {@code flink-conf/kubernetes/} fit together and fit the job: the topics are the job's, the Kafka
 * users may do what the job and the mirror service do on them, the job's TaskManagers mount the volume the mirror
 * service writes where their {@code --mirror-root} points, and every secret a pod reads is one a manifest makes (or
 * Strimzi makes for a KafkaUser or its cluster). {@link ManifestSchemaTest} checks each manifest's form.
 */
class ClusterManifestsTest {
    private static final Path MANIFESTS = Path.of("..", "flink-conf", "kubernetes");
    /** Secrets the Strimzi cluster operator makes for the Kafka cluster "kafka" (its CA certificate). */
    private static final Set<String> STRIMZI_CLUSTER_SECRETS = Set.of("kafka-cluster-ca-cert");

    @Test
    void theTopicsAreTheJobsAndTheUsersMayUseThem() throws IOException {
        Map<String, JsonNode> topics = new HashMap<>();
        for (JsonNode t : ofKind("KafkaTopic")) {
            topics.put(t.path("spec").path("topicName").asText(), t);
            assertThat(t.path("metadata").path("labels").path("strimzi.io/cluster").asText()).isEqualTo("kafka");
        }
        String events = JobConfig.KAFKA_EVENTS_TOPIC.defaultValue();
        String requests = JobConfig.KAFKA_REQUESTS_TOPIC.defaultValue();
        List<String> outputs = List.of(JobConfig.KAFKA_SUGGESTIONS_TOPIC.defaultValue(),
                JobConfig.KAFKA_REPLIES_TOPIC.defaultValue(), JobConfig.KAFKA_DLQ_TOPIC.defaultValue(),
                JobConfig.KAFKA_SLA_TOPIC.defaultValue());
        List<String> all = new ArrayList<>(List.of(events, requests));
        all.addAll(outputs);
        assertThat(topics.keySet()).containsExactlyInAnyOrderElementsOf(all);
        int parallelism = only("FlinkDeployment").path("spec").path("job").path("parallelism").asInt();
        assertThat(topics.get(events).path("spec").path("partitions").asInt() % parallelism)
                .as("the events spread evenly over the job's source subtasks").isZero();

        Map<String, Map<String, Set<String>>> users = new HashMap<>();
        for (JsonNode u : ofKind("KafkaUser")) {
            Map<String, Set<String>> acls = new HashMap<>();
            for (JsonNode acl : u.path("spec").path("authorization").path("acls")) {
                JsonNode r = acl.path("resource");
                assertThat(r.path("name").asText()).as("no wildcard").isNotIn("*", "");
                Set<String> ops = new HashSet<>();
                acl.path("operations").forEach(o -> ops.add(o.asText()));
                assertThat(ops).as("no All").doesNotContain("All");
                acls.put(r.path("type").asText() + ":" + r.path("name").asText() + ":" + r.path("patternType").asText(), ops);
            }
            users.put(u.path("metadata").path("name").asText(), acls);
        }
        Map<String, Set<String>> job = users.get("commitflow");
        assertThat(job).isNotNull();
        for (String in : List.of(events, requests)) {
            assertThat(job.get("topic:" + in + ":literal")).as(in).contains("Read", "Describe");
        }
        for (String out : outputs) {
            assertThat(job.get("topic:" + out + ":literal")).as(out).contains("Write", "Describe");
        }
        String group = JobConfig.KAFKA_GROUP_ID.defaultValue();
        assertThat(job.get("group:" + group + ":literal")).contains("Read");
        // the sinks' transactional ids: the prefix (by default the group), a dash, the sink's name, …
        assertThat(job.get("transactionalId:" + group + "-:prefix")).contains("Write", "Describe");
        assertThat(job).hasSize(all.size() + 2);

        Map<String, Set<String>> mirror = users.get("commitflow-mirror");
        assertThat(mirror.get("topic:" + events + ":literal")).contains("Read");
        assertThat(mirror.keySet()).noneMatch(k -> k.startsWith("transactionalId:") || outputs.stream().anyMatch(k::contains));
    }

    @Test
    void theJobReadsTheMirrorsTheMirrorServiceWrites() throws IOException {
        JsonNode claim = only("PersistentVolumeClaim");
        assertThat(claim.path("spec").path("accessModes").toString()).contains("ReadWriteMany");
        String name = claim.path("metadata").path("name").asText();

        JsonNode flink = only("FlinkDeployment");
        JsonNode flinkPod = flink.path("spec").path("podTemplate").path("spec");
        JsonNode flinkMount = mountOf(flinkPod, name);
        assertThat(flinkMount.path("readOnly").asBoolean()).as("the job only reads the mirrors").isTrue();
        assertThat(arg(flink.path("spec").path("job").path("args"), "--mirror-root"))
                .isEqualTo(flinkMount.path("mountPath").asText());

        JsonNode mirror = only("Deployment");
        JsonNode mirrorPod = mirror.path("spec").path("template").path("spec");
        JsonNode mirrorMount = mountOf(mirrorPod, name);
        assertThat(mirrorMount.path("readOnly").asBoolean()).isFalse();
        JsonNode container = mirrorPod.path("containers").get(0);
        assertThat(container.path("args").get(0).asText()).isEqualTo("mirror");
        assertThat(arg(container.path("args"), "--mirror-root")).isEqualTo(mirrorMount.path("mountPath").asText());
        assertThat(arg(container.path("args"), "--bootstrap"))
                .isEqualTo(arg(flink.path("spec").path("job").path("args"), "--bootstrap"));
        assertThat(mirror.path("spec").path("replicas").asInt()).as("one writer per mirror root").isEqualTo(1);

        // the Service and the PodMonitor find the mirror service's metrics port by its name
        Map<String, Integer> ports = new HashMap<>();
        container.path("ports").forEach(p -> ports.put(p.path("name").asText(), p.path("containerPort").asInt()));
        assertThat(ports.get("metrics")).isEqualTo(Integer.parseInt(arg(container.path("args"), "--metrics-port")));
        JsonNode service = only("Service");
        Map<String, String> podLabels = strings(mirror.path("spec").path("template").path("metadata").path("labels"));
        assertThat(podLabels).containsAllEntriesOf(strings(service.path("spec").path("selector")));
        assertThat(service.path("spec").path("ports").get(0).path("targetPort").asText()).isEqualTo("metrics");
        JsonNode monitor = only("PodMonitor");
        assertThat(podLabels).containsAllEntriesOf(strings(monitor.path("spec").path("selector").path("matchLabels")))
                .containsEntry(monitor.path("spec").path("jobLabel").asText(), "commitflow-mirror");
    }

    @Test
    void everySecretAPodReadsIsMadeByAManifestOrByStrimzi() throws IOException {
        Map<String, Set<String>> made = new HashMap<>(); // secret name to its keys
        for (JsonNode s : ofKind("Secret")) {
            Set<String> keys = new HashSet<>();
            s.path("stringData").fieldNames().forEachRemaining(keys::add);
            made.put(s.path("metadata").path("name").asText(), keys);
        }
        for (JsonNode u : ofKind("KafkaUser")) { // Strimzi's user operator writes these two keys for a SCRAM user
            made.put(u.path("metadata").path("name").asText(), Set.of("password", "sasl.jaas.config"));
        }
        List<JsonNode> pods = List.of(only("FlinkDeployment").path("spec").path("podTemplate").path("spec"),
                only("Deployment").path("spec").path("template").path("spec"));
        int refs = 0;
        for (JsonNode pod : pods) {
            for (JsonNode c : pod.path("containers")) {
                for (JsonNode e : c.path("env")) {
                    JsonNode ref = e.path("valueFrom").path("secretKeyRef");
                    if (!ref.isMissingNode()) {
                        assertThat(made.get(ref.path("name").asText())).as(e.path("name").asText())
                                .contains(ref.path("key").asText());
                        refs++;
                    }
                }
            }
            for (JsonNode v : pod.path("volumes")) {
                JsonNode secret = v.path("secret");
                if (!secret.isMissingNode() && !secret.path("optional").asBoolean()) {
                    assertThat(secret.path("secretName").asText()).isIn(STRIMZI_CLUSTER_SECRETS);
                }
            }
        }
        assertThat(refs).isEqualTo(4);
    }

    private static JsonNode mountOf(JsonNode pod, String claim) {
        String volume = null;
        for (JsonNode v : pod.path("volumes")) {
            if (v.path("persistentVolumeClaim").path("claimName").asText().equals(claim)) {
                volume = v.path("name").asText();
            }
        }
        assertThat(volume).as("a volume of claim " + claim).isNotNull();
        for (JsonNode m : pod.path("containers").get(0).path("volumeMounts")) {
            if (m.path("name").asText().equals(volume)) {
                return m;
            }
        }
        throw new AssertionError("volume " + volume + " is not mounted");
    }

    /** The value of {@code --flag=value} in a list of arguments. */
    private static String arg(JsonNode args, String flag) {
        for (JsonNode a : args) {
            if (a.asText().startsWith(flag + "=")) {
                return a.asText().substring(flag.length() + 1);
            }
        }
        throw new AssertionError("no " + flag + " in " + args);
    }

    private static List<JsonNode> ofKind(String kind) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        for (Path f : ManifestSchemaTest.manifests()) {
            for (JsonNode d : ManifestSchemaTest.documents(f)) {
                if (d.path("kind").asText().equals(kind)) {
                    docs.add(d);
                }
            }
        }
        assertThat(docs).as(kind).isNotEmpty();
        return docs;
    }

    private static JsonNode only(String kind) throws IOException {
        List<JsonNode> docs = ofKind(kind);
        assertThat(docs).as("one " + kind).hasSize(1);
        return docs.get(0);
    }

    private static Map<String, String> strings(JsonNode object) {
        Map<String, String> map = new HashMap<>();
        object.properties().forEach(e -> map.put(e.getKey(), e.getValue().asText()));
        return map;
    }
}
