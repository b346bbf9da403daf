package io.commitflow.generate;

import java.util.regex.Pattern;

/**
 * Who wrote a commit, as far as writing its subject goes: a person, or a bot (dependency updaters, release and sync
 * automation) whose subjects are machine templates. {@code eval} learns from bots' commits but does not score them; a
 * repository's habits ({@link RepoStyle}) are counted from people's commits only.
 */
public final class Authors {
    /**
     * GitHub's {@code [bot]} suffix, a word {@code bot} ({@code Babel Bot}, {@code renovate-bot}), or a known updater,
     * in a name or an e-mail address.
     */
    private static final Pattern BOT = Pattern.compile(
            "(?i)\\[bot]|(^|[\\s._-])bot($|[\\s@._-])|^(dependabot|greenkeeper|snyk-bot|github-actions|"
                    + "mergify|pre-commit-ci|allcontributors|imgbot|depfu|pyup-bot|weblate)\\b");

    private Authors() {}

    /** The author ({@code renovate[bot]}, {@code Name <e-mail>}, as an event names it) is a bot; false for null. */
    public static boolean isBot(String author) {
        return author != null && BOT.matcher(author).find();
    }
}
