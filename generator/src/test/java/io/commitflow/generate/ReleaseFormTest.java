package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Releases of four packaging ecosystems read from their patches, and the form a release subject takes. */
class ReleaseFormTest {
    private static String file(String path, String hunk) {
        return "diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path + "\n" + hunk;
    }

    static String cargo(String name, String from, String to) {
        return file("Cargo.toml", "@@ -1,6 +1,6 @@\n [package]\n name = \"" + name + "\"\n-version = \"" + from
                + "\"\n+version = \"" + to + "\"\n authors = [\"A <a@example.com>\"]\n")
                + file("src/lib.rs", "@@ -206,3 +206,3 @@\n //!\n-#![doc(html_root_url = \"https://docs.rs/" + name + "/"
                + from + "\")]\n+#![doc(html_root_url = \"https://docs.rs/" + name + "/" + to + "\")]\n #![no_std]\n");
    }

    static String npm(String name, String from, String to) {
        return file("package.json", "@@ -1,5 +1,5 @@\n {\n \t\"name\": \"" + name + "\",\n-\t\"version\": \"" + from
                + "\",\n+\t\"version\": \"" + to + "\",\n \t\"license\": \"MIT\",\n");
    }

    private static String maven(String artifact, String from, String to) {
        return file("pom.xml", "@@ -5,7 +5,7 @@\n   <groupId>org.example</groupId>\n   <artifactId>" + artifact
                + "</artifactId>\n-  <version>" + from + "</version>\n+  <version>" + to + "</version>\n   <packaging>jar</packaging>\n")
                + file("CHANGES.md", "@@ -1,2 +1,4 @@\n # Changes\n+\n+## " + to + "\n \n");
    }

    private static String python(String name, String from, String to) {
        return file("pyproject.toml", "@@ -1,4 +1,4 @@\n [project]\n name = \"" + name + "\"\n-version = \"" + from
                + "\"\n+version = \"" + to + "\"\n description = \"A web framework\"\n");
    }

    @Test
    void readsTheReleaseOfEachEcosystemWithItsPackagesName() {
        assertThat(ReleaseForm.of(cargo("anyhow", "1.0.103", "1.0.104"))).isEqualTo(new ReleaseForm("1.0.104", "anyhow"));
        assertThat(ReleaseForm.of(npm("ky", "1.7.2", "1.7.3"))).isEqualTo(new ReleaseForm("1.7.3", "ky"));
        assertThat(ReleaseForm.of(maven("commons-text", "1.12.0", "1.13.0")))
                .as("the change log may change too").isEqualTo(new ReleaseForm("1.13.0", "commons-text"));
        assertThat(ReleaseForm.of(python("flask", "3.0.2", "3.0.3"))).isEqualTo(new ReleaseForm("3.0.3", "flask"));
    }

    @Test
    void aTomlVersionLineMayEndInAComment() {
        String grepCli = file("crates/cli/Cargo.toml", "@@ -1,6 +1,6 @@\n [package]\n name = \"grep-cli\"\n-version = "
                + "\"0.1.11\"  #:version\n+version = \"0.1.12\"  #:version\n authors = [\"A <a@example.com>\"]\n");
        assertThat(ReleaseForm.of(grepCli)).isEqualTo(new ReleaseForm("0.1.12", "grep-cli"));
    }

    @Test
    void aVersionInsideAnObjectOfPackageJsonIsNotThePackages() {
        String templateOss = file("package.json", "@@ -40,7 +40,7 @@\n   \"templateOSS\": {\n     \"//@npmcli/template-oss\": "
                + "\"This file is partially managed by @npmcli/template-oss.\",\n-    \"version\": \"4.10.0\"\n+    "
                + "\"version\": \"4.11.0\"\n   }\n }\n");
        assertThat(ReleaseForm.of(templateOss)).as("the template's version, two levels in").isNull();
        String fourSpaces = file("package.json", "@@ -1,4 +1,4 @@\n {\n     \"name\": \"semver\",\n-    \"version\": "
                + "\"7.5.3\",\n+    \"version\": \"7.5.4\",\n");
        assertThat(ReleaseForm.of(fourSpaces)).as("a file indented by four, its own version")
                .isEqualTo(new ReleaseForm("7.5.4", "semver"));
    }

    @Test
    void aDiffThatChangesMoreThanTheVersionIsNoRelease() {
        String bump = cargo("anyhow", "1.0.103", "1.0.104")
                + file("src/error.rs", "@@ -1,3 +1,3 @@\n fn a() {\n-    old();\n+    new();\n }\n");
        assertThat(ReleaseForm.of(bump)).isNull();
        // a dependency's version, not the package's own
        assertThat(ReleaseForm.of(file("Cargo.toml", "@@ -8,3 +8,3 @@\n [dependencies]\n-serde = \"1.0.1\"\n"
                + "+serde = \"1.0.2\"\n"))).isNull();
        assertThat(ReleaseForm.of(TestDiffs.change("r", "a".repeat(40), "Widget", "run", null, null).patch())).isNull();
        assertThat(ReleaseForm.of(maven("flink-connector-kafka", "3.0-SNAPSHOT", "4.0-SNAPSHOT")))
                .as("a snapshot is no release").isNull();
        assertThat(ReleaseForm.of(npm("a", "1.0.0", "1.0.1") + npm("b", "2.0.0", "2.0.1"))).as("two packages").isNull();
        assertThat(ReleaseForm.of(npm("a", "1.0.0", "1.0.1").replace("package.json", "packages/a/package.json")
                + npm("b", "1.0.0", "1.0.1").replace("package.json", "packages/b/package.json")))
                .as("a monorepo's packages released together: a release, of no one name")
                .isEqualTo(new ReleaseForm("1.0.1", null));
    }

    @Test
    void theFormHasTheVersionAndTheNameAsPlaceholders() {
        ReleaseForm r = new ReleaseForm("1.38.0", "tokio");

        assertThat(r.template("Release 1.38.0")).isEqualTo("Release {version}");
        assertThat(r.template("chore: prepare Tokio v1.38.0 (#6600)")).as("the pull request's number is no form")
                .isEqualTo("chore: prepare {Name} v{version}");
        assertThat(r.template("[FLINK-123] Release 1.38.0")).as("an old ticket would be").isNull();
        assertThat(r.template("tokio-1.38.0")).isEqualTo("{name}-{version}");
        assertThat(r.template("Release 1.38.01")).as("another version").isNull();
        assertThat(r.template("Fix the scheduler")).isNull();
        assertThat(new ReleaseForm("1.39.1", "tokio").fill("{name}-{version}")).isEqualTo("tokio-1.39.1");
        assertThat(new ReleaseForm("1.39.1", null).fill("{name}-{version}")).as("no name to write").isNull();
        assertThat(new ReleaseForm("1.39.1", null).fill("Release {version}")).isEqualTo("Release 1.39.1");
    }
}
