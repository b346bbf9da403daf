package io.commitflow.gateway;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WebhookSecretsTest {
    private static final byte[] BODY = "{\"ref\":\"refs/heads/main\"}".getBytes(StandardCharsets.UTF_8);
    private static final String A_SECRET = "a-secret-of-tenant-a";
    private static final String B_SECRET = "b-secret-of-tenant-b";
    private static final WebhookSecrets SECRETS = WebhookSecrets.parse("""
            # tenant:server:secret
            a:gitlab:%1$s
            a:gitea:%1$s
            a:github:%1$s

            b:github:%2$s   b:gitlab:%2$s
            """.formatted(A_SECRET, B_SECRET), "secrets");

    @Test
    void githubsDocumentedExampleVerifiesAsGithubAndAsGitea() {
        // the example in GitHub's "Validating webhook deliveries"
        byte[] secret = "It's a Secret to Everybody".getBytes(StandardCharsets.UTF_8);
        byte[] payload = "Hello, World!".getBytes(StandardCharsets.UTF_8);
        String hex = "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
        assertThat(WebhookSecrets.verify(GitServer.GITHUB, secret, "sha256=" + hex, payload)).isTrue();
        assertThat(WebhookSecrets.verify(GitServer.GITEA, secret, hex, payload)).isTrue();
        assertThat(WebhookSecrets.verify(GitServer.GITEA, secret, hex.toUpperCase(), payload)).isTrue();

        assertThat(WebhookSecrets.verify(GitServer.GITHUB, secret, hex, payload)).as("without sha256=").isFalse();
        assertThat(WebhookSecrets.verify(GitServer.GITHUB, secret, "sha1=" + hex, payload)).isFalse();
        assertThat(WebhookSecrets.verify(GitServer.GITEA, secret, hex.substring(2), payload)).as("cut short").isFalse();
        assertThat(WebhookSecrets.verify(GitServer.GITEA, secret, "zz" + hex.substring(2), payload)).isFalse();
        assertThat(WebhookSecrets.verify(GitServer.GITEA, secret, hex, "Hello, World?".getBytes(StandardCharsets.UTF_8)))
                .as("another body").isFalse();
    }

    @Test
    void theSecretThatProvesADeliveryNamesItsTenant() {
        for (GitServer s : GitServer.values()) {
            assertThat(SECRETS.tenantOf(s, WebhookSecrets.sign(s, A_SECRET, BODY), BODY)).contains("a");
            assertThat(SECRETS.tenantOf(s, null, BODY)).as("no header").isEmpty();
            assertThat(SECRETS.tenantOf(s, "", BODY)).isEmpty();
            assertThat(SECRETS.tenantOf(s, WebhookSecrets.sign(s, "not-anybodys-secret", BODY), BODY)).isEmpty();
        }
        assertThat(SECRETS.tenantOf(GitServer.GITHUB, WebhookSecrets.sign(GitServer.GITHUB, B_SECRET, BODY), BODY)).contains("b");
        assertThat(SECRETS.tenantOf(GitServer.GITLAB, B_SECRET, BODY)).contains("b");
        assertThat(SECRETS.tenantOf(GitServer.GITEA, WebhookSecrets.sign(GitServer.GITEA, B_SECRET, BODY), BODY))
                .as("b has no gitea secret").isEmpty();
        assertThat(SECRETS.tenantOf(GitServer.GITLAB, A_SECRET + " ", BODY)).as("the token exactly").isEmpty();
        byte[] tampered = "{\"ref\":\"refs/heads/evil\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(SECRETS.tenantOf(GitServer.GITHUB, WebhookSecrets.sign(GitServer.GITHUB, A_SECRET, BODY), tampered))
                .as("a signature of another body").isEmpty();
        assertThat(SECRETS.tenants(GitServer.GITLAB)).containsExactly("a", "b");
    }

    @Test
    void badEntriesAreRefusedWithTheirLineAndWithoutTheSecret() {
        assertThatThrownBy(() -> WebhookSecrets.parse("a:bitbucket:" + A_SECRET, "f"))
                .hasMessageContaining("f line 1").hasMessageContaining("gitlab, gitea, github").hasMessageNotContaining(A_SECRET);
        assertThatThrownBy(() -> WebhookSecrets.parse("\na:gitlab:short", "f"))
                .hasMessageContaining("f line 2").hasMessageContaining("at least 16").hasMessageNotContaining("short");
        assertThatThrownBy(() -> WebhookSecrets.parse("a:" + A_SECRET, "f")).hasMessageContaining("TENANT:SERVER:SECRET");
        assertThatThrownBy(() -> WebhookSecrets.parse("a:gitea:" + A_SECRET + "\na:gitea:" + B_SECRET, "f"))
                .hasMessageContaining("has a gitea secret already");
        assertThatThrownBy(() -> WebhookSecrets.parse("a:gitea:" + A_SECRET + "\nb:gitea:" + A_SECRET, "f"))
                .hasMessageContaining("a secret names one tenant").hasMessageNotContaining(A_SECRET);
        assertThatThrownBy(() -> WebhookSecrets.parse("-a:gitea:" + A_SECRET, "f")).hasMessageContaining("not a tenant's name");
        assertThat(WebhookSecrets.parse("# nothing\n\n", "f").isEmpty()).isTrue();
    }
}
