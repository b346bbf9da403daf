package io.commitflow.build;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The build's supply-chain rules: every dependency version lives in the parent POM's dependency management (one
 * place to read and to bump), and the job jar's SBOM is configured to be written beside it.
 */
class BuildPolicyTest {
    private static final Path HOME = Path.of(System.getProperty("commitflow.home", "..")).toAbsolutePath().normalize();

    @Test
    void noDependencyDeclaresAVersionOutsideTheParentsDependencyManagement() throws Exception {
        Document parent = read(HOME.resolve("pom.xml"));
        List<String> violations = new ArrayList<>();
        List<Path> poms = new ArrayList<>(List.of(HOME.resolve("pom.xml")));
        NodeList modules = parent.getElementsByTagName("module");
        for (int i = 0; i < modules.getLength(); i++) {
            poms.add(HOME.resolve(modules.item(i).getTextContent().strip()).resolve("pom.xml"));
        }
        assertThat(poms).hasSizeGreaterThan(4);
        for (Path pom : poms) {
            NodeList deps = read(pom).getElementsByTagName("dependency");
            for (int i = 0; i < deps.getLength(); i++) {
                Element d = (Element) deps.item(i);
                if (insideDependencyManagement(d) || child(d, "version") == null) {
                    continue;
                }
                violations.add(HOME.relativize(pom) + ": " + child(d, "groupId") + ":" + child(d, "artifactId") + " "
                        + child(d, "version"));
            }
        }
        assertThat(violations).as("declare the version in the parent's <dependencyManagement> instead").isEmpty();
    }

    @Test
    void theJobModuleWritesACycloneDxSbomAtPackage() throws Exception {
        Document jobs = read(HOME.resolve("job/pom.xml"));
        NodeList plugins = jobs.getElementsByTagName("plugin");
        boolean found = false;
        for (int i = 0; i < plugins.getLength(); i++) {
            Element p = (Element) plugins.item(i);
            if ("cyclonedx-maven-plugin".equals(child(p, "artifactId"))) {
                found = true;
                assertThat(p.getElementsByTagName("phase").item(0).getTextContent()).isEqualTo("package");
                assertThat(p.getElementsByTagName("outputName").item(0).getTextContent()).isEqualTo("commitflow-job.cdx");
            }
        }
        assertThat(found).as("cyclonedx-maven-plugin in job/pom.xml").isTrue();
        Path sbom = HOME.resolve("job/target/commitflow-job.cdx.json");
        if (Files.exists(sbom)) { // after package: the jar's dependencies are in it
            assertThat(Files.readString(sbom)).contains("\"bomFormat\" : \"CycloneDX\"", "pkg:maven/org.eclipse.jgit/org.eclipse.jgit@",
                    "pkg:maven/org.apache.kafka/kafka-clients@").doesNotContain("pkg:maven/org.junit.jupiter/");
        }
    }

    private static boolean insideDependencyManagement(Node n) {
        for (Node p = n.getParentNode(); p != null; p = p.getParentNode()) {
            if ("dependencyManagement".equals(p.getNodeName())) {
                return true;
            }
        }
        return false;
    }

    private static String child(Element e, String name) {
        for (Node c = e.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (name.equals(c.getNodeName())) {
                return c.getTextContent().strip();
            }
        }
        return null;
    }

    private static Document read(Path pom) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(pom.toFile());
    }
}
