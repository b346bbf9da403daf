package io.commitflow.eval;

import io.commitflow.generate.Authors;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.revwalk.RevCommit;

/**
 * Commits written by bots (dependency updaters, release and sync automation), which {@code eval} learns from but does
 * not score: their subjects are machine templates, and scoring them would flatter any generator on a bot-heavy
 * history. A bot is an author (not a committer: a person's commit merged by a bot is a person's) whose name or e-mail says so:
 * GitHub's {@code [bot]} suffix, a word {@code bot} ({@code Babel Bot}, {@code renovate-bot}), or a known updater
 * ({@link Authors#isBot}, which the generator uses too).
 */
public final class Bots {
    private Bots() {}

    public static boolean is(RevCommit c) {
        return is(c.getAuthorIdent());
    }

    static boolean is(PersonIdent p) {
        if (p == null) {
            return false;
        }
        return Authors.isBot(p.getName()) || Authors.isBot(p.getEmailAddress());
    }

    /** By name alone: {@code is("renovate[bot]")}. */
    public static boolean is(String name) {
        return Authors.isBot(name);
    }
}
