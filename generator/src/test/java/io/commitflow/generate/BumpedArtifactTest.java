package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BumpedArtifactTest {
    private static String patch(String file, String... lines) {
        return "diff --git a/" + file + " b/" + file + "\n--- a/" + file + "\n+++ b/" + file + "\n@@ -1,4 +1,4 @@\n"
                + String.join("\n", lines) + "\n";
    }

    @Test
    void readsTheBumpedLibraryFromTheLinesThatCarryItsNewVersion() {
        assertThat(BumpedArtifact.of(patch("pom.xml", "     <commons-codec-version>1.17.1</commons-codec-version>",
                "-    <bytebuddy-version>1.14.7</bytebuddy-version>", "+    <bytebuddy-version>1.14.8</bytebuddy-version>"),
                "1.14.8")).isEqualTo("bytebuddy");
        assertThat(BumpedArtifact.of(patch("pom.xml", "       <artifactId>maven-enforcer-plugin</artifactId>",
                "-      <version>3.2.1</version>", "+      <version>3.3.0</version>"), "3.3.0")).isEqualTo("maven-enforcer-plugin");
        assertThat(BumpedArtifact.of(patch("package.json", "-    \"vite\": \"^5.4.18\",", "+    \"vite\": \"^5.4.19\","),
                "5.4.19")).isEqualTo("vite");
        assertThat(BumpedArtifact.of(patch(".github/workflows/ci.yml", "-      - uses: actions/checkout@v4.1.1",
                "+      - uses: actions/checkout@v4.1.2"), "4.1.2")).isEqualTo("actions/checkout");
        assertThat(BumpedArtifact.of(patch("WORKSPACE", "-BYTE_BUDDY_VERSION = \"1.15.1\"",
                "+BYTE_BUDDY_VERSION = \"1.15.3\""), "1.15.3")).isEqualTo("byte-buddy");
        assertThat(BumpedArtifact.of(patch("lib/BUILD", "-    artifact = \"commons-io:commons-io:2.15.1\",",
                "+    artifact = \"commons-io:commons-io:2.16.1\",", "+    version = \"2.16.1\""), "2.16.1"))
                .as("Bazel's version = names no library").isEqualTo("commons-io");
        assertThat(BumpedArtifact.of(patch("build.gradle", "-  implementation 'org.slf4j:slf4j-api:2.0.12'",
                "+  implementation 'org.slf4j:slf4j-api:2.0.13'"), "2.0.13")).isEqualTo("slf4j-api");
    }

    @Test
    void severalNamesAreOneFamilyWhenAVersionPropertyOrABundleNamesThemAll() {
        // jgit's "Update bytebuddy to 1.14.8": the variable and two artifacts of the target platforms
        assertThat(BumpedArtifact.of(patch("WORKSPACE", "-BYTE_BUDDY_VERSION = \"1.14.7\"", "+BYTE_BUDDY_VERSION = \"1.14.8\"",
                "     \t\t<artifactId>byte-buddy</artifactId>", "+    \t\t<version>1.14.8</version>",
                "     \t\t<artifactId>byte-buddy-agent</artifactId>", "+    \t\t<version>1.14.8</version>"), "1.14.8"))
                .isEqualTo("byte-buddy");
        // "Update mina-sshd to 2.12.1": SSHD_VERS names sshd-osgi and sshd-sftp
        assertThat(BumpedArtifact.of(patch("WORKSPACE", "+SSHD_VERS = \"2.12.1\"",
                "     <artifactId>sshd-osgi</artifactId>", "+    <version>2.12.1</version>",
                "     <artifactId>sshd-sftp</artifactId>", "+    <version>2.12.1</version>"), "2.12.1")).isEqualTo("sshd");
        // the pom's property is the family of the artifact the target platform names
        assertThat(BumpedArtifact.of(patch("pom.xml", "+    <assertj-version>3.25.3</assertj-version>",
                "     <artifactId>assertj-core</artifactId>", "+    <version>3.25.3</version>"), "3.25.3")).isEqualTo("assertj");
        // Eclipse target platform units: the bundle the others extend
        assertThat(BumpedArtifact.of(patch("jgit-4.38.target",
                "+      <unit id=\"org.objectweb.asm\" version=\"9.9.1\"/>",
                "+      <unit id=\"org.objectweb.asm.tree\" version=\"9.9.1\"/>",
                "+      <unit id=\"org.objectweb.asm.util\" version=\"9.9.1\"/>"), "9.9.1")).isEqualTo("org.objectweb.asm");
        // no name of the family's own: two artifacts stay two
        assertThat(BumpedArtifact.of(patch("jgit.target", "     <artifactId>sshd-osgi</artifactId>",
                "+    <version>2.12.1</version>", "     <artifactId>sshd-sftp</artifactId>", "+    <version>2.12.1</version>"),
                "2.12.1")).isNull();
    }

    @Test
    void noneWhenSeveralLibrariesMoveToTheVersionOrNoneCanBeRead() {
        assertThat(BumpedArtifact.of(patch("package.json", "+    \"vue\": \"^3.5.0\",", "+    \"vue-router\": \"^3.5.0\","),
                "3.5.0")).as("a package is no family's name").isNull();
        assertThat(BumpedArtifact.of(patch("README.md", "+Version 3.5.0 is out"), "3.5.0")).isNull();
    }

    @Test
    void anExemplarsBumpIsRenamedToTheLibraryThisDiffBumps() {
        String p = patch("pom.xml", "     <commons-codec-version>1.17.1</commons-codec-version>",
                "-    <bytebuddy-version>1.14.7</bytebuddy-version>", "+    <bytebuddy-version>1.14.8</bytebuddy-version>");

        assertThat(BumpedArtifact.named(Subject.parse("Update commons-codec to 1.14.8"), p, List.of("1.14.8")).render())
                .isEqualTo("Update bytebuddy to 1.14.8");
        assertThat(BumpedArtifact.named(Subject.parse("Update Apache commons-codec to 1.14.8"), p, List.of("1.14.8"))
                .render()).as("the qualifier goes with the name").isEqualTo("Update bytebuddy to 1.14.8");
        Subject right = Subject.parse("Update bytebuddy to 1.14.8");
        assertThat(BumpedArtifact.named(right, p, List.of("1.14.8"))).isSameAs(right);
        Subject plain = Subject.parse("Fix the build");
        assertThat(BumpedArtifact.named(plain, p, List.of("1.14.8"))).isSameAs(plain);
        assertThat(BumpedArtifact.named(Subject.parse("Update commons-codec to 1.14.8"), p, List.of("1.14.8", "2.0")))
                .as("which library, when the diff moves to two versions, is not known").isNull();
        // pinning is bumping: "[hotfix] Pin Flink version to 1.11.4" named flink for an avro update
        String avro = patch("pom.xml", "     <flink.version>1.20.0</flink.version>",
                "-    <avro.version>1.11.3</avro.version>", "+    <avro.version>1.11.4</avro.version>");
        assertThat(BumpedArtifact.named(Subject.parse("[hotfix] Pin Flink version to 1.11.4"), avro, List.of("1.11.4"))
                .render()).isEqualTo("[hotfix] Pin avro version to 1.11.4");
    }
}
