package io.commitflow.gateway;

import java.util.Locale;
import java.util.Set;

/**
 * The Git servers whose push webhooks the gateway takes, with how each proves a delivery is the tenant's and which
 * of its events are pushes.
 */
public enum GitServer {
    /** {@code X-Gitlab-Token}: the webhook's secret token itself. */
    GITLAB("X-Gitlab-Token", "X-Gitlab-Event", Set.of("Push Hook", "Tag Push Hook")),
    /** {@code X-Gitea-Signature}: HMAC-SHA256 of the body with the webhook's secret, in hex. */
    GITEA("X-Gitea-Signature", "X-Gitea-Event", Set.of("push")),
    /** {@code X-Hub-Signature-256}: {@code sha256=} and the HMAC-SHA256 of the body with the webhook's secret, in hex. */
    GITHUB("X-Hub-Signature-256", "X-GitHub-Event", Set.of("push"));

    private final String proofHeader;
    private final String eventHeader;
    private final Set<String> pushEvents;

    GitServer(String proofHeader, String eventHeader, Set<String> pushEvents) {
        this.proofHeader = proofHeader;
        this.eventHeader = eventHeader;
        this.pushEvents = pushEvents;
    }

    /** Its name in paths, credential files and metrics: {@code gitlab}, {@code gitea}, {@code github}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The header that carries the token or the signature. */
    public String proofHeader() {
        return proofHeader;
    }

    /** The header that names the delivery's event. */
    public String eventHeader() {
        return eventHeader;
    }

    /** Whether the event header's value (null: none sent) is a push; a delivery without one is judged by its body. */
    public boolean isPush(String event) {
        return event == null || pushEvents.contains(event.strip());
    }

    /** @throws IllegalArgumentException naming the servers there are */
    public static GitServer of(String id) {
        for (GitServer s : values()) {
            if (s.id().equals(id)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown Git server " + id + "; one of gitlab, gitea, github");
    }
}
