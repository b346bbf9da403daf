package io.commitflow.mirror;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The mirror service's URL templates: checked when the service starts, and filled per tenant and repository. */
class MirrorSourcesTest {
    @Test
    void fillsTheTenantsTemplateOrTheDefault() {
        MirrorSources s = MirrorSources.parse(List.of("acme=ssh://git@gerrit:29418/{name}", "*=https://gitea/{name}.git"));

        assertThat(s.url("acme", "team/app.git")).isEqualTo("ssh://git@gerrit:29418/team/app");
        assertThat(s.url("other", "team/app")).isEqualTo("https://gitea/team/app.git");
        assertThat(MirrorSources.parse(List.of("acme=git://host/{repo}")).url("someone", "app")).isNull();
    }

    @Test
    void aNameIsEncodedInAnHttpUrlAndLeftAsItIsElsewhere() {
        MirrorSources s = MirrorSources.parse(List.of("acme=https://gitea/{name}.git", "local=/srv/git/{repo}",
                "gerrit=ssh://git@gerrit:29418/{name}"));

        assertThat(s.url("acme", "team/my app#2?.git")).isEqualTo("https://gitea/team/my%20app%232%3F.git");
        assertThat(s.url("acme", "équipe/app")).isEqualTo("https://gitea/%C3%A9quipe/app.git");
        assertThat(s.url("acme", "team/app-1.2_x~y")).as("unreserved characters stay").isEqualTo(
                "https://gitea/team/app-1.2_x~y.git");
        assertThat(s.url("local", "team/my app")).isEqualTo("/srv/git/team/my app");
        assertThat(s.url("gerrit", "team/my app")).isEqualTo("ssh://git@gerrit:29418/team/my app");
    }

    @Test
    void refusesCredentialsInTheUrlWhateverTheirForm() {
        for (String url : List.of("https://user:secret@host/{name}", "https://ghp_TOKEN123@host/{name}.git",
                "HTTP://oauth2@host/{repo}", "ssh://git:secret@host/{name}")) {
            assertThatThrownBy(() -> MirrorSources.parse(List.of("acme=" + url))).as(url)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no credentials in the URL")
                    .hasMessageNotContaining("TOKEN123");
        }
        // an SSH account name is no secret; an @ after the host is part of the path
        assertThat(MirrorSources.parse(List.of("acme=ssh://git@host/{name}", "*=https://host/x@y/{name}")).isEmpty())
                .isFalse();
    }

    @Test
    void refusesMalformedSpecs() {
        assertThatThrownBy(() -> MirrorSources.parse(List.of("https://host/{name}"))).hasMessageContaining("TENANT=URL");
        assertThatThrownBy(() -> MirrorSources.parse(List.of("acme=https://host/app"))).hasMessageContaining("{repo}");
        assertThatThrownBy(() -> MirrorSources.parse(List.of("acme=git://a/{name}", "acme=git://b/{name}")))
                .hasMessageContaining("twice");
    }
}
