package io.commitflow.push;

import io.commitflow.event.CommitEvent;
import io.commitflow.event.InvalidEventException;
import io.commitflow.event.PushEvent;
import io.commitflow.event.Reason;
import io.commitflow.event.TestEvents;
import io.commitflow.git.GitFixture;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PushExpanderTest {
    private static final String ZERO = PushEvent.ZERO_SHA1;
    @TempDir
    Path root;
    private GitFixture fx;
    private RevCommit c1;
    private RevCommit c2;
    private RevCommit c3;

    @BeforeEach
    void setUp() throws Exception {
        fx = new GitFixture(root, "r.git");
        c1 = fx.git.commit().add("a", "1").message("first").create();
        c2 = fx.git.commit().parent(c1).add("a", "2").message("second").create();
        c3 = fx.git.commit().parent(c2).add("a", "3").message("third").create();
        fx.git.update("refs/heads/main", c3);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private List<CommitEvent> expand(PushEvent push) throws Exception {
        List<CommitEvent> out = new ArrayList<>();
        new PushExpander().expand(fx.repo, push, out::add);
        return out;
    }

    @Test
    void expandsFastForwardOldestFirstWithRealMessages() throws Exception {
        List<CommitEvent> commits = expand(TestEvents.push("r", "refs/heads/main", c1.name(), c3.name()));

        assertThat(commits).extracting(CommitEvent::sha).containsExactly(c2.name(), c3.name());
        assertThat(commits).extracting(CommitEvent::message).containsExactly("second", "third");
        assertThat(commits.get(0).parents()).containsExactly(c1.name());
        // one trace per event: each commit's spans hang under the push's
        PushEvent push = TestEvents.push("r", "refs/heads/main", c1.name(), c3.name());
        assertThat(commits).extracting(CommitEvent::traceId).containsOnly(push.traceId());
    }

    @Test
    void newBranchYieldsOnlyCommitsNotOnOtherRefs() throws Exception {
        RevCommit f1 = fx.git.commit().parent(c3).add("b", "1").create();
        RevCommit f2 = fx.git.commit().parent(f1).add("b", "2").create();
        fx.git.update("refs/heads/feature", f2);

        List<CommitEvent> commits = expand(TestEvents.push("r", "refs/heads/feature", ZERO, f2.name()));

        assertThat(commits).extracting(CommitEvent::sha).containsExactly(f1.name(), f2.name());
    }

    @Test
    void aNewBranchThatTheMirrorsHeadPointsAtYieldsAllItsCommits() throws Exception {
        // git clone --mirror of a repository whose first push created main: HEAD -> refs/heads/main
        org.eclipse.jgit.lib.RefUpdate head = fx.repo.updateRef("HEAD");
        head.link("refs/heads/main");

        List<CommitEvent> commits = expand(TestEvents.push("r", "refs/heads/main", ZERO, c3.name()));

        assertThat(commits).extracting(CommitEvent::sha).containsExactly(c1.name(), c2.name(), c3.name());
    }

    @Test
    void forcePushYieldsOnlyTheNewCommits() throws Exception {
        RevCommit rewritten = fx.git.commit().parent(c2).add("a", "3b").create();
        fx.git.update("refs/heads/main", rewritten);

        List<CommitEvent> commits = expand(TestEvents.push("r", "refs/heads/main", c3.name(), rewritten.name()));

        assertThat(commits).extracting(CommitEvent::sha).containsExactly(rewritten.name());
    }

    @Test
    void deletedRefYieldsNothing() throws Exception {
        assertThat(expand(TestEvents.push("r", "refs/heads/main", c3.name(), ZERO))).isEmpty();
    }

    @Test
    void rejectsPushWhoseTipIsNotInTheMirror() {
        assertThatThrownBy(() -> expand(TestEvents.push("r", "refs/heads/main", c3.name(), "e".repeat(40))))
                .isInstanceOf(InvalidEventException.class)
                .satisfies(e -> assertThat(((InvalidEventException) e).reason()).isEqualTo(Reason.UNKNOWN_COMMIT));
    }

    @Test
    void aPushOfMoreCommitsThanItsBoundIsRefusedWholeBeforeAnyCommitGoesOut() throws Exception {
        RevCommit tip = c3;
        for (int i = 0; i < 5; i++) {
            tip = fx.git.commit().parent(tip).add("a", "more " + i).create();
        }
        fx.git.update("refs/heads/main", tip);
        PushEvent push = TestEvents.push("r", "refs/heads/main", c1.name(), tip.name()); // 7 commits
        List<CommitEvent> out = new ArrayList<>();

        assertThatThrownBy(() -> new PushExpander(6).expand(fx.repo, push, out::add))
                .isInstanceOfSatisfying(InvalidEventException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.TOO_MANY_COMMITS))
                .hasMessageContaining("brings more than 6 commits (--max-push-commits)");
        assertThat(out).as("nothing of a refused push goes out").isEmpty();
        assertThat(new PushExpander(7).expand(fx.repo, push, out::add)).isEqualTo(7);
        assertThatThrownBy(() -> new PushExpander(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
