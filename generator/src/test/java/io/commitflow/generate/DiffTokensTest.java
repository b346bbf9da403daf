package io.commitflow.generate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DiffTokensTest {
    @Test
    void findsNewVersionsOfADiff() {
        String patch = "--- a/pom.xml\n+++ b/pom.xml\n-<v>1.18.10</v>\n+<v>1.18.11</v>\n context 2.0.0\n+<w>3.1-SNAPSHOT</w>\n";
        assertThat(DiffTokens.newVersions(patch)).containsExactly("1.18.11", "3.1-SNAPSHOT");
        assertThat(DiffTokens.versionShape(patch)).isEmpty();
        assertThat(DiffTokens.versionShape("+<v>2.0.0-RC1</v>\n")).isEqualTo("RC");
        assertThat(DiffTokens.versionShape("+ no versions here\n")).isNull();
    }

    @Test
    void aVersionRangesExcludedEndIsNoNewVersion() {
        // jgit's "Update apache mina-sshd to 2.18.0": the manifests' ranges move from [2.17.1,2.18.0) to [2.18.0,2.19.0)
        String patch = "--- a/MANIFEST.MF\n+++ b/MANIFEST.MF\n-SSHD_VERSION = \"2.17.1\"\n+SSHD_VERSION = \"2.18.0\"\n"
                + "-Import-Package: org.apache.sshd.common;version=\"[2.17.1,2.18.0)\",\n"
                + "+Import-Package: org.apache.sshd.common;version=\"[2.18.0,2.19.0)\",\n";
        assertThat(DiffTokens.newVersions(patch)).containsExactly("2.18.0");
        assertThat(DiffTokens.oldVersions(patch)).containsExactly("2.17.1");
    }

    @Test
    void anXmlDeclarationsVersionIsNoNewVersion() {
        String patch = "--- /dev/null\n+++ b/jgit-4.32.target\n+<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "+<unit id=\"com.jcraft.jsch\" version=\"0.1.55.v20230916-1400\"/>\n";
        assertThat(DiffTokens.newVersions(patch)).containsExactly("0.1.55.v20230916");
    }

    @Test
    void splitsIdentifiersIntoWords() {
        assertThat(DiffTokens.words("parseCommitEvent_v2")).containsExactly("parse", "commit", "event", "v2");
        assertThat(DiffTokens.words("HTTPServerError")).containsExactly("http", "server", "error");
    }
}
