package io.commitflow.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Kubernetes manifest under {@code flink-conf/kubernetes/} is valid against the schema its API publishes,
 * shipped under {@code src/test/resources/kubernetes-schemas/} (its README names each source and version): the Kubernetes
 * core and apps objects against yannh/kubernetes-json-schema's strict schemas, the custom resources against the
 * {@code openAPIV3Schema} of the operators' CRDs. A CRD's schema admits fields it does not name (the API server prunes
 * them silently), so every object schema that names its fields and does not keep unknown ones
 * ({@code x-kubernetes-preserve-unknown-fields}) is made strict here, as {@code kubectl apply --validate=strict} is:
 * a misspelt field would otherwise vanish from the applied object without a word. Nothing here talks to a cluster:
 * CEL rules ({@code x-kubernetes-validations}), admission webhooks and the operators' own checks are not run.
 */
class ManifestSchemaTest {
    private static final Path MANIFESTS = Path.of("..", "flink-conf", "kubernetes");
    private static final Path SCHEMAS = Path.of("src", "test", "resources", "kubernetes-schemas");
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4);

    /** "apiVersion kind" to its schema. */
    private static final Map<String, JsonSchema> BY_TYPE = new LinkedHashMap<>();

    @BeforeAll
    static void loadSchemas() throws IOException {
        Path k8s = SCHEMAS.resolve("kubernetes-v1.32.2-standalone-strict");
        BY_TYPE.put("apps/v1 Deployment", kubernetes(k8s.resolve("deployment-apps-v1.json")));
        BY_TYPE.put("v1 Service", kubernetes(k8s.resolve("service-v1.json")));
        BY_TYPE.put("v1 PersistentVolumeClaim", kubernetes(k8s.resolve("persistentvolumeclaim-v1.json")));
        BY_TYPE.put("v1 Secret", kubernetes(k8s.resolve("secret-v1.json")));
        crd(SCHEMAS.resolve("flink-kubernetes-operator-1.15.0/flinkdeployments.flink.apache.org-v1.yml"), "v1beta1");
        crd(SCHEMAS.resolve("strimzi-1.2.0/043-Crd-kafkatopic.yaml"), "v1");
        crd(SCHEMAS.resolve("strimzi-1.2.0/044-Crd-kafkauser.yaml"), "v1");
        crd(SCHEMAS.resolve("prometheus-operator-0.93.0/monitoring.coreos.com_podmonitors.yaml"), "v1");
    }

    @Test
    void everyManifestIsValidAgainstItsPublishedSchema() throws IOException {
        List<String> errors = new ArrayList<>();
        Set<String> types = new TreeSet<>();
        for (Path file : manifests()) {
            for (JsonNode doc : documents(file)) {
                String type = type(doc);
                types.add(type);
                JsonSchema schema = BY_TYPE.get(type);
                if (schema == null) {
                    errors.add(file.getFileName() + ": no schema shipped for " + type);
                    continue;
                }
                for (ValidationMessage m : schema.validate(doc)) {
                    errors.add(file.getFileName() + " " + type + " " + doc.path("metadata").path("name").asText() + ": " + m);
                }
            }
        }
        assertThat(errors).isEmpty();
        assertThat(types).as("what the manifests hold").containsExactlyInAnyOrder("flink.apache.org/v1beta1 FlinkDeployment",
                "kafka.strimzi.io/v1 KafkaTopic", "kafka.strimzi.io/v1 KafkaUser", "apps/v1 Deployment", "v1 Service",
                "v1 PersistentVolumeClaim", "v1 Secret", "monitoring.coreos.com/v1 PodMonitor");
    }

    @Test
    void aMisspeltFieldOrAWrongTypeFails() throws IOException {
        // the validator is not lenient: each of these mistakes is one that would pass unnoticed without it
        JsonNode deployment = only("commitflow-deployment.yaml", "FlinkDeployment");
        assertThat(BY_TYPE.get(type(deployment)).validate(deployment)).isEmpty();

        ObjectNode misspelt = deployment.deepCopy();
        ((ObjectNode) misspelt.path("spec").path("job")).put("upgradeMod", "savepoint");
        assertThat(errors(misspelt)).anyMatch(m -> m.contains("upgradeMod"));

        ObjectNode mistyped = deployment.deepCopy();
        ((ObjectNode) mistyped.path("spec").path("job")).put("parallelism", "four");
        assertThat(errors(mistyped)).anyMatch(m -> m.contains("parallelism"));

        ObjectNode badEnum = deployment.deepCopy();
        ((ObjectNode) badEnum.path("spec").path("job")).put("upgradeMode", "checkpoint");
        assertThat(errors(badEnum)).anyMatch(m -> m.contains("upgradeMode"));

        ObjectNode podField = deployment.deepCopy(); // deep in the pod template, a Kubernetes core type
        ((ObjectNode) podField.path("spec").path("podTemplate").path("spec").path("containers").get(0))
                .putArray("volumeMount");
        assertThat(errors(podField)).anyMatch(m -> m.contains("volumeMount"));

        JsonNode mirror = only("commitflow-mirror.yaml", "Deployment");
        ObjectNode replicas = mirror.deepCopy();
        ((ObjectNode) replicas.path("spec")).put("replica", 1);
        assertThat(errors(replicas)).anyMatch(m -> m.contains("replica"));
        ObjectNode port = mirror.deepCopy();
        ((ObjectNode) port.path("spec").path("template").path("spec").path("containers").get(0).path("ports").get(0))
                .put("containerPort", "metrics");
        assertThat(errors(port)).anyMatch(m -> m.contains("containerPort"));

        JsonNode claim = only("commitflow-mirror.yaml", "PersistentVolumeClaim");
        ObjectNode mode = claim.deepCopy();
        ((ObjectNode) mode.path("spec")).put("accessModes", "ReadWriteMany");
        assertThat(errors(mode)).anyMatch(m -> m.contains("accessModes"));

        JsonNode topic = documents(MANIFESTS.resolve("commitflow-topics.yaml")).get(0);
        ObjectNode partitions = topic.deepCopy();
        ((ObjectNode) partitions.path("spec")).put("partitions", 0);
        assertThat(errors(partitions)).anyMatch(m -> m.contains("partitions"));
        ObjectNode topicField = topic.deepCopy();
        ((ObjectNode) topicField.path("spec")).put("partition", 12);
        assertThat(errors(topicField)).anyMatch(m -> m.contains("partition"));

        JsonNode user = documents(MANIFESTS.resolve("commitflow-kafka-users.yaml")).get(0);
        ObjectNode operation = user.deepCopy();
        ((ArrayNode) operation.path("spec").path("authorization").path("acls").get(0).path("operations")).add("Reed");
        assertThat(errors(operation)).anyMatch(m -> m.contains("operations"));

        JsonNode secret = only("commitflow-s3-secret.yaml", "Secret");
        ObjectNode secretField = secret.deepCopy();
        secretField.putObject("strinData");
        assertThat(errors(secretField)).anyMatch(m -> m.contains("strinData"));
    }

    private static List<String> errors(JsonNode doc) {
        return BY_TYPE.get(type(doc)).validate(doc).stream().map(ValidationMessage::toString).toList();
    }

    private static JsonNode only(String file, String kind) throws IOException {
        List<JsonNode> docs = documents(MANIFESTS.resolve(file)).stream()
                .filter(d -> d.path("kind").asText().equals(kind)).toList();
        assertThat(docs).as(file + " holds one " + kind).hasSize(1);
        return docs.get(0);
    }

    static List<Path> manifests() throws IOException {
        try (Stream<Path> s = Files.list(MANIFESTS)) {
            List<Path> files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
            assertThat(files).isNotEmpty();
            return files;
        }
    }

    /** The YAML documents of a file, empty ones skipped. */
    static List<JsonNode> documents(Path file) throws IOException {
        try (var parser = new YAMLFactory().createParser(file.toFile())) {
            return YAML.readValues(parser, JsonNode.class).readAll().stream()
                    .filter(d -> d != null && !d.isNull() && !d.isMissingNode()).toList();
        }
    }

    private static String type(JsonNode doc) {
        return doc.path("apiVersion").asText() + " " + doc.path("kind").asText();
    }

    /** A standalone strict schema; its {@code $schema} names no draft the validator knows, and it is draft 4. */
    private static JsonSchema kubernetes(Path file) throws IOException {
        ObjectNode schema = (ObjectNode) JSON.readTree(file.toFile());
        schema.remove("$schema");
        return FACTORY.getSchema(schema);
    }

    /** The schema of one served version of a CRD, made strict, under "group/version Kind". */
    private static void crd(Path file, String version) throws IOException {
        JsonNode crd = YAML.readTree(file.toFile());
        String group = crd.path("spec").path("group").asText();
        String kind = crd.path("spec").path("names").path("kind").asText();
        JsonNode schema = null;
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("name").asText().equals(version) && v.path("served").asBoolean()) {
                schema = v.path("schema").path("openAPIV3Schema").deepCopy();
            }
        }
        assertThat(schema).as(file + " serves " + version).isNotNull();
        // the API server takes apiVersion, kind and metadata of every custom resource whether its CRD lists them or
        // not (the Flink operator's does not), and checks metadata as an ObjectMeta itself
        ObjectNode root = (ObjectNode) schema.path("properties");
        root.putIfAbsent("apiVersion", JSON.createObjectNode().put("type", "string"));
        root.putIfAbsent("kind", JSON.createObjectNode().put("type", "string"));
        root.putIfAbsent("metadata", JSON.createObjectNode().put("type", "object"));
        strict(schema);
        BY_TYPE.put(group + "/" + version + " " + kind, FACTORY.getSchema(schema));
    }

    /**
     * Closes every object schema that lists its properties, unless it keeps unknown fields; descends into the
     * properties, map values, items and combinators.
     */
    static void strict(JsonNode node) {
        strict(node, true);
    }

    /**
     * @param close false for a branch of a combinator: Strimzi's {@code oneOf} branches name only the fields that
     *              tell the branches apart, and closing them would refuse every other field of the object
     */
    private static void strict(JsonNode node, boolean close) {
        if (!(node instanceof ObjectNode schema)) {
            return;
        }
        if (schema.get("properties") instanceof ObjectNode properties) {
            properties.forEach(ManifestSchemaTest::strict);
            if (close && !schema.has("additionalProperties")
                    && !schema.path("x-kubernetes-preserve-unknown-fields").asBoolean()) {
                schema.put("additionalProperties", false);
            }
        }
        if (schema.get("additionalProperties") instanceof ObjectNode values) {
            strict(values);
        }
        JsonNode items = schema.get("items");
        if (items != null && items.isArray()) {
            items.forEach(ManifestSchemaTest::strict);
        } else {
            strict(items);
        }
        for (String combinator : List.of("allOf", "anyOf", "oneOf")) {
            schema.path(combinator).forEach(branch -> strict(branch, false));
        }
        strict(schema.get("not"), false);
    }
}
